import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/test/test-app.ts';
import { idArray, textArray } from './array-parameter.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('array parameters', () => {
  it('carry texts through PostgreSQL unchanged, whatever they hold', async () => {
    const texts = ['plain', 'with "quotes"', 'back\\slash', 'comma, {braces}', ' spaced ', '', 'NULL', 'è'];
    const result = await t.database.db.execute<{ text: string }>(
      sql`select unnest(${textArray(texts)}::text[]) as text`,
    );
    expect(result.rows.map((row) => row.text)).toEqual(texts);
  });

  it('carry ids as numbers', async () => {
    const result = await t.database.db.execute<{ id: string }>(
      sql`select unnest(${idArray([3, '42', 9_007_199_254])}::bigint[]) as id`,
    );
    expect(result.rows.map((row) => Number(row.id))).toEqual([3, 42, 9_007_199_254]);
  });
});
