/**
 * A database's schema version: the last migration drizzle applied to it (its journal `when`, which
 * drizzle stores as `created_at` in drizzle.__drizzle_migrations), named by the code's journal tag. A
 * backup carries it so that a restore can refuse a schema newer than the code and run the migrations
 * an older one lacks (docs/backups.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { MIGRATIONS_FOLDER } from '../db/client.ts';

export interface Migration {
  tag: string;
  /** The journal's `when`: what drizzle compares to decide which migrations are pending. */
  when: number;
}

export interface SchemaVersion {
  /** The migration's tag in this code's journal; null when this code does not know it. */
  tag: string | null;
  when: number;
}

/** This code's migrations, oldest first. */
export function codeMigrations(): Migration[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when })).sort((a, b) => a.when - b.when);
}

/** The version this code migrates a database to. */
export function codeSchemaVersion(): SchemaVersion {
  const latest = codeMigrations().at(-1);
  if (!latest) throw new Error('the code has no migrations');
  return latest;
}

export function versionOf(when: number): SchemaVersion {
  return { tag: codeMigrations().find((migration) => migration.when === when)?.tag ?? null, when };
}

/** How a file name or a message says it: the tag, or the `when` of a migration this code does not know. */
export function schemaLabel(version: SchemaVersion): string {
  return version.tag ?? `unknown-migration-${version.when}`;
}

/** The last migration applied to a database, or null when none was (an empty database). */
export async function databaseSchemaVersion(pool: pg.Pool | pg.PoolClient): Promise<SchemaVersion | null> {
  const exists = await pool.query<{ found: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
  );
  if (!exists.rows[0]?.found) return null;
  const result = await pool.query<{ created_at: string }>(
    'select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1',
  );
  const row = result.rows[0];
  return row ? versionOf(Number(row.created_at)) : null;
}

/**
 * What restoring a database of this version needs: the migrations this code would run on it, or why
 * it cannot be restored by this code.
 */
export function upgradePath(
  version: SchemaVersion,
): { ok: true; pending: Migration[] } | { ok: false; reason: string } {
  const code = codeSchemaVersion();
  if (version.when > code.when) {
    return {
      ok: false,
      reason: `its schema (${schemaLabel(version)}) is newer than this code's (${schemaLabel(code)}): restore it with the version of uvtrace that made it, or a later one`,
    };
  }
  if (version.tag === null) {
    return {
      ok: false,
      reason: `its schema (${schemaLabel(version)}) is a migration this code does not know: restore it with the version of uvtrace that made it`,
    };
  }
  return { ok: true, pending: codeMigrations().filter((migration) => migration.when > version.when) };
}
