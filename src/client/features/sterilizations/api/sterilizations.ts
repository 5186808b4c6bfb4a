/**
 * Sterilization calls (docs/product.md §7): the paged, sorted, filtered list and its two filter option lists
 * (the CSV export: lib/exports.ts).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { QueryOf } from '#shared/api/index.ts';

export type SterilizationsSearch = QueryOf<'listSterilizations'>;
export type SterilizationSortBy = NonNullable<SterilizationsSearch['sortBy']>;
/** The list's filters, as the export takes them. */
export type SterilizationFilters = Pick<
  SterilizationsSearch,
  'customerId' | 'deviceId' | 'anomaly' | 'from' | 'to' | 'lotStatus'
>;

/** GET /sterilizations: one page; the previous page stays on screen while the next one loads. */
export const sterilizationsQueryOptions = (search: SterilizationsSearch) =>
  queryOptions({
    queryKey: ['sterilizations', withoutColumns(search)],
    queryFn: () => unwrap(api.GET('/sterilizations', { params: { query: withoutColumns(search) } })),
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

/**
 * GET /sterilizations/device-filter/{customerId}: skipped when no customer is chosen (docs/product.md §7).
 */
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
