/** The list's URL state: kept apart from the page so the route's search parsing does not pull the table into the first bundle. */
import type { SearchableListSearch } from '../../components/data-table/list-search';

export const USER_SORT_KEYS = ['name', 'email', 'active'] as const;
export type UserListSearch = SearchableListSearch<(typeof USER_SORT_KEYS)[number]>;
