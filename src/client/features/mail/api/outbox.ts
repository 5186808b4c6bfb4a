/** GET /mail-outbox (canSeeMailOutbox): the outbox view's pages. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { QueryOf } from '#shared/api/index.ts';

export type OutboxQuery = QueryOf<'listMailOutbox'>;

export const outboxQueryOptions = (query: OutboxQuery) =>
  queryOptions({
    queryKey: ['mail-outbox', withoutColumns(query)],
    queryFn: () => unwrap(api.GET('/mail-outbox', { params: { query: withoutColumns(query) } })),
    placeholderData: keepPreviousData,
  });

export const useOutbox = (query: OutboxQuery) => useQuery(outboxQueryOptions(query));
