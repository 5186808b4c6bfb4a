import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/test/test-app.ts';
import { createEmbeddedMaintenance } from './embedded-maintenance.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const statsOf = async (table: string) =>
  (
    await t.database.db.execute<{ reltuples: number; relpages: number }>(
      sql`select reltuples::float8 as reltuples, relpages from pg_class where relname = ${table}`,
    )
  ).rows[0]!;

describe('embedded maintenance', () => {
  it('vacuums and analyzes the tables that grew since their last analyze, and only those', async () => {
    const maintenance = createEmbeddedMaintenance({
      db: t.database.db,
      intervalMs: 60_000,
      log: { error: () => undefined },
    });
    // A first pass catches up with every table the demo data wrote.
    await maintenance.runOnce();
    expect(await maintenance.runOnce()).toEqual([]);

    // A table of the test's own (the test database is thrown away), analyzed empty, then grown.
    await t.database.db.execute(sql`create table maintenance_probe (id integer primary key, note text)`);
    await t.database.db.execute(sql`analyze maintenance_probe`);
    expect(await maintenance.runOnce()).toEqual([]);
    await t.database.db.execute(sql`
      insert into maintenance_probe select g, repeat('x', 40) from generate_series(1, 3000) g`);
    const before = await statsOf('maintenance_probe');
    expect(await maintenance.runOnce()).toEqual(['maintenance_probe']);
    const after = await statsOf('maintenance_probe');
    expect(after.reltuples).toBeGreaterThanOrEqual(before.reltuples + 3000);
    expect(after.relpages).toBeGreaterThan(before.relpages);
    expect(await maintenance.runOnce()).toEqual([]);
    await maintenance.stop();
  });
});
