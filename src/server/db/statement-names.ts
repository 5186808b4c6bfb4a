/**
 * Server-side prepared statements for the statements the server repeats
 * (docs/adr/0028-fewer-round-trips-per-request.md).
 *
 * PostgreSQL parses and plans an unnamed statement anew on every execution; for the sterilization
 * page that planning costs twice its execution (measured on 20,000 records: 1.1–1.5 ms unnamed, 0.5–0.6
 * ms named; the session check 0.36 ms unnamed, 0.08 ms named). A named statement is parsed once per
 * connection, and PostgreSQL reuses its plan when a generic plan costs no more than a custom one.
 *
 * Every statement that already goes through the extended protocol (it has parameters), or is a lone
 * read, is given a name derived from its text the second time the process sees that text, so one-off
 * statements are not kept. Names are capped per process (MAX_NAMED), which bounds what each database
 * connection keeps. Statements with the same text share a name, hence a plan cache entry on each
 * connection; a different text never gets the same name (a digest of the whole text).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Texts given a name, per process; each connection prepares at most these. */
const MAX_NAMED = 300;
/** Texts seen once, waiting for a second sighting; forgotten in bulk when full. */
const MAX_SEEN = 5_000;

interface QueryConfig {
  text?: unknown;
  name?: unknown;
  values?: unknown;
  submit?: unknown;
}

export function createStatementNamer(): (text: string, hasValues: boolean) => string | undefined {
  const named = new Map<string, string>();
  const seen = new Set<string>();
  return (text, hasValues) => {
    const name = named.get(text);
    if (name) return name;
    if (!hasValues && !(/^\s*(select|with)\b/i.test(text) && !text.includes(';'))) return undefined;
    if (!seen.has(text)) {
      if (seen.size >= MAX_SEEN) seen.clear();
      seen.add(text);
      return undefined;
    }
    if (named.size >= MAX_NAMED) return undefined;
    seen.delete(text);
    const digest = `u${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    named.set(text, digest);
    return digest;
  };
}

/**
 * Names repeated statements on every connection of the pool. `resetOnConnect`: the database keeps
 * prepared statements across connections (embedded PGlite is one session whatever connects), so each
 * new connection first drops them, as a fresh client does not know them.
 */
export function nameRepeatedStatements(pool: pg.Pool, options: { resetOnConnect: boolean }): void {
  const nameOf = createStatementNamer();
  pool.on('connect', (client) => {
    // Queued first: the connection's own query queue runs it before anything the pool's user sends.
    if (options.resetOnConnect) client.query('deallocate all').catch(() => {});
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const [first, second] = args;
      const values = Array.isArray(second) ? second : (first as QueryConfig | undefined)?.values;
      const hasValues = Array.isArray(values) && values.length > 0;
      if (typeof first === 'string') {
        const name = nameOf(first, hasValues);
        if (name) args[0] = { text: first, name };
      } else if (first && typeof first === 'object') {
        const config = first as QueryConfig;
        if (typeof config.text === 'string' && !config.name && config.submit === undefined) {
          const name = nameOf(config.text, hasValues);
          if (name) args[0] = { ...config, name };
        }
      }
      return query(...args);
    };
  });
}
