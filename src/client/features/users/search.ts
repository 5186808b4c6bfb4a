/** The list's URL state: kept apart from the page so the route's search parsing does not pull the table into the first bundle. */
import type { SearchableListSearch } from '#client/components/data-table/list-search.ts';

export const USER_SORT_KEYS = ['name', 'email', 'active'] as const;
export type UserListSearch = SearchableListSearch<(typeof USER_SORT_KEYS)[number]>;
