/** Checks of API answers against the contract's response schemas (openapi.yaml), for the API tests. */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { loadContract } from '../contract/load-contract.ts';

type Node = Record<string, unknown>;
const contract = loadContract();
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

function responseSchema(operationId: string, status: number): Node {
  for (const pathItem of Object.values(contract.document.paths as Node)) {
    for (const operation of Object.values(pathItem as Node)) {
      if (typeof operation !== 'object' || operation === null) continue;
      const op = operation as Node;
      if (op.operationId !== operationId) continue;
      const response = (op.responses as Node)[String(status)] as Node | undefined;
      const schema = ((response?.content as Node | undefined)?.['application/json'] as Node | undefined)
        ?.schema;
      if (!schema) throw new Error(`no ${status} JSON response for ${operationId} in the contract`);
      return schema as Node;
    }
  }
  throw new Error(`unknown operation ${operationId}`);
}

/** The answer has the status the contract lists and validates against its schema there. */
export function expectContract(
  operationId: string,
  response: { statusCode: number; json(): unknown },
  status = response.statusCode,
): void {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  const key = `${operationId} ${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(responseSchema(operationId, status));
    compiled.set(key, validate);
  }
  const body = response.json();
  expect(validate(body) ? [] : validate.errors, `${operationId} ${status}`).toEqual([]);
}

/** Exactly the properties the contract declares for the entity: no more (nothing internal leaks), no fewer. */
export function expectExactKeys(item: unknown, schemaName: 'Customer' | 'User' | 'Device' | 'Product'): void {
  const schema = (contract.document.components as Node).schemas as Node;
  const properties = ((schema[schemaName] as Node).properties ?? {}) as Node;
  expect(Object.keys(item as Node).sort()).toEqual(Object.keys(properties).sort());
}
