/** The part of a list query (TanStack Query) the frame needs besides its rows. */
interface ListQuery {
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/** The part of a paged list query (over a `{ data, total, per_page }` answer) a table shows. */
interface PagedQuery<T> extends ListQuery {
  data?: { data: T[]; total: number; per_page: number } | undefined;
}

/**
 * DataTable's spinner and failure state from any list query: a failed load is told apart from an
 * empty list (docs/product.md §7 keeps the rows empty) and offers a retry.
 */
export function listState(query: ListQuery) {
  return {
    isFetching: query.isFetching,
    loadFailed: query.isError,
    onRetry: () => void query.refetch(),
  };
}

/** DataTable's rows, total, page size, spinner and failure state, from a paged list query. */
export function pagedRows<T>(query: PagedQuery<T>) {
  return {
    rows: query.data?.data,
    total: query.data?.total,
    perPage: query.data?.per_page,
    ...listState(query),
  };
}
