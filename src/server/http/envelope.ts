/** The response envelope every /api/v1 answer uses (SPEC §7): {status, message, data}. */
import type { FieldErrors } from '../../shared/validation/index.ts';

export interface Envelope<T> {
  status: 'success' | 'error';
  message: string;
  data: T;
}

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { status: 'success', message, data };
}

export interface Page<T> {
  data: T[];
  total: number;
  per_page: number;
  page: number;
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
