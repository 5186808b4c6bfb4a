/**
 * The ONE HTTP client of the SPA: openapi-fetch typed by the generated contract. A middleware adds
 * the bearer token and turns a 401 on an authenticated call into "session expired" (docs/product.md §8).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '#shared/api/index.ts';
import { session } from './session';

/** Relative to the page: the SPA is served by the API's own server. */
export const API_BASE_URL = '/api/v1';
export const api = createClient<paths>({ baseUrl: API_BASE_URL });

/** A failed call: HTTP status, the envelope's message (an i18n id such as "validation_error") and data. */
export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;

  constructor(status: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

type Envelope = { status: string; message: string; data?: unknown };

function messageOf(body: unknown): { message: string; data: unknown } {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    const envelope = body as Partial<Envelope>;
    return { message: typeof envelope.message === 'string' ? envelope.message : '', data: envelope.data };
  }
  return { message: '', data: undefined };
}

/**
 * Resolves an openapi-fetch call to the envelope's `data`. Success only with HTTP 2xx and
 * `status: "success"` (docs/product.md §7); anything else throws an ApiError.
 */
export async function unwrap<T extends Envelope>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T['data']> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok && data.status === 'success') return data.data;
  const { message, data: errorData } = messageOf(error ?? data);
  throw new ApiError(response.status, message, errorData);
}

let sessionExpiredHandler: () => void = () => session.clear();

/** The router registers what "session expired" means for navigation (logout + go to login). */
export function setSessionExpiredHandler(handler: () => void): void {
  sessionExpiredHandler = handler;
}

const authMiddleware: Middleware = {
  onRequest({ request }) {
    const current = session.get();
    if (current && !request.headers.has('Authorization')) {
      request.headers.set('Authorization', `Bearer ${current.token}`);
    }
    return request;
  },
  onResponse({ request, response }) {
    // Only a call made with the current session can end it; the login call's 401 is a wrong password.
    const current = session.get();
    if (
      response.status === 401 &&
      current &&
      request.headers.get('Authorization') === `Bearer ${current.token}`
    ) {
      sessionExpiredHandler();
    }
    return response;
  },
};

api.use(authMiddleware);
