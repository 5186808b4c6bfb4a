/**
 * One way to page and sort every list (docs/product.md §9): 20 rows a page unless the request asks
 * for another size (`perPage`, at most PER_PAGE_MAX); the answer says the size used.
 */
import type { Paged } from '#shared/api/index.ts';

export const PER_PAGE = 20;
/** The most rows a page may have (the contract's `perPage` maximum). */
export const PER_PAGE_MAX = 100;

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

export function pageRequest(page: number | undefined, perPage: number | undefined = PER_PAGE): PageRequest {
  const current = page && page > 0 ? page : 1;
  const limit = Math.min(PER_PAGE_MAX, Math.max(1, perPage ?? PER_PAGE));
  return { page: current, limit, offset: (current - 1) * limit };
}

export function pageOf<T>(rows: T[], total: number, request: PageRequest): Paged<T> {
  return { data: rows, total, per_page: request.limit, page: request.page };
}

/** The SQL direction for a contract sortDir value, defaulting as the list defines. */
export function direction(sortDir: 'asc' | 'desc' | undefined, fallback: 'asc' | 'desc'): 'asc' | 'desc' {
  return sortDir ?? fallback;
}
