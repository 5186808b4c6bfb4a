import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseIsoDate, parseListSearch, parseSearchText } from '#client/components/data-table/list-search.ts';
import { customersQueryOptions } from '#client/features/customers/api/customers.ts';
import { CustomerListPage } from '#client/features/customers/customer-list-page.tsx';
import { CUSTOMER_SORT_KEYS, type CustomerListSearch } from '#client/features/customers/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

export const Route = createFileRoute('/_authenticated/customers/')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'customers'),
  validateSearch: (raw: Partial<CustomerListSearch> & SearchSchemaInput): CustomerListSearch => ({
    ...parseListSearch(raw, CUSTOMER_SORT_KEYS, { sortBy: 'name', sortDir: 'asc' }),
    q: parseSearchText(raw.q),
    filterFrom: parseIsoDate(raw.filterFrom),
    filterTo: parseIsoDate(raw.filterTo),
  }),
  loaderDeps: ({ search }) => search,
  // Not awaited: a list that fails shows as empty, with the error alert (docs/product.md §7).
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(customersQueryOptions(deps));
  },
  component: CustomersRoute,
});

function CustomersRoute() {
  useDocumentTitle({ id: 'titles.customers' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <CustomerListPage search={search} onSearchChange={onSearchChange} />;
}
