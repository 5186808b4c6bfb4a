/**
 * One page size and one way to page and sort every list (docs/product.md §9: page size comes from the
 * server).
 */
import type { Paged } from '#shared/api/index.ts';

export const PER_PAGE = 20;

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

export function pageRequest(page: number | undefined, perPage = PER_PAGE): PageRequest {
  const current = page && page > 0 ? page : 1;
  return { page: current, limit: perPage, offset: (current - 1) * perPage };
}

export function pageOf<T>(rows: T[], total: number, request: PageRequest): Paged<T> {
  return { data: rows, total, per_page: request.limit, page: request.page };
}

/** The SQL direction for a contract sortDir value, defaulting as the list defines. */
export function direction(sortDir: 'asc' | 'desc' | undefined, fallback: 'asc' | 'desc'): 'asc' | 'desc' {
  return sortDir ?? fallback;
}
