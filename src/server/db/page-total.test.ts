/**
 * The lists whose total rides on their page's rows (page-total.ts): the total is the same on every
 * page, searched or not, and a page past the end still says how many there are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  // The demo has no certificates: more than a page of them, so that page 2 exists.
  await t.database.pool.query(`
    insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
    select 'PT' || g, 'VT-' || g, date '2030-01-01', 'pt-' || g || '.pdf' from generate_series(1, 25) g`);
});
afterAll(() => t?.close());

const LISTS = [
  { path: '/api/v1/customers', table: 'customers', search: 'a' },
  { path: '/api/v1/devices', table: 'devices', search: 'a' },
  { path: '/api/v1/users', table: 'users', search: 'example' },
  { path: '/api/v1/certificates', table: 'certificates', search: 'PT1' },
] as const;

async function page(path: string, query: string) {
  const response = await t.as(admin, { method: 'GET', url: `${path}?${query}` });
  expect(response.statusCode).toBe(200);
  return response.json().data as { data: { id: number; total?: unknown }[]; total: number; page: number };
}

describe('a list page and its total in one statement', () => {
  it.each(LISTS)('$path: the total is the count on every page, and past the end', async ({ path, table }) => {
    const counted = await t.database.pool.query(`select count(*)::int as n from ${table}`);
    const everything = counted.rows[0].n as number;
    expect(everything).toBeGreaterThan(0);
    const first = await page(path, 'page=1');
    expect(first.total).toBe(everything);
    expect(first.data.length).toBe(Math.min(20, everything));
    // The total is an answer of the page, never a field of its rows.
    expect(first.data.every((row) => !('total' in row))).toBe(true);
    const pastTheEnd = await page(path, 'page=9999');
    expect(pastTheEnd.data).toEqual([]);
    expect(pastTheEnd.total).toBe(everything);
  });

  it.each(LISTS)('$path: a search counts only what it matched', async ({ path, search }) => {
    const searched = await page(path, `page=1&q=${search}`);
    const all = await page(path, 'page=1');
    expect(searched.total).toBeLessThanOrEqual(all.total);
    expect(searched.data.length).toBe(Math.min(20, searched.total));
    expect((await page(path, `page=9999&q=${search}`)).total).toBe(searched.total);
  });
});
