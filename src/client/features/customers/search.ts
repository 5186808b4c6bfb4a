/** The list's URL state: kept apart from the page so the route's search parsing does not pull the table into the first bundle. */
import type { SearchableListSearch } from '#client/components/data-table/list-search.ts';

export const CUSTOMER_SORT_KEYS = ['name', 'active'] as const;
export type CustomerListSearch = SearchableListSearch<(typeof CUSTOMER_SORT_KEYS)[number]> & {
  filterFrom?: string;
  filterTo?: string;
};
