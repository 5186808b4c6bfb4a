/** GET /audit (canSeeAudit): the audit view's pages and the history panels' (filtered by one entity). */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { QueryOf } from '#shared/api/index.ts';

export type AuditQuery = QueryOf<'listAudit'>;

/**
 * Every successful write adds an entry, so the query client marks ['audit'] stale after each one
 * (lib/query-client.ts) and an open history panel shows the change it just saw being made.
 */
export const auditQueryOptions = (query: AuditQuery) =>
  queryOptions({
    queryKey: ['audit', withoutColumns(query)],
    queryFn: () => unwrap(api.GET('/audit', { params: { query: withoutColumns(query) } })),
    placeholderData: keepPreviousData,
  });

export const useAudit = (query: AuditQuery, enabled = true) =>
  useQuery({ ...auditQueryOptions(query), enabled });
