/**
 * Handler signatures derived from the generated contract types (src/shared/api): a handler sees its
 * own params, query and body, and must answer its operation's success response, so a change of a
 * response schema in openapi.yaml fails the type check where a handler no longer fits.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OperationId, operations, PathParamsOf, QueryOf, RequestBodyOf } from '#shared/api/index.ts';

export type { OperationId };

type JsonBodyOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;
type Responses<O extends OperationId> = operations[O]['responses'];

/** The JSON body of an operation's success answer (200 or 201). */
export type SuccessBodyOf<O extends OperationId> =
  | JsonBodyOf<Responses<O>[200 & keyof Responses<O>]>
  | JsonBodyOf<Responses<O>[201 & keyof Responses<O>]>;

/**
 * What a handler resolves to: its success body, or the reply it has sent itself when the answer is
 * not JSON (a PDF, a CSV stream).
 */
export type AnswerOf<O extends OperationId> = [SuccessBodyOf<O>] extends [never]
  ? FastifyReply
  : SuccessBodyOf<O>;

export type OperationRequest<O extends OperationId> = FastifyRequest<{
  Params: PathParamsOf<O>;
  Querystring: QueryOf<O>;
  Body: RequestBodyOf<O>;
}>;

export type OperationHandler<O extends OperationId> = (
  request: OperationRequest<O>,
  reply: FastifyReply,
) => Promise<AnswerOf<O>>;

export type Handlers = { [O in OperationId]?: OperationHandler<O> };

/** A domain module: its handlers (a form's handler declares its form with `withForm`, form-operation.ts). */
export interface ApiModule {
  handlers: Handlers;
}
