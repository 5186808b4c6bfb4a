/**
 * Reads openapi/openapi.yaml into the list of operations the server registers. The document is the
 * single source of truth: paths, methods, parameters, bodies and security all come from it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export type JsonSchema = Record<string, unknown>;

export interface ContractOperation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Fastify URL with its prefix, e.g. /api/v1/customers/:id */
  url: string;
  requiresSession: boolean;
  paramsSchema: JsonSchema | undefined;
  querySchema: JsonSchema | undefined;
  /** Schema per media type of the request body. */
  bodySchemas: Record<string, JsonSchema>;
  bodyRequired: boolean;
}

export const CONTRACT_FILE = path.resolve(import.meta.dirname, '../../../openapi/openapi.yaml');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/** Inlines every local $ref; the contract has no recursive schemas. */
function dereference(value: unknown, root: Node, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => dereference(item, root, seen));
  if (!isNode(value)) return value;
  const ref = value.$ref;
  if (typeof ref === 'string') {
    if (seen.includes(ref)) throw new Error(`recursive $ref ${ref}`);
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>(
        (node, key) => (isNode(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        root,
      );
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    const { $ref: _ignored, ...siblings } = value;
    return {
      ...(dereference(target, root, [...seen, ref]) as Node),
      ...(dereference(siblings, root, seen) as Node),
    };
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, dereference(item, root, seen)]));
}

function parameterSchema(parameters: Node[], location: 'path' | 'query'): JsonSchema | undefined {
  const own = parameters.filter((parameter) => parameter.in === location);
  if (own.length === 0) return undefined;
  return {
    type: 'object',
    properties: Object.fromEntries(own.map((parameter) => [parameter.name, parameter.schema ?? {}])),
    required: own.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}

function prefixOf(document: Node, pathItem: Node, operation: Node): string {
  const servers = (operation.servers ?? pathItem.servers ?? document.servers) as
    | { url: string }[]
    | undefined;
  const url = servers?.[0]?.url ?? '';
  return url === '/' ? '' : url.replace(/\/$/, '');
}

export function loadContract(file = CONTRACT_FILE): { document: Node; operations: ContractOperation[] } {
  const raw = parse(readFileSync(file, 'utf8')) as Node;
  const document = dereference(raw, raw) as Node;
  const globalSecurity = (document.security as unknown[] | undefined) ?? [];
  const operations: ContractOperation[] = [];
  for (const [openapiPath, pathItemValue] of Object.entries((document.paths ?? {}) as Node)) {
    const pathItem = pathItemValue as Node;
    for (const method of METHODS) {
      const operation = pathItem[method] as Node | undefined;
      if (!operation) continue;
      const parameters = [
        ...((pathItem.parameters as Node[] | undefined) ?? []),
        ...((operation.parameters as Node[] | undefined) ?? []),
      ];
      const requestBody = operation.requestBody as Node | undefined;
      const content = (requestBody?.content ?? {}) as Record<string, Node>;
      const security = (operation.security as unknown[] | undefined) ?? globalSecurity;
      operations.push({
        operationId: String(operation.operationId),
        method: method.toUpperCase() as ContractOperation['method'],
        url: prefixOf(document, pathItem, operation) + openapiPath.replace(/\{([^}]+)\}/g, ':$1'),
        requiresSession:
          security.length > 0 && !security.every((item) => isNode(item) && Object.keys(item).length === 0),
        paramsSchema: parameterSchema(parameters, 'path'),
        querySchema: parameterSchema(parameters, 'query'),
        bodySchemas: Object.fromEntries(
          Object.entries(content).map(([mediaType, media]) => [
            mediaType,
            (media.schema ?? {}) as JsonSchema,
          ]),
        ),
        bodyRequired: requestBody?.required === true,
      });
    }
  }
  return { document, operations };
}
