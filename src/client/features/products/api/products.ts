import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { QueryOf } from '#shared/api/index.ts';

export type ProductsSearch = Required<Omit<QueryOf<'listProducts'>, 'q' | 'perPage'>> &
  Pick<QueryOf<'listProducts'>, 'q' | 'perPage'>;
export type ProductSortBy = ProductsSearch['sortBy'];

/** GET /products: a page of products. */
export const productsQueryOptions = (search: ProductsSearch) =>
  queryOptions({
    queryKey: ['products', withoutColumns(search)],
    queryFn: () => unwrap(api.GET('/products', { params: { query: withoutColumns(search) } })),
    placeholderData: keepPreviousData,
  });

export const useProducts = (search: ProductsSearch) => useQuery(productsQueryOptions(search));
