/**
 * The embedded database's autovacuum (docs/adr/0007-one-schema-on-pglite-and-postgresql.md). PGlite runs
 * PostgreSQL in single-user mode, where no autovacuum launcher runs: without this, its tables would
 * never be analyzed, so a named statement kept the plan it was given while a table was nearly empty
 * (a seq scan that grows with the table), and never vacuumed, so every row version an update leaves
 * (each anchored record's proof) stayed. Every pass, each table that grew by a fifth since it was last
 * analyzed, or was never analyzed, is vacuumed and analyzed, one table at a time. PostgreSQL servers
 * have their own autovacuum; this runs only on PGlite.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { describeError } from './error-causes.ts';

export interface EmbeddedMaintenance {
  /** Runs a pass every intervalMs from now on. */
  start(): void;
  /** One pass now; answers the tables it vacuumed and analyzed. */
  runOnce(): Promise<string[]>;
  /** Stops the timer and waits for a pass under way. */
  stop(): Promise<void>;
}

/** A table is due when it grew past (pages at its last analyze) × GROWTH + SLACK_PAGES. */
const GROWTH = 1.2;
const SLACK_PAGES = 4;

export function createEmbeddedMaintenance(deps: {
  db: Db;
  intervalMs: number;
  log: { error(message: string): void };
}): EmbeddedMaintenance {
  const { db, intervalMs, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string[]> | undefined;

  async function pass(): Promise<string[]> {
    const due = await db.execute<{ name: string }>(sql`
      select c.relname as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and pg_relation_size(c.oid) > 0
        and (c.reltuples < 0
          or pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * ${GROWTH}::float8 + ${SLACK_PAGES}::int)
      order by c.relname`);
    const done: string[] = [];
    for (const { name } of due.rows) {
      // One table per statement: other requests take the single connection between two tables.
      await db.execute(sql`vacuum (analyze) ${sql.identifier(name)}`);
      done.push(name);
    }
    return done;
  }

  function runOnce(): Promise<string[]> {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    start() {
      timer ??= setInterval(() => {
        runOnce().catch((error: unknown) =>
          log.error(`embedded maintenance failed: ${describeError(error)}`),
        );
      }, intervalMs);
      timer.unref();
    },
    runOnce,
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}
