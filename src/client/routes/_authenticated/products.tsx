import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch, parseSearchText } from '#client/components/data-table/list-search.ts';
import { productsQueryOptions } from '#client/features/products/api/products.ts';
import { ProductsListPage } from '#client/features/products/products-list-page.tsx';
import { PRODUCT_SORT_KEYS, type ProductsListSearch } from '#client/features/products/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

/** docs/product.md §2 products_index; default sort name ascending (docs/product.md §9). */
export const Route = createFileRoute('/_authenticated/products')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'products'),
  validateSearch: (raw: Record<string, unknown>): ProductsListSearch => ({
    ...parseListSearch(raw, PRODUCT_SORT_KEYS, { sortBy: 'name', sortDir: 'asc' }),
    q: parseSearchText(raw.q),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(productsQueryOptions(deps));
  },
  component: ProductsRoute,
});

function ProductsRoute() {
  useDocumentTitle({ id: 'titles.products' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <ProductsListPage search={search} onSearchChange={onSearchChange} />;
}
