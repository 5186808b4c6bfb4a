/** The list's URL state: kept apart from the page so the route's search parsing does not pull the table into the first bundle. */
import type { SearchableListSearch } from '#client/components/data-table/list-search.ts';
import type { DeviceSortBy } from './api/devices';

export const DEVICE_SORT_KEYS = [
  'label',
  'device_serial',
  'active',
] as const satisfies readonly DeviceSortBy[];
export type DevicesListSearch = SearchableListSearch<DeviceSortBy>;
