/**
 * Recall calls: a lot's records, paged like the sterilization list, and its counts per
 * customer and device. Keys start with 'recall' so a certificate change can refresh every recall.
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { QueryOf } from '#shared/api/index.ts';

export type RecallRecordsSearch = QueryOf<'listRecallRecords'>;
export type RecallSortBy = NonNullable<RecallRecordsSearch['sortBy']>;
export type RecallSummarySearch = QueryOf<'getRecallSummary'>;

/** GET /recall/records: one page of the lot's records. */
export const recallRecordsQueryOptions = (search: RecallRecordsSearch) =>
  queryOptions({
    queryKey: ['recall', 'records', search],
    queryFn: () => unwrap(api.GET('/recall/records', { params: { query: search } })),
    placeholderData: keepPreviousData,
  });

/** Without a lot there is nothing to ask for. */
export const useRecallRecords = (search: RecallRecordsSearch | null) =>
  useQuery({
    ...recallRecordsQueryOptions(search ?? { lot: '' }),
    enabled: search !== null,
  });

/** GET /recall/summary: the lot's records per customer and per device, and its certificates. */
export const recallSummaryQueryOptions = (search: RecallSummarySearch) =>
  queryOptions({
    queryKey: ['recall', 'summary', search],
    queryFn: () => unwrap(api.GET('/recall/summary', { params: { query: search } })),
    placeholderData: keepPreviousData,
  });

export const useRecallSummary = (search: RecallSummarySearch | null) =>
  useQuery({ ...recallSummaryQueryOptions(search ?? { lot: '' }), enabled: search !== null });
