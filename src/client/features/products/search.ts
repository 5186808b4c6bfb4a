/** The list's URL state: kept apart from the page so the route's search parsing does not pull the table into the first bundle. */
import type { SearchableListSearch } from '#client/components/data-table/list-search.ts';
import type { ProductSortBy } from './api/products';

export const PRODUCT_SORT_KEYS = ['name', 'type', 'active'] as const satisfies readonly ProductSortBy[];
export type ProductsListSearch = SearchableListSearch<ProductSortBy>;
