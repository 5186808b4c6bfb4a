/**
 * One place turns every failure into the envelope (docs/product.md §8): expected refusals keep their status
 * and message; framework errors (bad JSON, wrong media type, too large) become clear 4xx messages;
 * a database that does not answer is a 503 "service_unavailable" (try again later); anything else is a
 * 500 "server_error". The details of both go to the log only, never to the client.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { ApiError } from '../http/envelope.ts';

const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      return reply
        .status(error.statusCode)
        .send({ status: 'error', message: error.message, data: error.data });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = FRAMEWORK_MESSAGES[status] ?? 'bad_request';
      return reply.status(status).send({ status: 'error', message, data: null });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'the database does not answer');
      return reply.status(503).send({ status: 'error', message: 'service_unavailable', data: null });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ status: 'error', message: 'server_error', data: null });
  });
}

/**
 * Errors Fastify's router raises before any hook runs: a malformed percent-encoding (400) and a path
 * segment over the router's length limit, which can only be a malformed id (404, like any malformed id).
 */
export function answerFrameworkError(error: FastifyError, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? [404, 'not_found'] : [400, 'bad_request'];
  reply.status(status).send({ status: 'error', message, data: null });
}

/** Paths the API owns: an unknown one there is a JSON 404, never the SPA page. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url === '/api' || url.startsWith('/export/');
}
