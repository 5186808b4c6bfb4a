/** Handler signatures derived from the generated contract types, so a handler sees its own params, query and body. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnySchema } from 'yup';
import type { operations } from '../../shared/api/index.ts';

export type OperationId = keyof operations;

type PathOf<O extends OperationId> = operations[O] extends { parameters: { path: infer P } }
  ? P extends Record<string, unknown>
    ? P
    : Record<string, never>
  : Record<string, never>;
type QueryOf<O extends OperationId> = operations[O] extends { parameters: { query?: infer Q } }
  ? Q extends Record<string, unknown>
    ? Q
    : Record<string, never>
  : Record<string, never>;
type BodyOf<O extends OperationId> = operations[O] extends { requestBody?: { content: infer C } }
  ? C[keyof C]
  : undefined;

export type OperationRequest<O extends OperationId> = FastifyRequest<{
  Params: PathOf<O>;
  Querystring: QueryOf<O>;
  Body: BodyOf<O>;
}>;

export type OperationHandler<O extends OperationId> = (
  request: OperationRequest<O>,
  reply: FastifyReply,
) => Promise<unknown>;

export type Handlers = { [O in OperationId]?: OperationHandler<O> };

/** A domain module: its handlers, and the shared form schemas whose messages replace generic ones on bad input. */
export interface ApiModule {
  handlers: Handlers;
  formSchemas?: { [O in OperationId]?: AnySchema };
}
