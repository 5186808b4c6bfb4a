/** The response envelope every /api/v1 answer uses (docs/product.md §7): {status, message, data}. */
import type { FieldErrors } from '#shared/validation/index.ts';

/**
 * A success answer. Its `data` is checked where it is returned: a handler must answer its operation's
 * success body (contract/handler-types.ts), so `data` must fit the contract's schema there.
 */
export function ok<T>(data: T, message = 'ok'): { status: 'success'; message: string; data: T } {
  return { status: 'success', message, data };
}

/** An expected refusal: becomes an error envelope with this status and message; never a stack trace. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly data: unknown;
  constructor(statusCode: number, message: string, data: unknown = null) {
    super(message);
    this.statusCode = statusCode;
    this.data = data;
  }
}

export const notFound = () => new ApiError(404, 'not_found');
export const forbidden = () => new ApiError(403, 'forbidden');
export const sessionExpired = () => new ApiError(401, 'session_expired');
export const validationFailed = (errors: FieldErrors) => new ApiError(422, 'validation_error', errors);
