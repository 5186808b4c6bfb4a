/**
 * Whether an error means "the database does not answer" (it is down, restarting, refusing connections,
 * or the connection broke) rather than a fault of the request or the code: such calls answer 503
 * `service_unavailable` (try again later) instead of 500 `server_error` (plugins/errors.ts).
 */
import { errorCauses } from './error-causes.ts';

/** Socket errors of a connection that could not be made or was cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not accepting work: class 08 (connection exception),
 * 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting up or in recovery),
 * 53300 too many connections.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;

/** node-postgres reports these without a code. */
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end|timeout exceeded when trying to connect|Query read timeout)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  for (const level of errorCauses(error)) {
    const { code, message } = level;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true;
  }
  return false;
}
