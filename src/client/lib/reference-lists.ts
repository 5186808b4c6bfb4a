/**
 * Lists of names other records refer to by id: the products (a device's type select, an audit
 * entry's product) and every customer (the assign dialog, an audit entry's customer). Shared by
 * features, so one cache entry serves them all.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from './api-client';

/**
 * The products: the first page of GET /products by type (there are two). Only users with the
 * products module ask for it (those who may change a device's type or see the audit trail).
 */
export const productOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['products', { page: 1, sortBy: 'type', sortDir: 'asc' }],
    queryFn: () =>
      unwrap(api.GET('/products', { params: { query: { page: 1, sortBy: 'type', sortDir: 'asc' } } })),
    staleTime: 5 * 60_000,
  });

export const useProductOptions = (enabled: boolean) => useQuery({ ...productOptionsQueryOptions(), enabled });

/** GET /customers/full-list: loaded once per session of the page (docs/product.md §2: "list loaded once"). */
export const customerOptionsQueryOptions = () =>
  queryOptions({
    queryKey: ['customers', 'full-list'],
    queryFn: () => unwrap(api.GET('/customers/full-list')),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { failureMessage: { id: 'errors.client_list' } },
  });

export const useCustomerOptions = (enabled: boolean) =>
  useQuery({ ...customerOptionsQueryOptions(), enabled });
