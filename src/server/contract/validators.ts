/**
 * Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses) validators for the contract. Bodies are validated
 * as sent: no coercion, no stripping. Query strings and path parameters arrive as text, so those
 * are coerced to the declared types and get their declared defaults.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './load-contract.ts';

function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: coerce,
    removeAdditional: false,
  });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addFormat('password', true);
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

/** A multipart file arrives as an object (see plugins/multipart.ts), not the string OpenAPI describes. */
function acceptUploadedFiles(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(acceptUploadedFiles);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = schema as Record<string, unknown>;
  if (node.format === 'binary') return { type: 'object', required: ['filename', 'data'] };
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, acceptUploadedFiles(value)]));
}

export function compileBodyValidator(schema: JsonSchema, mediaType: string): ValidateFunction {
  return bodyAjv.compile(
    (mediaType === 'multipart/form-data' ? acceptUploadedFiles(schema) : schema) as Record<string, unknown>,
  );
}

export function compileTextValidator(schema: JsonSchema): ValidateFunction {
  return textAjv.compile(schema);
}

export type { ErrorObject };

/** The field an Ajv error is about: a missing, extra or wrong property, by its top-level name. */
export function fieldOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (typeof params.missingProperty === 'string') return params.missingProperty;
  if (typeof params.additionalProperty === 'string') return params.additionalProperty;
  const segment = error.instancePath.split('/')[1];
  return segment ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : '_';
}
