/**
 * List state in the URL (docs/adr/0014-client-structure-and-lists.md): page, sortBy, sortDir and filters are
 * search params, so a list is shareable, survives a reload and the back button works. Routes parse them with
 * these helpers (a malformed value falls back to its default, never an error page); pages change them through
 * `useListControls`, which turns DataTable events into search patches.
 *
 * Pattern for a list route:
 *
 *   const SORT_KEYS = ['name', 'active'] as const;
 *   type Search = ListSearch<(typeof SORT_KEYS)[number]> & { filterFrom?: string };
 *
 *   export const Route = createFileRoute('/_authenticated/customers/')({
 *     validateSearch: (raw: Partial<Search> & SearchSchemaInput): Search => ({
 *       ...parseListSearch(raw, SORT_KEYS, { sortBy: 'name', sortDir: 'asc' }),
 *       filterFrom: parseIsoDate(raw.filterFrom),
 *     }),
 *     loaderDeps: ({ search }) => search,
 *     loader: ({ context, deps }) => context.queryClient.ensureQueryData(customersQueryOptions(deps)),
 *     component: () => {
 *       const search = Route.useSearch();
 *       const onSearchChange = useSearchChange(Route); // lib/search-change.ts
 *       return <CustomerListPage search={search} onSearchChange={onSearchChange} />;
 *     },
 *   });
 *
 * and in the page: `const list = useListControls(search, onSearchChange);` then
 * `<DataTable {...list} rows={data?.data} total={data?.total} perPage={data?.per_page} ... />`.
 * Typing validateSearch's input as `Partial<Search> & SearchSchemaInput` (from @tanstack/react-router) keeps `search` optional on links (`<Link to="/customers">`);
 * the values are still checked at run time, since a URL can hold anything.
 */
import { notFound } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import type { ListName } from '#shared/api/index.ts';

export type SortDir = 'asc' | 'desc';

export type ListSearch<S extends string = string> = {
  page: number;
  /** Rows per page when not the default (PAGE_SIZES); absent from the URL otherwise. */
  perPage?: number;
  sortBy: S;
  sortDir: SortDir;
  /**
   * The visible columns in order, as column ids joined by commas (`columns=a,b,c`); absent = the user's
   * kept choice, else the list's default columns (column-choice.ts). Names the list does not know are
   * ignored when shown.
   */
  columns?: string;
};

/** The page sizes a list offers; the first is the server's default (the API allows up to 100). */
export const PAGE_SIZES = [20, 50, 100] as const;

/** The search patch of a new page size: back to page 1; the default size leaves the URL. */
export function perPagePatch(perPage: number): { perPage: number | undefined; page: number } {
  return { perPage: perPage === PAGE_SIZES[0] ? undefined : perPage, page: 1 };
}

/** A page size other than the default from the URL, else undefined (the default, 20). */
export function parsePerPage(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return PAGE_SIZES.slice(1).some((size) => size === number) ? number : undefined;
}

/** A list with a free-text search: `q`, what the API's `q` parameter takes. */
export type SearchableListSearch<S extends string = string> = ListSearch<S> & { q?: string };

/** The API refuses a longer `q` (openapi.yaml, parameter SearchQuery). */
export const SEARCH_TEXT_MAX_LENGTH = 100;

/**
 * A free-text search from the URL: trimmed, undefined when blank, and cut to what the API accepts so
 * that a hand-edited URL shortens the search instead of failing the list.
 */
export function parseSearchText(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const characters = Array.from(String(value).trim());
  const text = characters.slice(0, SEARCH_TEXT_MAX_LENGTH).join('').trim();
  return text === '' ? undefined : text;
}

/** A positive integer page (1 when missing or malformed). */
export function parsePage(value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number >= 1 ? number : 1;
}

export function parseSortDir(value: unknown, fallback: SortDir): SortDir {
  return value === 'asc' || value === 'desc' ? value : fallback;
}

/** One of `allowed`, else `fallback`. */
export function parseOneOf<S extends string>(value: unknown, allowed: readonly S[], fallback: S): S {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? (value as S)
    : fallback;
}

/** A real calendar day as YYYY-MM-DD, else undefined (the filter is dropped). */
export function parseIsoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? value : undefined;
}

