import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database.ts';
import { type Database, migrate, openDatabase, withTransaction } from './client.ts';
import * as schema from './schema.ts';
import { products } from './schema.ts';

describe('embedded PGlite in a worker thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('answers queries through the pool, with migrations applied', async () => {
    expect(database.kind).toBe('pglite');
    const { rows } = await database.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'",
    );
    // One table per pgTable of the schema: every migration ran.
    expect(rows[0]?.n).toBe(Object.values(schema).filter((value) => is(value, PgTable)).length);
    // Running migrate again is a no-op.
    await migrate(database);
  });

  it('keeps the main event loop free during a long query', async () => {
    let ticks = 0;
    let last = performance.now();
    let maxGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
      ticks++;
    }, 10);
    const started = performance.now();
    const { rows } = await database.pool.query<{ n: string }>(
      'SELECT count(*) AS n FROM generate_series(1, 3000000) AS g(i) WHERE i % 7 = 0',
    );
    const elapsed = performance.now() - started;
    clearInterval(timer);
    expect(rows[0]?.n).toBe('428571');
    expect(elapsed).toBeGreaterThan(100); // the query is long enough to prove something
    // Were the loop blocked, there would be about one tick and one gap as long as the query. The
    // bounds leave room for a busy 2-core CI machine.
    expect(ticks).toBeGreaterThan((elapsed / 10) * 0.3);
    expect(maxGap).toBeLessThan(elapsed / 2);
  });
});

describe('transactions', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('rolls everything back when the callback throws', async () => {
    await expect(
      withTransaction(database, async (tx) => {
        await tx.insert(products).values({ name: 'Rolled back', type: 1 });
        const inside = await tx.select({ n: sql<number>`count(*)::int` }).from(products);
        expect(inside[0]?.n).toBe(1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const after = await database.db.select({ n: sql<number>`count(*)::int` }).from(products);
    expect(after[0]?.n).toBe(0);
  });

  it('commits when the callback resolves', async () => {
    const id = await withTransaction(database, async (tx) => {
      const [row] = await tx
        .insert(products)
        .values({ name: 'Kept', type: 2 })
        .returning({ id: products.id });
      return row!.id;
    });
    const rows = await database.db.select().from(products);
    expect(rows.map((r) => [r.id, r.name])).toEqual([[id, 'Kept']]);
  });

  it('enforces the check constraints', async () => {
    await expect(database.db.insert(products).values({ name: 'Bad', type: 3 })).rejects.toThrow();
  });
});

describe('PGlite on disk', () => {
  it('keeps data across close and reopen', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'uvtrace-pglite-'));
    try {
      const first = await openDatabase({ dataDir: path.join(dir, 'db') });
      await first.db.insert(products).values({ name: 'Persisted', type: 1 });
      await first.close();
      await first.close(); // idempotent
      const second = await openDatabase({ dataDir: path.join(dir, 'db') });
      const rows = await second.db.select({ name: products.name }).from(products);
      await second.close();
      expect(rows).toEqual([{ name: 'Persisted' }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('syncs its commits to the disk, not only to the kernel', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'uvtrace-pglite-'));
    try {
      const database = await openDatabase({ dataDir: path.join(dir, 'db') });
      const { rows } = await database.pool.query<{ fsync: string; method: string }>(
        "select current_setting('fsync') as fsync, current_setting('wal_sync_method') as method",
      );
      await database.close();
      // fdatasync is a no-op under Emscripten: fsync() is the call pglite-worker.ts makes real.
      expect(rows[0]).toEqual({ fsync: 'on', method: 'fsync' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a database connection that breaks', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('neither ends the process nor costs the pool a connection', async () => {
    // Every connection checked out and broken while held, as by a database restart during
    // transactions whose BEGIN then fails (drizzle never releases those clients).
    const held = await Promise.all(
      Array.from({ length: database.pool.options.max }, () => database.pool.connect()),
    );
    for (const client of held) {
      const lost = once(client, 'error');
      (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
      await lost;
    }
    // Were the broken clients still counted as busy, this would wait forever.
    const { rows } = await database.pool.query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
    // The holders' late release is harmless.
    for (const client of held) client.release();
    expect((await database.pool.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
