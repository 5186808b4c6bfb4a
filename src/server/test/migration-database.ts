/**
 * For the migration tests: an empty database with no migration applied (a throwaway database on the
 * PostgreSQL server named by TEST_DATABASE_URL, dropped afterwards, or else an in-memory PGlite), and
 * the migration files to apply to it one by one, so a test can write data as an older schema had it
 * before running the migration under test.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { MIGRATIONS_FOLDER } from '../db/client.ts';
import { PGLITE_EXTENSIONS } from '../db/pglite-extensions.ts';

export type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

export interface MigrationDatabase {
  /** Runs SQL on the database (valid once the suite's beforeAll has run). */
  query: Query;
  /** Applies one migration file, statement by statement. */
  apply(file: string): Promise<void>;
  /** The migration files, in the order they apply. */
  migrations: string[];
  /** Applies every migration before the first whose file name contains `name`. */
  applyBefore(name: string): Promise<void>;
  /** Applies the first migration whose file name contains `name`, and every one after it. */
  applyFrom(name: string): Promise<void>;
  /**
   * Two clinics (10, 11), a product (1), and device 1 (NP000001) of clinic 10 and device 2 (NP000002)
   * of clinic 11, written in columns every schema has had.
   */
  insertTwoClinicsWithDevices(): Promise<void>;
}

async function openEmptyDatabase(): Promise<{ query: Query; close: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const lite = new PGlite({ extensions: PGLITE_EXTENSIONS });
    return { query: (text) => lite.query(text), close: () => lite.close() };
  }
  const name = `uvtrace_m_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    query: (text) => client.query(text),
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    },
  };
}

/** The suite's empty database: opened before its tests, closed after them. */
export function setUpMigrationDatabase(): MigrationDatabase {
  let opened: { query: Query; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    opened = await openEmptyDatabase();
  });
  afterAll(() => opened?.close());

  const query: Query = (text) => {
    if (!opened) throw new Error('the migration database is not open yet (use it inside a test)');
    return opened.query(text);
  };
  const migrations = readdirSync(MIGRATIONS_FOLDER)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  async function apply(file: string) {
    const text = readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8');
    for (const statement of text.split('--> statement-breakpoint')) await query(statement);
  }
  const indexOf = (name: string) => {
    const index = migrations.findIndex((file) => file.includes(name));
    if (index < 0) throw new Error(`no migration named like ${name}`);
    return index;
  };
  return {
    query,
    apply,
    migrations,
    async applyBefore(name) {
      for (const file of migrations.slice(0, indexOf(name))) await apply(file);
    },
    async applyFrom(name) {
      for (const file of migrations.slice(indexOf(name))) await apply(file);
    },
    async insertTwoClinicsWithDevices() {
      await query(
        `insert into customers (id, name, country) values (10, 'Old clinic', 'IT'), (11, 'New clinic', 'IT')`,
      );
      await query(`insert into products (id, name, type) values (1, 'Plug', 1)`);
      await query(`insert into devices (id, customer_id, product_id, device_serial, label)
        values (1, 10, 1, 'NP000001', 'a'), (2, 11, 1, 'NP000002', 'b')`);
    },
  };
}
