import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database.ts';
import type { Database } from './client.ts';
import { createStatementNamer } from './statement-names.ts';

describe('createStatementNamer', () => {
  it('names a text from its second sighting on, always with the same name', () => {
    const nameOf = createStatementNamer();
    const text = 'select * from devices where id = $1';
    expect(nameOf(text, true)).toBeUndefined();
    const name = nameOf(text, true);
    expect(name).toMatch(/^u[\w-]{24}$/);
    expect(nameOf(text, true)).toBe(name);
  });

  it('gives different texts different names', () => {
    const nameOf = createStatementNamer();
    const names = new Set<string | undefined>();
    for (const text of ['select 1 where $1', 'select 2 where $1', 'select 1  where $1']) {
      nameOf(text, true);
      names.add(nameOf(text, true));
    }
    expect(names.size).toBe(3);
    expect(names.has(undefined)).toBe(false);
  });

  it('leaves statements without parameters alone unless they are one read', () => {
    const nameOf = createStatementNamer();
    for (const text of [
      'begin',
      'commit',
      'vacuum analyze',
      'select 1; select 2',
      'create table t (x int)',
    ]) {
      nameOf(text, false);
      expect(nameOf(text, false)).toBeUndefined();
    }
    nameOf('select count(*) from devices', false);
    expect(nameOf('select count(*) from devices', false)).toBeDefined();
    nameOf('  WITH x as (select 1) select * from x', false);
    expect(nameOf('  WITH x as (select 1) select * from x', false)).toBeDefined();
  });

  it('names at most a bounded number of texts', () => {
    const nameOf = createStatementNamer();
    let named = 0;
    for (let i = 0; i < 1_000; i++) {
      const text = `select ${i} where $1`;
      nameOf(text, true);
      if (nameOf(text, true)) named++;
    }
    expect(named).toBe(300);
  });
});

describe('named statements on the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const preparedCount = async (client: { query: Database['pool']['query'] }) => {
    const { rows } = await client.query<{ n: string }>(
      "select count(*) as n from pg_prepared_statements where statement like '%statement-names test%'",
    );
    return Number(rows[0]?.n);
  };

  it('prepares a repeated statement once on its connection and answers it like an unnamed one', async () => {
    const client = await database.pool.connect();
    try {
      const text = 'select $1::int + 1 as n /* statement-names test */';
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await client.query<{ n: number }>(text, [i])).rows[0]?.n);
      expect(answers).toEqual([1, 2, 3, 4]);
      expect(await preparedCount(client)).toBe(1);
    } finally {
      client.release();
    }
  });

  it('works on a new connection after the old one was dropped (PGlite keeps one session for all)', async () => {
    const text = 'select $1::int * 2 as n /* statement-names test */';
    const first = await database.pool.connect();
    await first.query(text, [1]);
    expect((await first.query<{ n: number }>(text, [2])).rows[0]?.n).toBe(4);
    first.release(true); // closes this connection
    const second = await database.pool.connect();
    try {
      expect((await second.query<{ n: number }>(text, [3])).rows[0]?.n).toBe(6);
      expect((await second.query<{ n: number }>(text, [4])).rows[0]?.n).toBe(8);
    } finally {
      second.release();
    }
  });
});
