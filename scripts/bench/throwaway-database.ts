/**
 * A database for one benchmark run: embedded PGlite in a temporary directory, or with `postgres` (or
 * DATABASE_URL set) a new database `uvtrace_bench_<random>` on that server (default
 * postgres://postgres@127.0.0.1:5432/postgres). dispose() closes it and removes the directory / drops
 * the database. dataDir is the run's DATA_DIR either way (device keys go there).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, embeddedDataDir, openDatabase } from '../../src/server/db/client.ts';

export interface ThrowawayDatabase {
  database: Database;
  dataDir: string;
  /** 'PGlite' or 'PostgreSQL', for the report. */
  label: string;
  dispose(): Promise<void>;
}

export async function throwawayDatabase(name: string, postgres: boolean): Promise<ThrowawayDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `uvtrace-bench-${name}-`));
  const serverUrl =
    process.env.DATABASE_URL || (postgres ? 'postgres://postgres@127.0.0.1:5432/postgres' : undefined);
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (serverUrl) {
    dbName = `uvtrace_bench_${randomBytes(4).toString('hex')}`;
    await admin(`CREATE DATABASE ${dbName}`);
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const removeAll = async () => {
    if (dbName) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  let database: Database;
  try {
    database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: embeddedDataDir(dataDir) });
  } catch (error) {
    await removeAll();
    throw error;
  }
  return {
    database,
    dataDir,
    label: database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL',
    async dispose() {
      await database.close();
      await removeAll();
    },
  };
}
