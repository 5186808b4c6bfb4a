/**
 * A database opened in this process for one benchmark run (the Merkle and anchoring benches): the
 * harness's throwaway target (PGlite in a temporary directory, or with `postgres` — or DATABASE_URL
 * set — a new database `uvtrace_bench_<random>` on that server), opened at once. dispose() closes it
 * and removes the directory / drops the database. dataDir is the run's DATA_DIR either way.
 */
import type { Database } from '#server/db/client.ts';
import { createTarget, DEFAULT_POSTGRES_URL } from './harness.ts';

export interface ThrowawayDatabase {
  database: Database;
  dataDir: string;
  /** 'PGlite' or 'PostgreSQL', for the report. */
  label: string;
  dispose(): Promise<void>;
}

export async function throwawayDatabase(name: string, postgres: boolean): Promise<ThrowawayDatabase> {
  const serverUrl = process.env.DATABASE_URL || (postgres ? DEFAULT_POSTGRES_URL : undefined);
  const target = await createTarget(name, serverUrl);
  let database: Database;
  try {
    database = await target.open();
  } catch (error) {
    await target.dispose();
    throw error;
  }
  return {
    database,
    dataDir: target.dataDir,
    label: target.kind,
    async dispose() {
      await database.close();
      await target.dispose();
    },
  };
}
