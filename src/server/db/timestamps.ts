/**
 * A timestamp column as the API's ISO 8601 text. drizzle's raw execute() hands timestamps back as
 * PostgreSQL's text (`2026-03-14 09:26:53.589123+00` in the UTC session), its query builder as Date.
 * `new Date(text)` takes about 4 µs for PostgreSQL's form (a list page has up to seven a row), so that
 * form is rewritten directly: the same text as `new Date(text).toISOString()`, milliseconds truncated
 * as Date truncates them. Anything else (a Date, another offset) goes through Date.
 */
const POSTGRES_UTC = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

export function isoTimestamp(value: Date | string): string {
  if (typeof value === 'string') {
    const match = POSTGRES_UTC.exec(value);
    if (match) {
      const fraction = match[3] ?? '';
      return `${match[1]}T${match[2]}.${fraction.slice(0, 3).padEnd(3, '0')}Z`;
    }
  }
  return new Date(value).toISOString();
}

export const isoTimestampOrNull = (value: Date | string | null): string | null =>
  value === null ? null : isoTimestamp(value);