/**
 * A free-text filter (at most `maxLength` characters, trimmed), else undefined. The router reads a
 * value that looks like JSON as JSON, so a typed `?lot=12345` arrives as a number: it is text again here.
 */
export function parseText(value: unknown, maxLength = 255): string | undefined {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  return text !== '' && Array.from(text).length <= maxLength ? text : undefined;
}

/** A positive integer id, else undefined. */
export function parseId(value: unknown): number | undefined {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(number) && number >= 1 ? number : undefined;
}

/** An id path param (e.g. `$id`) in a loader: anything but a positive integer is not found (→ the dashboard). */
export function requireIdParam(value: string): number {
  const id = parseId(value);
  if (id === undefined) throw notFound();
  return id;
}

/** A column id as lists name them (and the API keeps them: ColumnName in openapi.yaml). */
export const COLUMN_ID = /^[a-z][a-z0-9_]{0,39}$/;
/** At most this many columns are named in a URL or kept. */
export const MAX_COLUMNS = 40;

/**
 * The `columns` search param: well-formed ids joined by commas, each once, at most MAX_COLUMNS; else
 * undefined (the kept or default columns). Whether the list knows an id is for the list to say.
 */
export function parseColumns(value: unknown): string | undefined {
  const ids = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  const valid = [...new Set(ids.map((id) => (typeof id === 'string' ? id.trim() : '')))].filter((id) =>
    COLUMN_ID.test(id),
  );
  return valid.length === 0 ? undefined : valid.slice(0, MAX_COLUMNS).join(',');
}

/** page / sortBy / sortDir of a list route, with defaults that survive a malformed URL. */
export function parseListSearch<S extends string>(
  raw: { page?: unknown; perPage?: unknown; sortBy?: unknown; sortDir?: unknown; columns?: unknown },
  sortKeys: readonly S[],
  defaults: { sortBy: S; sortDir: SortDir },
): ListSearch<S> {
  const perPage = parsePerPage(raw.perPage);
  return {
    page: parsePage(raw.page),
    ...(perPage === undefined ? {} : { perPage }),
    sortBy: parseOneOf(raw.sortBy, sortKeys, defaults.sortBy),
    sortDir: parseSortDir(raw.sortDir, defaults.sortDir),
    // Set even when undefined: the router would keep a malformed raw value otherwise.
    columns: parseColumns(raw.columns),
  };
}

/**
 * DataTable props bound to the URL state: a page change keeps the sort; a sort or page size change goes
 * back to page 1; a choice of columns keeps the page. Filters are patched by the page itself (set
 * `page: 1` with them). With `listName` the table offers the Columns and Views menus of that list.
 */
export function useListControls<S extends string>(
  search: Pick<ListSearch<S>, 'page' | 'perPage' | 'sortBy' | 'sortDir' | 'columns'>,
  onSearchChange: (patch: Partial<ListSearch<S>>) => void,
  listName?: ListName,
) {
  const onColumnChoiceChange = useCallback(
    (columns: string | undefined) => onSearchChange({ columns }),
    [onSearchChange],
  );
  const onPageChange = useCallback((page: number) => onSearchChange({ page }), [onSearchChange]);
  const onPerPageChange = useCallback(
    (perPage: number) => onSearchChange(perPagePatch(perPage)),
    [onSearchChange],
  );
  const onSortChange = useCallback(
    (sortBy: string, sortDir: SortDir) => onSearchChange({ sortBy: sortBy as S, sortDir, page: 1 }),
    [onSearchChange],
  );
  return useMemo(
    () => ({
      page: search.page,
      sortBy: search.sortBy as string,
      sortDir: search.sortDir,
      onPageChange,
      onPerPageChange,
      onSortChange,
      listName,
      columnChoice: search.columns,
      onColumnChoiceChange,
    }),
    [
      search.page,
      search.sortBy,
      search.sortDir,
      search.columns,
      listName,
      onPageChange,
      onPerPageChange,
      onSortChange,
      onColumnChoiceChange,
    ],
  );
}

/**
 * A list's search as its API call takes it: the columns shown are the screen's business, so choosing
 * them neither changes the query key (no refetch) nor reaches the API.
 */
export function withoutColumns<T extends object>(search: T): Omit<T, 'columns'> {
  // The API's query types have no `columns`; the screen's search objects passed here do.
  const { columns: _columns, ...query } = search as T & { columns?: unknown };
  return query;
}
