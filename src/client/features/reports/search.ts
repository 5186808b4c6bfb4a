/** The reports list's URL state (page, sort, filters), parsed the same way by both routes that show it. */

import { type ListSearch, parseListSearch, parseOneOf } from '#client/components/data-table/list-search.ts';
import type { Schemas } from '#shared/api/index.ts';

export const REPORT_SORT_KEYS = ['created_at', 'period_from'] as const;
export const REPORT_STATUSES = [
  'draft',
  'reviewed',
  'approved',
] as const satisfies readonly Schemas['ReportStatus'][];
export const REPORT_LANGUAGES = ['en', 'it'] as const satisfies readonly Schemas['ReportLanguage'][];

export type ReportListSearch = ListSearch<(typeof REPORT_SORT_KEYS)[number]> & {
  status?: Schemas['ReportStatus'];
  language?: Schemas['ReportLanguage'];
};

export function parseReportSearch(raw: Record<string, unknown>): ReportListSearch {
  const status = parseOneOf(raw.status, [...REPORT_STATUSES, ''] as const, '');
  const language = parseOneOf(raw.language, [...REPORT_LANGUAGES, ''] as const, '');
  return {
    ...parseListSearch(raw, REPORT_SORT_KEYS, { sortBy: 'created_at', sortDir: 'desc' }),
    status: status || undefined,
    language: language || undefined,
  };
}

/** The list's search as the API takes it. */
export const reportsQuery = (search: ReportListSearch) => ({
  page: search.page,
  perPage: search.perPage,
  sortBy: search.sortBy,
  sortDir: search.sortDir,
  ...(search.status ? { filterStatus: search.status } : {}),
  ...(search.language ? { filterLanguage: search.language } : {}),
});
