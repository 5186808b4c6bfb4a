/**
 * The one way a form reaches its handler. For an operation declared with `withForm`, the dispatcher
 * (register-operations.ts) does, in this order:
 *
 * 1. reads the body into the form's values once (`formValues`: text trimmed, empty fields dropped as
 *    docs/product.md §5 says, passwords as typed, uploaded files kept);
 * 2. asks the operation who may send it and what it changes (`authorize`), so a caller without the
 *    ability gets 403 and a missing record 404, never a 422 about a body it may not send anyway;
 * 3. checks the body against the contract (Ajv), judges the values with the shared schema
 *    (src/shared/validation) and the rules only the database knows, and answers every field's error at
 *    once (422);
 * 4. calls the handler with the schema's output: nothing re-validates it there.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnySchema, InferType } from 'yup';
import { type FieldErrors, validateForm } from '#shared/validation/index.ts';
import { isUploadedFile, type UploadedFile } from '../plugins/multipart.ts';
import type { AnswerOf, OperationHandler, OperationId, OperationRequest } from './handler-types.ts';

/** A form as sent, read once: trimmed text without the empty fields, passwords as typed, files. */
export type FormValues = Readonly<Record<string, string | UploadedFile>>;

export interface FormSpec<O extends OperationId, Schema extends AnySchema, Subject> {
  /**
   * Who may send this form, and the stored thing it changes (loaded once, handed on to the handler):
   * throws 401/403/404 before the body is judged. The values are not judged yet.
   */
  authorize(
    request: OperationRequest<O>,
    values: FormValues,
    reply: FastifyReply,
  ): Promise<Subject> | Subject;
  /** The shared schema, or the one that fits the subject (a new user's form asks for a password). */
  schema: Schema | ((subject: NoInfer<Subject>) => Schema);
  /** What the schema judges when the sent values are not the whole form: an update's stored values under them. */
  judged?(values: FormValues, subject: NoInfer<Subject>): Record<string, unknown>;
  /** The schema's context (e.g. the account a new password must not resemble). */
  context?(subject: NoInfer<Subject>): Record<string, unknown>;
  /**
   * Rules the schema cannot know (a taken e-mail, a file's content), added to `errors` so that one
   * answer lists every field's problem; they run on a body the contract accepts.
   */
  rules?(values: FormValues, subject: NoInfer<Subject>, errors: FieldErrors): Promise<void> | void;
  /** Fields taken as typed, never trimmed: passwords. */
  verbatim?: readonly string[];
}

/** What the handler of a form receives once the form is judged. */
export interface JudgedForm<Values, Subject> {
  /** The schema's output for what it judged (with an update's stored values under the sent ones). */
  form: Values;
  /** The schema's output for the fields this request sent: an update changes only these. */
  sent: Partial<Values>;
  subject: Subject;
}

export type FormHandle<O extends OperationId, Values, Subject> = (
  request: OperationRequest<O>,
  judged: JudgedForm<Values, Subject>,
  reply: FastifyReply,
) => Promise<AnswerOf<O>>;

/** A handler that declares its form: the dispatcher runs the pipeline above before calling it. */
export type FormOperationHandler<O extends OperationId> = OperationHandler<O> & {
  form: AnyFormSpec;
};

// biome-ignore lint/suspicious/noExplicitAny: the dispatcher handles every operation's spec alike
export type AnyFormSpec = FormSpec<any, AnySchema, unknown>;

const judgedForms = new WeakMap<FastifyRequest, JudgedForm<unknown, unknown>>();

export function withForm<O extends OperationId, Schema extends AnySchema, Subject>(
  spec: FormSpec<O, Schema, Subject>,
  handle: FormHandle<O, InferType<Schema>, Subject>,
): OperationHandler<O> {
  const handler = ((request: OperationRequest<O>, reply: FastifyReply) => {
    const judged = judgedForms.get(request);
    if (!judged) throw new Error('a form handler was called without its form judged');
    return handle(request, judged as JudgedForm<InferType<Schema>, Subject>, reply);
  }) as FormOperationHandler<O>;
  handler.form = spec as AnyFormSpec;
  return handler;
}

export function formSpecOf(handler: unknown): AnyFormSpec | undefined {
  return typeof handler === 'function' && 'form' in handler
    ? (handler as { form: AnyFormSpec }).form
    : undefined;
}

/** Step 1: the body's text fields trimmed, empty ones dropped; verbatim fields as typed when not empty; files. */
export function formValues(body: unknown, verbatim: readonly string[] = []): FormValues {
  const values: Record<string, string | UploadedFile> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return values;
  for (const [name, value] of Object.entries(body)) {
    if (isUploadedFile(value)) values[name] = value;
    if (typeof value !== 'string') continue;
    const kept = verbatim.includes(name) ? value : value.trim();
    if (kept !== '') values[name] = kept;
  }
  return values;
}

export interface FormStart {
  spec: AnyFormSpec;
  values: FormValues;
  subject: unknown;
}

/** Steps 1 and 2: the values read, and the caller allowed to send them. */
export async function startForm(
  spec: AnyFormSpec,
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
): Promise<FormStart> {
  const values = formValues(body, spec.verbatim);
  const subject = await spec.authorize(request as never, values, reply);
  return { spec, values, subject };
}

/** Step 3's schema part: the values judged by the shared schema, and its output for what was sent. */
export async function judgeForm(
  start: FormStart,
): Promise<{ ok: true; form: unknown; sent: Record<string, unknown> } | { ok: false; errors: FieldErrors }> {
  const { spec, values, subject } = start;
  const schema = typeof spec.schema === 'function' ? spec.schema(subject) : spec.schema;
  const judged = spec.judged ? spec.judged(values, subject) : values;
  const result = await validateForm(schema, judged, spec.context?.(subject));
  if (!result.ok) return result;
  const output = (result.value ?? {}) as Record<string, unknown>;
  const sent: Record<string, unknown> = {};
  for (const name of Object.keys(values)) if (name in output) sent[name] = output[name];
  return { ok: true, form: output, sent };
}

/** Hands the judged form to the handler the dispatcher calls next. */
export function keepJudgedForm(request: FastifyRequest, judged: JudgedForm<unknown, unknown>): void {
  judgedForms.set(request, judged);
}
