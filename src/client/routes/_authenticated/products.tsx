import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch, parseSearchText } from '../../components/data-table/list-search';
import { productsQueryOptions } from '../../features/products/api/products';
import { ProductsListPage } from '../../features/products/products-list-page';
import { PRODUCT_SORT_KEYS, type ProductsListSearch } from '../../features/products/search';
import { useDocumentTitle } from '../../lib/document-title';
import { requireModulePage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';

/** SPEC §2 products_index; default sort name ascending (SPEC §9). */
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
