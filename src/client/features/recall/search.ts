/** The recall screen's URL state (kept apart from the page so the route's parsing stays small). */

import type { ListSearch } from '#client/components/data-table/list-search.ts';
import type { SessionUser } from '#shared/api/index.ts';
import type { RecallRecordsSearch, RecallSortBy } from './api/recall';

export const RECALL_SORT_KEYS = ['received_ts', 'device_serial'] as const satisfies readonly RecallSortBy[];

export type RecallSearch = ListSearch<(typeof RECALL_SORT_KEYS)[number]> & {
  lot?: string;
  customerId?: number;
  deviceId?: number;
  from?: string;
  to?: string;
};

/**
 * What the list asks for, or null before a lot is named. Without canSeeAllSterilizations the customer
 * is the user's own whatever the URL says (the server would answer another tenant's id with nothing).
 */
export function recallQuery(
  search: RecallSearch,
  user: Pick<SessionUser, 'customer_id' | 'abilities'> | undefined,
): RecallRecordsSearch | null {
  if (search.lot === undefined) return null;
  const customerId = user && !user.abilities.canSeeAllSterilizations ? user.customer_id : search.customerId;
  return {
    lot: search.lot,
    page: search.page,
    perPage: search.perPage,
    sortBy: search.sortBy,
    sortDir: search.sortDir,
    customerId,
    deviceId: search.deviceId,
    from: search.from,
    to: search.to,
  };
}
