/**
 * A list page and its total in one statement: the total is a column of every row of the page,
 * `count(*) over ()` (the rows the filter matched, before limit and offset), where a second statement
 * took a second pooled connection at the same time. A page past the end has no row to carry it, so
 * only then is the total counted apart.
 */
import { sql } from 'drizzle-orm';

/** The total column, for a drizzle select's fields. */
export const totalColumn = () => sql<number>`count(*) over ()`.mapWith(Number);

/** The total a page's rows carry, or `count()` when the page is past the end. */
export async function pageTotal(
  rows: readonly { total: number | string }[],
  offset: number,
  count: () => Promise<number>,
): Promise<number> {
  const first = rows[0];
  if (first) return Number(first.total);
  return offset === 0 ? 0 : count();
}
