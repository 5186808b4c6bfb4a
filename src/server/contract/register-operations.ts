/**
 * Registers one Fastify route per contract operation and dispatches it to the handler of the same
 * operationId. Every request is checked here, in this order: session (when the operation is not
 * public), path parameters (a malformed id is simply not found), query, then for a form who may send
 * it (form-operation.ts), media type, body against the contract, and a form's values against its
 * shared schema and rules.
 * PATCH/PUT/DELETE paths also answer POST with a `_method` field (docs/product.md §7 method override).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, LogLevel } from 'fastify';
import type { FieldErrors } from '#shared/validation/index.ts';
import { ApiError, notFound, validationFailed } from '../http/envelope.ts';
import { isUploadedFile } from '../plugins/multipart.ts';
import {
  type AnyFormSpec,
  type FormStart,
  formSpecOf,
  judgeForm,
  keepJudgedForm,
  startForm,
} from './form-operation.ts';
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
  /** The form pipeline of an operation declared with `withForm` (form-operation.ts). */
  form: AnyFormSpec | undefined;
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

/**
 * A form's answer to a body the contract refuses: the schema's messages where it judged the field, the
 * contract's generic one elsewhere. A field sent as something the form does not read as text (a
 * repeated field, a JSON part, a file in a text field) keeps the generic message rather than a
 * schema's "required" or a type error's raw text.
 */
async function refusedFormErrors(
  start: FormStart,
  body: unknown,
  ajvErrors: ErrorObject[] | null | undefined,
): Promise<FieldErrors> {
  const fields = genericErrors(ajvErrors);
  const sent = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  // A file where the contract wants text is not the schema's to judge (its string rules would throw).
  const values = Object.fromEntries(
    Object.entries(start.values).filter(([name, value]) => typeof value === 'string' || !(name in fields)),
  );
  const judged = await judgeForm({ ...start, values });
  if (judged.ok) return fields;
  for (const [field, ids] of Object.entries(judged.errors)) {
    const value = sent[field];
    const unread =
      field in sent && typeof value !== 'string' && !(isUploadedFile(value) && !(field in fields));
    if (!unread) fields[field] = ids;
  }
  return fields;
}

/** A form the contract accepts: the schema's and the database's rules together, then the handler's input. */
async function judgedFormOrErrors(request: FastifyRequest, start: FormStart): Promise<FieldErrors> {
  const judged = await judgeForm(start);
  const errors: FieldErrors = judged.ok ? {} : { ...judged.errors };
  await start.spec.rules?.(start.values, start.subject, errors);
  if (judged.ok && Object.keys(errors).length === 0)
    keepJudgedForm(request, { form: judged.form, sent: judged.sent, subject: start.subject });
  return errors;
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
  const form = operation.form ? await startForm(operation.form, request, reply, body) : undefined;
  const refused = async (ajvErrors: ErrorObject[] | null | undefined) =>
    validationFailed(form ? await refusedFormErrors(form, body, ajvErrors) : genericErrors(ajvErrors));
  if (operation.validateBody.size > 0) {
    const mediaType = mediaTypeOf(request);
    const validate = mediaType ? operation.validateBody.get(mediaType) : undefined;
    if (body === undefined || body === null) {
      if (contract.bodyRequired) throw await refused(null);
    } else if (!validate) {
      throw new ApiError(415, 'unsupported_media_type');
    } else if (!validate(body)) {
      throw await refused(validate.errors);
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
  if (form) {
    const errors = await judgedFormOrErrors(request, form);
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }
  return operation.handler(request, reply);
}

function prepare(contract: ContractOperation, handlers: Handlers): PreparedOperation {
  const handler = handlers[contract.operationId as OperationId] as AnyHandler | undefined;
  return {
    contract,
    handler,
    form: formSpecOf(handler),
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
  const byUrl = new Map<string, Map<string, PreparedOperation>>();

  for (const item of contract) {
    const operation = prepare(item, handlers);
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
