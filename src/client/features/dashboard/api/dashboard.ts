import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';

/** GET /dashboard: counts and disposable-sleeve batches. */
export const dashboardQueryOptions = () =>
  queryOptions({
    queryKey: ['dashboard'],
    queryFn: () => unwrap(api.GET('/dashboard')),
  });

export const useDashboard = () => useQuery(dashboardQueryOptions());

export type DashboardData = NonNullable<ReturnType<typeof useDashboard>['data']>;
