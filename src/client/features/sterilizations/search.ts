/**
 * The list's URL state. Kept apart from the page component so the route's search parsing (which is
 * in the first bundle) does not pull the page in.
 */

import type { SessionUser } from '../../../shared/api/index.ts';
import type { ListSearch } from '../../components/data-table/list-search';
import type { SterilizationSortBy } from './api/sterilizations';

export const STERILIZATION_SORT_KEYS = [
  'received_ts',
  'device_serial',
  'consumables_lot',
] as const satisfies readonly SterilizationSortBy[];

export type SterilizationListSearch = ListSearch<(typeof STERILIZATION_SORT_KEYS)[number]> & {
  customerId?: number;
  deviceId?: number;
  from?: string;
  to?: string;
};

/**
 * What the list asks for. Without canSeeAllSterilizations the customer is the user's own whatever
 * the URL says (the server would answer another tenant's id with an empty page).
 */
export function effectiveSearch(
  search: SterilizationListSearch,
  user: Pick<SessionUser, 'customer_id' | 'abilities'> | undefined,
): SterilizationListSearch {
  if (!user || user.abilities.canSeeAllSterilizations) return search;
  return { ...search, customerId: user.customer_id };
}
