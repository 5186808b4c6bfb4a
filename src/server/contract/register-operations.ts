/**
 * Registers one Fastify route per contract operation and dispatches it to the handler of the same
 * operationId. Every request is checked here, in this order: session (when the operation is not
 * public), path parameters (a malformed id is simply not found), query, media type, body.
 * PATCH/PUT/DELETE paths also answer POST with a `_method` field (docs/product.md §7 method override).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, LogLevel } from 'fastify';
import type { AnySchema } from 'yup';
import { validateForm } from '#shared/validation/index.ts';
import { ApiError, notFound, validationFailed } from '../http/envelope.ts';
import { isUploadedFile } from '../plugins/multipart.ts';
import type { ApiModule, Handlers, OperationId } from './handler-types.ts';
import type { ContractOperation } from './load-contract.ts';
import { compileBodyValidator, compileTextValidator, type ErrorObject, fieldOf } from './validators.ts';

export interface SessionGuard {
  /** Resolves the caller's session or throws 401 session_expired. */
  authenticate(request: FastifyRequest): Promise<void>;
}

type AnyHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

interface PreparedOperation {
  contract: ContractOperation;
  handler: AnyHandler | undefined;
  formSchema: AnySchema | undefined;
  validateParams: ((value: unknown) => boolean) | undefined;
  validateQuery: ReturnType<typeof compileTextValidator> | undefined;
  validateBody: Map<string, ReturnType<typeof compileBodyValidator>>;
}

const OVERRIDABLE = new Set(['PATCH', 'PUT', 'DELETE']);

function genericErrors(errors: ErrorObject[] | null | undefined): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const error of errors ?? []) fields[fieldOf(error)] = ['validation.generic'];
  return fields;
}

async function bodyErrors(
  operation: PreparedOperation,
  body: unknown,
  ajvErrors: ErrorObject[] | null | undefined,
) {
  const fields = genericErrors(ajvErrors);
  if (operation.formSchema && typeof body === 'object' && body !== null && !Array.isArray(body)) {
    // The form schema judges text, and files where the contract takes one; any other value (a
    // repeated field, a JSON part, a file in a text field) keeps the contract's generic message rather
    // than a schema's "required" or a type error's raw text.
    const judged: Record<string, unknown> = {};
    const others = new Set<string>();
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === 'string' || (isUploadedFile(value) && !(name in fields))) judged[name] = value;
      else others.add(name);
    }
    const form = await validateForm(operation.formSchema, judged);
    if (!form.ok) {
      for (const [field, ids] of Object.entries(form.errors)) if (!others.has(field)) fields[field] = ids;
    }
  }
  return fields;
}

/** PostgreSQL text cannot hold U+0000, so a NUL anywhere in a value is refused before any handler runs. */
function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (isUploadedFile(value)) return value.filename.includes('\u0000');
  if (depth > 32 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((item) => containsNul(item, depth + 1));
}

function nulErrors(...values: unknown[]): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const value of values) {
    if (typeof value !== 'object' || value === null) continue;
    for (const [name, item] of Object.entries(value))
      if (containsNul(item)) fields[name] = ['validation.generic'];
  }
  return fields;
}

function mediaTypeOf(request: FastifyRequest): string | undefined {
  const header = request.headers['content-type'];
  return header ? header.split(';')[0]?.trim().toLowerCase() : undefined;
}

