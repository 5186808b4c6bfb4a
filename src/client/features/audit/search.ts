/**
 * The audit view's URL state: page and every filter, so a filtered view is a link. Kept apart from
 * the page so the route's search parsing does not pull the page into the first bundle.
 */

import {
  parseColumns,
  parseId,
  parseIsoDate,
  parsePage,
  parsePerPage,
} from '#client/components/data-table/list-search.ts';
import type { AuditEntityType } from '#shared/api/index.ts';

export const AUDIT_ENTITY_TYPES = [
  'customer',
  'user',
  'device',
  'certificate',
  'alert',
] as const satisfies readonly AuditEntityType[];

export type AuditListSearch = {
  page: number;
  perPage?: number;
  entityType?: AuditEntityType;
  entityId?: number;
  actor?: string;
  from?: string;
  to?: string;
  /** The visible columns (list-search.ts `columns`). */
  columns?: string;
};

const MAX_ID = 2_147_483_647;

/** The actor filter as the API takes it (at most 255 characters); blank is no filter. */
function parseActor(value: unknown): string | undefined {
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  return text === '' ? undefined : text.slice(0, 255);
}

/** Malformed values fall back to "no filter"; every key is set so the router drops raw leftovers. */
export function parseAuditSearch(raw: Partial<Record<keyof AuditListSearch, unknown>>): AuditListSearch {
  const entityType = AUDIT_ENTITY_TYPES.find((type) => type === raw.entityType);
  const entityId = parseId(raw.entityId);
  return {
    page: parsePage(raw.page),
    perPage: parsePerPage(raw.perPage),
    entityType,
    // An id names an entity only together with its type.
    entityId: entityType === undefined || entityId === undefined || entityId > MAX_ID ? undefined : entityId,
    actor: parseActor(raw.actor),
    from: parseIsoDate(raw.from),
    to: parseIsoDate(raw.to),
    columns: parseColumns(raw.columns),
  };
}
