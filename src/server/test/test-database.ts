// A fresh, migrated database per test suite: a throwaway database on the PostgreSQL server named
// by TEST_DATABASE_URL (dropped on close), or else an in-memory PGlite.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, MIGRATIONS_FOLDER, openDatabase } from '../db/client.ts';
import { type SeedSummary, seedDemoData } from '../db/seed.ts';

export async function openTestDatabase(): Promise<Database> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const template = pgliteTemplatePath();
    try {
      return await openDatabase({ dataDir: 'memory://', pgliteTemplate: template });
    } catch {
      // A damaged template: start over without it (the next open writes a new one).
      await rm(template, { force: true });
      return openDatabase({ dataDir: 'memory://' });
    }
  }

  const name = `uvtrace_t_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: url.toString() });
  } catch (error) {
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name}`).catch(() => {});
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    ...database,
    close() {
      closing ??= database
        .close()
        .then(() => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      return closing;
    },
  };
}

/** A migrated empty PGlite, cached in the temp dir under a name that changes with the migrations. */
export function pgliteTemplatePath(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(readFileSync(path.join(MIGRATIONS_FOLDER, file)));
  }
  try {
    const manifest = path.join(
      import.meta.dirname,
      '../../../node_modules/@electric-sql/pglite/package.json',
    );
    hash.update(String(JSON.parse(readFileSync(manifest, 'utf8')).version));
  } catch {
    // A different layout: the migrations alone name the template.
  }
  return path.join(tmpdir(), `uvtrace-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The demo data with 50 sterilizations and one key pair shared by all devices (fast: well under
 * a second). Same customers, accounts (password DEMO_PASSWORD), devices and batch levels as the demo.
 */
export function seedMinimal(database: Database): Promise<SeedSummary> {
  return seedDemoData(database, { sterilizations: 50, deviceKeys: 'shared', keysDir: null });
}