async function checkAndRun(
  operation: PreparedOperation,
  guard: SessionGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
): Promise<unknown> {
  const { contract } = operation;
  if (contract.requiresSession) await guard.authenticate(request);
  if (operation.validateParams && !operation.validateParams(request.params)) throw notFound();
  if (!operation.handler) throw new ApiError(501, 'not_implemented');
  if (operation.validateQuery && !operation.validateQuery(request.query ?? {})) {
    throw validationFailed(genericErrors(operation.validateQuery.errors));
  }
  if (operation.validateBody.size > 0) {
    const mediaType = mediaTypeOf(request);
    const validate = mediaType ? operation.validateBody.get(mediaType) : undefined;
    if (body === undefined || body === null) {
      if (contract.bodyRequired) throw validationFailed(await bodyErrors(operation, {}, null));
    } else if (!validate) {
      throw new ApiError(415, 'unsupported_media_type');
    } else if (!validate(body)) {
      throw validationFailed(await bodyErrors(operation, body, validate.errors));
    }
  } else if (
    body !== undefined &&
    body !== null &&
    request.method !== 'GET' &&
    Object.keys(body).length > 0
  ) {
    throw validationFailed({ _: ['validation.generic'] });
  }
  const nul = nulErrors(request.query, body);
  if (Object.keys(nul).length > 0) throw validationFailed(nul);
  return operation.handler(request, reply);
}

function prepare(
  contract: ContractOperation,
  handlers: Handlers,
  module: ApiModule['formSchemas'],
): PreparedOperation {
  const id = contract.operationId as OperationId;
  return {
    contract,
    handler: handlers[id] as AnyHandler | undefined,
    formSchema: module?.[id],
    validateParams: contract.paramsSchema ? compileTextValidator(contract.paramsSchema) : undefined,
    validateQuery: contract.querySchema ? compileTextValidator(contract.querySchema) : undefined,
    validateBody: new Map(
      Object.entries(contract.bodySchemas).map(([mediaType, schema]) => [
        mediaType,
        compileBodyValidator(schema, mediaType),
      ]),
    ),
  };
}

export function registerOperations(
  app: FastifyInstance,
  contract: ContractOperation[],
  modules: ApiModule[],
  guard: SessionGuard,
  /** Extra route config by operationId (e.g. rate limits, plugins/rate-limits.ts). */
  routeConfig: Partial<Record<string, Record<string, unknown>>> = {},
  /** A log level of their own for some operations (routine requests logged only when debugging). */
  logLevels: Partial<Record<string, LogLevel>> = {},
): void {
  const handlers: Handlers = Object.assign({}, ...modules.map((module) => module.handlers));
  const formSchemas = Object.assign({}, ...modules.map((module) => module.formSchemas ?? {}));
  const byUrl = new Map<string, Map<string, PreparedOperation>>();

  for (const item of contract) {
    const operation = prepare(item, handlers, formSchemas);
    const methods = byUrl.get(item.url) ?? new Map<string, PreparedOperation>();
    methods.set(item.method, operation);
    byUrl.set(item.url, methods);
    app.route({
      method: item.method,
      url: item.url,
      config: { ...routeConfig[item.operationId], operationId: item.operationId },
      ...(logLevels[item.operationId] ? { logLevel: logLevels[item.operationId] } : {}),
      handler: (request, reply) => checkAndRun(operation, guard, request, reply, request.body),
    });
  }

  for (const [url, methods] of byUrl) {
    if (methods.has('POST') || ![...methods.keys()].some((method) => OVERRIDABLE.has(method))) continue;
    app.route({
      method: 'POST',
      url,
      config: { operationId: 'methodOverride' },
      handler: async (request, reply) => {
        const { _method: override, ...body } = (request.body ?? {}) as Record<string, unknown>;
        const target = typeof override === 'string' ? methods.get(override.toUpperCase()) : undefined;
        if (!target || !OVERRIDABLE.has(target.contract.method))
          throw new ApiError(405, 'method_not_allowed');
        return checkAndRun(target, guard, request, reply, Object.keys(body).length > 0 ? body : undefined);
      },
    });
  }
}

/** Operations of the contract that no module implements yet (the list the closing note reports). */
export function unimplementedOperations(contract: ContractOperation[], modules: ApiModule[]): string[] {
  const handlers: Handlers = Object.assign({}, ...modules.map((module) => module.handlers));
  return contract.filter((item) => !(item.operationId in handlers)).map((item) => item.operationId);
}
