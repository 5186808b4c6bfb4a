/**
 * The list's URL state. Kept apart from the page component so the route's search parsing (which is
 * in the first bundle) does not pull the page in.
 */

import type { ListSearch } from '#client/components/data-table/list-search.ts';
import type { SterilizationAnomaly } from '#client/lib/sterilization-anomaly.ts';
import type { LotStatusFilter, SessionUser } from '#shared/api/index.ts';
import type { SterilizationSortBy } from './api/sterilizations';

export const STERILIZATION_SORT_KEYS = [
  'received_ts',
  'device_serial',
  'consumables_lot',
] as const satisfies readonly SterilizationSortBy[];

export type SterilizationListSearch = ListSearch<(typeof STERILIZATION_SORT_KEYS)[number]> & {
  customerId?: number;
  deviceId?: number;
  anomaly?: SterilizationAnomaly;
  from?: string;
  to?: string;
  lotStatus?: LotStatusFilter;
};

export const LOT_STATUS_FILTERS = [
  'flagged',
  'uncertified',
  'expired',
  'certified',
  'no_lot',
] as const satisfies readonly LotStatusFilter[];

/** One of the lot compliance filters, else undefined (a malformed value drops the filter). */
export function parseLotStatus(value: unknown): LotStatusFilter | undefined {
  return LOT_STATUS_FILTERS.find((status) => status === value);
}

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

/**
 * The list as it opens: page 1, newest first, no filter. Only this view refreshes by itself when
 * records arrive; any other keeps its rows still and offers the new ones instead.
 */
export function isOpeningView(search: SterilizationListSearch): boolean {
  return (
    search.page === 1 &&
    search.sortBy === 'received_ts' &&
    search.sortDir === 'desc' &&
    [search.customerId, search.deviceId, search.from, search.to].every((value) => value === undefined)
  );
}

/**
 * Whether records just received by this device for this owner can be in the list `query` asks for
 * (the effective one, with a customer user's own customer). Days are whole UTC days, as the server
 * filters them.
 */
export function mayListNewRecords(
  query: SterilizationListSearch,
  records: { customerId: number | null; deviceId: number | null },
  now = new Date(),
): boolean {
  const today = now.toISOString().slice(0, 10);
  if (query.from !== undefined && query.from > today) return false;
  if (query.to !== undefined && query.to < today) return false;
  if (records.customerId === null) return true;
  if (query.customerId !== undefined && query.customerId !== records.customerId) return false;
  return query.deviceId === undefined || query.deviceId === records.deviceId;
}
