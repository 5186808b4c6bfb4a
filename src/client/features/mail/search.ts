/** The outbox view's URL state (page, state and recipient filters), so a filtered view is a link. */

import { parseColumns, parsePage, parsePerPage } from '#client/components/data-table/list-search.ts';
import type { MailState } from '#shared/api/index.ts';

export const MAIL_STATES = ['pending', 'sent', 'failed'] as const satisfies readonly MailState[];

export type OutboxSearch = {
  page: number;
  perPage?: number;
  state?: MailState;
  to?: string;
  /** The visible columns (list-search.ts `columns`). */
  columns?: string;
};

/** Malformed values fall back to "no filter"; every key is set so the router drops raw leftovers. */
export function parseOutboxSearch(raw: Partial<Record<keyof OutboxSearch, unknown>>): OutboxSearch {
  const to = typeof raw.to === 'string' ? raw.to.trim().slice(0, 255) : '';
  return {
    page: parsePage(raw.page),
    perPage: parsePerPage(raw.perPage),
    state: MAIL_STATES.find((state) => state === raw.state),
    to: to === '' ? undefined : to,
    columns: parseColumns(raw.columns),
  };
}
