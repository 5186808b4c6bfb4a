/** The alerts list's URL state: page, sort and every filter, so a filtered view is a link. */

import { type ListSearch, parseId, parseListSearch } from '#client/components/data-table/list-search.ts';
import {
  ALERT_KINDS,
  ALERT_STATE_FILTERS,
  type AlertKind,
  type AlertStateFilter,
} from '#shared/alerts/index.ts';
import type { AlertSortBy } from './api/alerts';

export const ALERT_SORT_KEYS = ['raised_at', 'kind', 'state'] as const satisfies readonly AlertSortBy[];

export type AlertListSearch = ListSearch<AlertSortBy> & {
  state?: AlertStateFilter;
  kind?: AlertKind;
  customerId?: number;
  deviceId?: number;
};

const MAX_ID = 2_147_483_647;
const idOf = (value: unknown) => {
  const id = parseId(value);
  return id !== undefined && id <= MAX_ID ? id : undefined;
};

/** Malformed values fall back to their default (newest first, no filter); every key is set. */
export function parseAlertSearch(raw: Partial<Record<keyof AlertListSearch, unknown>>): AlertListSearch {
  return {
    ...parseListSearch(raw, ALERT_SORT_KEYS, { sortBy: 'raised_at', sortDir: 'desc' }),
    state: ALERT_STATE_FILTERS.find((state) => state === raw.state),
    kind: ALERT_KINDS.find((kind) => kind === raw.kind),
    customerId: idOf(raw.customerId),
    deviceId: idOf(raw.deviceId),
  };
}
