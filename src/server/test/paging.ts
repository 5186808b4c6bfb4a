/**
 * Checks of the paged lists' answers (http/paging.ts) for the API tests: a page's frame (total, page,
 * page size), and the ids the database lists in the order a page must follow.
 */
import { expect } from 'vitest';
import { PER_PAGE } from '../http/paging.ts';
import type { TestApp } from './test-app.ts';

interface PageFrame {
  total: number;
  per_page: number;
  page: number;
}

/** The answer is page `page` of `total` rows, PER_PAGE to a page unless `perPage` says otherwise. */
export function expectPageFrame(body: PageFrame, total: number, page: number, perPage = PER_PAGE): void {
  expect({ total: body.total, per_page: body.per_page, page: body.page }).toEqual({
    total,
    per_page: perPage,
    page,
  });
}

/**
 * The ids `select` (a query of one `id` column, without its order) lists in `orderBy`, one page of
 * `limit` from `offset`: what a page sorted that way must hold.
 */
export async function idsInOrder(
  t: TestApp,
  select: string,
  orderBy: string,
  offset = 0,
  limit = PER_PAGE,
): Promise<number[]> {
  const result = await t.database.pool.query(`${select} order by ${orderBy} limit $1 offset $2`, [
    limit,
    offset,
  ]);
  return result.rows.map((row) => Number(row.id));
}
