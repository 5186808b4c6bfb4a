import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseIsoDate, parseListSearch, parseSearchText } from '../../../components/data-table/list-search';
import { customersQueryOptions } from '../../../features/customers/api/customers';
import { CustomerListPage } from '../../../features/customers/customer-list-page';
import { CUSTOMER_SORT_KEYS, type CustomerListSearch } from '../../../features/customers/search';
import { useDocumentTitle } from '../../../lib/document-title';
import { requireModulePage } from '../../../lib/route-guards';
import { useSearchChange } from '../../../lib/search-change';

export const Route = createFileRoute('/_authenticated/customers/')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'customers'),
  validateSearch: (raw: Partial<CustomerListSearch> & SearchSchemaInput): CustomerListSearch => ({
    ...parseListSearch(raw, CUSTOMER_SORT_KEYS, { sortBy: 'name', sortDir: 'asc' }),
    q: parseSearchText(raw.q),
    filterFrom: parseIsoDate(raw.filterFrom),
    filterTo: parseIsoDate(raw.filterTo),
  }),
  loaderDeps: ({ search }) => search,
  // Not awaited: a list that fails shows as empty, with the error alert (SPEC §7).
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
