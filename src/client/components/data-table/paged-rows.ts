/** The part of a paged list query (TanStack Query over a `{ data, total, per_page }` answer) a table shows. */
interface PagedQuery<T> {
  data?: { data: T[]; total: number; per_page: number } | undefined;
  isFetching: boolean;
}

/** DataTable's rows, total, page size and spinner, from a paged list query. */
export function pagedRows<T>(query: PagedQuery<T>) {
  return {
    rows: query.data?.data,
    total: query.data?.total,
    perPage: query.data?.per_page,
    isFetching: query.isFetching,
  };
}
