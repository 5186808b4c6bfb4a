/**
 * Drizzle wraps the driver's error ("Failed query: …") and keeps the driver's own — with its SQLSTATE
 * `code` and its message — as `cause`; these helpers look through such wrapping.
 */

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first (a few levels at most). */
export function* errorCauses(error: unknown, depth = 5): Generator<ErrorLike> {
  let current: unknown = error;
  for (let level = 0; level < depth && typeof current === 'object' && current !== null; level++) {
    const candidate = current as ErrorLike;
    yield candidate;
    current = candidate.cause;
  }
}

/** One line for a log: each level's message, outermost first. */
export function describeError(error: unknown): string {
  const messages = [...errorCauses(error)]
    .map((level) => (typeof level.message === 'string' ? level.message.replace(/\s+/g, ' ').trim() : ''))
    .filter((message) => message !== '');
  return messages.length > 0 ? messages.join(' ← caused by: ') : String(error);
}
