/**
 * `npm run audit:verify` end to end, as an operator runs it: on the database the environment names
 * (a throwaway database on TEST_DATABASE_URL's server, else an embedded PGlite in a temporary
 * DATA_DIR). It passes on a clean chain and names the first broken entry after tampering.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { embeddedDataDir, openDatabase } from '#server/db/client.ts';
import { recordAudit } from '#server/modules/audit/record.ts';
import { pgliteTemplatePath } from '#server/test/test-database.ts';

const SCRIPT = path.join(import.meta.dirname, 'audit-verify.ts');
const serverUrl = process.env.TEST_DATABASE_URL;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  if (serverUrl) {
    const name = `uvtrace_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
    cleanup = () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } else {
    const dataRoot = await mkdtemp(path.join(tmpdir(), 'uvtrace-audit-verify-'));
    env = { DATA_DIR: dataRoot, DATABASE_URL: '' };
    cleanup = () => rm(dataRoot, { recursive: true, force: true });
  }
});
afterAll(() => cleanup?.());

/**
 * The database the script will open. A new embedded one starts from the tests' migrated template
 * (initdb on disk takes tens of seconds on a busy machine).
 */
function open(fresh = false) {
  if (env.DATABASE_URL) return openDatabase({ databaseUrl: env.DATABASE_URL });
  const dataDir = embeddedDataDir(env.DATA_DIR ?? '');
  return openDatabase(fresh ? { dataDir, pgliteTemplate: pgliteTemplatePath() } : { dataDir });
}

function runScript(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

it('passes on a clean chain and names the first broken entry after tampering', async () => {
  const database = await open(true);
  let ids: number[];
  try {
    for (const name of ['first', 'second', 'third']) {
      await database.db.transaction((tx) =>
        recordAudit(tx, {
          actor: { id: 1, email: 'super@example.com', role: 'SUPER_ADMIN' },
          action: 'update',
          entityType: 'customer',
          entityId: 7,
          changes: { name: { old: 'before', new: name } },
          clientAddress: '127.0.0.1',
        }),
      );
    }
    ids = (await database.pool.query('select id from audit_log order by id')).rows.map((row) =>
      Number(row.id),
    );
  } finally {
    await database.close();
  }

  const clean = await runScript();
  expect(clean.stderr).not.toMatch(/BROKEN/);
  expect(clean.code).toBe(0);
  expect(clean.stdout).toMatch(/audit trail intact: 3 entries, head [0-9a-f]{64}/);

  // The owner can switch the append-only trigger off: exactly the tampering the chain must reveal.
  const tampered = await open();
  try {
    await tampered.pool.query('alter table audit_log disable trigger audit_log_append_only');
    await tampered.pool.query(
      `update audit_log set changes = '{"name":{"old":"before","new":"forged"}}' where id = $1`,
      [ids[1]],
    );
    await tampered.pool.query('alter table audit_log enable trigger audit_log_append_only');
  } finally {
    await tampered.close();
  }
  const broken = await runScript();
  expect(broken.code).toBe(1);
  expect(broken.stderr).toContain(`audit trail BROKEN at entry ${ids[1]}`);
}, 120_000);
