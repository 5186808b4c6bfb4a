/**
 * GET /alerts, GET /alerts/unread-count, POST /alerts/{id}/acknowledge|resolve. Keys start with
 * ['alerts'], so a change (or a live update) refreshes the list, the bell and the page panels at once.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { QueryOf, RequestBodyOf } from '#shared/api/index.ts';

export type AlertsQuery = QueryOf<'listAlerts'>;
export type AlertSortBy = NonNullable<AlertsQuery['sortBy']>;

export const alertsQueryOptions = (query: AlertsQuery) =>
  queryOptions({
    queryKey: ['alerts', 'list', withoutColumns(query)],
    queryFn: () => unwrap(api.GET('/alerts', { params: { query: withoutColumns(query) } })),
    placeholderData: keepPreviousData,
  });

export const useAlerts = (query: AlertsQuery, enabled = true) =>
  useQuery({ ...alertsQueryOptions(query), enabled });

/** Until live updates push changes, the bell asks again every minute. */
const UNREAD_REFRESH_MS = 60_000;

export const unreadAlertsQueryOptions = () =>
  queryOptions({
    queryKey: ['alerts', 'unread-count'],
    queryFn: () => unwrap(api.GET('/alerts/unread-count')),
    refetchInterval: UNREAD_REFRESH_MS,
    staleTime: 10_000,
    meta: { silentError: true },
  });

export const useUnreadAlerts = () => useQuery(unreadAlertsQueryOptions());

export type AlertAction = 'acknowledge' | 'resolve';

export function useAlertAction(action: AlertAction) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ alertId, comment }: { alertId: number; comment?: string }) => {
      const options = { params: { path: { alertId } }, body: comment ? { comment } : {} };
      return unwrap(
        action === 'acknowledge'
          ? api.POST('/alerts/{alertId}/acknowledge', options)
          : api.POST('/alerts/{alertId}/resolve', options),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
}

export type AlertBulkRequest = RequestBodyOf<'bulkAlertAction'>;

/** POST /alerts/bulk: the chosen alerts, or every alert the filter matches, one by one on the server. */
export function useBulkAlertAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertBulkRequest) => unwrap(api.POST('/alerts/bulk', { body })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
}
