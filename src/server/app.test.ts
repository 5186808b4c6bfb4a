import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { seedDemoData } from './db/seed.ts';
import { openTestDatabase } from './test/test-database.ts';

describe('closing the app', () => {
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
  });

  it('lets a running anchor pass finish before it closes the database it owns', async () => {
    database = await openTestDatabase();
    await seedDemoData(database, { sterilizations: 20, deviceKeys: 'shared' });
    const events: string[] = [];
    const logs: string[] = [];

    // The anchor worker's first query of a pass waits for the gate, so that the pass is surely running
    // when the app is closed.
    let openGate = () => {};
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const dialect = new PgDialect();
    const db = database.db as unknown as { execute(query: SQL): Promise<unknown> };
    const execute = db.execute.bind(db);
    let passStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      passStarted = resolve;
    });
    db.execute = async (query: SQL) => {
      const text = dialect.sqlToQuery(query).sql;
      if (text.includes('b.merkle_root is null') && !events.includes('pass started')) {
        events.push('pass started');
        passStarted();
        await gate;
      }
      return execute(query);
    };
    const close = database.close.bind(database);
    database.close = async () => {
      events.push('database closed');
      await close();
    };

    const config = loadConfig({
      LOG_LEVEL: 'info',
      CLIENT_DIST: '/nonexistent-client-build',
      ANCHOR_ENABLED: 'true',
      ANCHOR_INTERVAL_SECONDS: '0',
    });
    const app = await buildApp(config, {
      database,
      ownsDatabase: true,
      logStream: { write: (line) => void logs.push(line) },
    });
    await app.ready();
    await started;
    const closing = app.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    events.push('gate opened');
    openGate();
    await closing;

    expect(events).toEqual(['pass started', 'gate opened', 'database closed']);
    expect(logs.join('')).not.toMatch(/pass failed/);
    // Closed for real: the database answers no more.
    await expect(database.db.execute(sql`select 1`)).rejects.toThrow();
    database = undefined;
  }, 60_000);
});

describe('routine requests in the log', () => {
  let database: Database | undefined;
  let clientDist: string | undefined;
  afterAll(async () => {
    await database?.close();
    if (clientDist) await rm(clientDist, { recursive: true, force: true });
  });

  it("log the app's static files only when debugging; API calls as before", async () => {
    clientDist = await mkdtemp(path.join(tmpdir(), 'uvtrace-dist-'));
    await mkdir(path.join(clientDist, 'assets'));
    await writeFile(path.join(clientDist, 'index.html'), '<!doctype html><title>uvtrace</title>');
    await writeFile(path.join(clientDist, 'assets', 'app-1234.js'), 'console.log(1)');
    database = await openTestDatabase();
    for (const [level, shown] of [
      ['info', false],
      ['debug', true],
    ] as const) {
      const logs: string[] = [];
      const app = await buildApp(
        loadConfig({
          LOG_LEVEL: level,
          LOG_FORMAT: 'json',
          CLIENT_DIST: clientDist,
          ANCHOR_ENABLED: 'false',
        }),
        { database, ownsDatabase: false, logStream: { write: (line) => void logs.push(line) } },
      );
      try {
        expect((await app.inject({ method: 'GET', url: '/assets/app-1234.js' })).statusCode).toBe(200);
        expect((await app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
        const text = logs.join('');
        expect(text.includes('/assets/app-1234.js'), level).toBe(shown);
        expect(text).toContain('/api/v1/health');
      } finally {
        await app.close();
      }
    }
  }, 60_000);
});
