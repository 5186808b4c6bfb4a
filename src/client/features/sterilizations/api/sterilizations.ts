/**
 * Sterilization calls (SPEC §7): the paged, sorted, filtered list, its two filter option lists, and
 * the filtered CSV export. The export link carries a one-time ticket (POST /export-tickets), never
 * the session token.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { QueryOf } from '../../../../shared/api/index.ts';
import { api, unwrap } from '../../../lib/api-client';

export type SterilizationsSearch = QueryOf<'listSterilizations'>;
export type SterilizationSortBy = NonNullable<SterilizationsSearch['sortBy']>;
/** The list's filters, as the export takes them. */
export type SterilizationFilters = Pick<SterilizationsSearch, 'customerId' | 'deviceId' | 'from' | 'to'>;

/** GET /sterilizations: one page; the previous page stays on screen while the next one loads. */
export const sterilizationsQueryOptions = (search: SterilizationsSearch) =>
  queryOptions({
    queryKey: ['sterilizations', search],
    queryFn: () => unwrap(api.GET('/sterilizations', { params: { query: search } })),
    placeholderData: keepPreviousData,
  });

export const useSterilizations = (search: SterilizationsSearch) =>
  useQuery(sterilizationsQueryOptions(search));

/** GET /sterilizations/customer-filter: staff get every customer, a customer user only their own. */
export const sterilizationCustomerFilterQueryOptions = () =>
  queryOptions({
    queryKey: ['sterilizations', 'customer-filter'],
    queryFn: () => unwrap(api.GET('/sterilizations/customer-filter')),
    staleTime: 5 * 60_000,
    meta: { failureMessage: { id: 'errors.client_list' } },
  });

/** Only users who may choose the customer ask for it; the others' customer is their own. */
export const useSterilizationCustomerFilter = (enabled: boolean) =>
  useQuery({ ...sterilizationCustomerFilterQueryOptions(), enabled });

/** GET /sterilizations/device-filter/{customerId}: skipped when no customer is chosen (SPEC §7). */
export const sterilizationDeviceFilterQueryOptions = (customerId: number) =>
  queryOptions({
    queryKey: ['sterilizations', 'device-filter', customerId],
    queryFn: () =>
      unwrap(api.GET('/sterilizations/device-filter/{customerId}', { params: { path: { customerId } } })),
    staleTime: 60_000,
  });

export const useSterilizationDeviceFilter = (customerId: number | undefined) =>
  useQuery({
    ...sterilizationDeviceFilterQueryOptions(customerId ?? 0),
    enabled: customerId !== undefined,
  });

/** /export/sterilizations-filtered with the filled query values only (the link's visible href). */
export function filteredExportUrl(query: SterilizationFilters & { ticket?: string }): string {
  const search = new URLSearchParams();
  for (const key of ['ticket', 'from', 'to', 'customerId', 'deviceId'] as const) {
    const value = query[key];
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return `/export/sterilizations-filtered${text ? `?${text}` : ''}`;
}

/** POST /export-tickets, then the export URL of the current filters with that ticket. */
export function useFilteredSterilizationsExport() {
  return useMutation({
    mutationKey: ['export-tickets', 'sterilizations-filtered'],
    mutationFn: async (filters: SterilizationFilters) => {
      const { ticket } = await unwrap(
        api.POST('/export-tickets', { body: { export: 'sterilizations-filtered' } }),
      );
      return filteredExportUrl({ ...filters, ticket });
    },
  });
}
