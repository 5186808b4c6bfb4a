import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseSearchText } from '../../../../../components/data-table/list-search';
import { useCustomer } from '../../../../../features/customers/api/customers';
import { type CustomerUsersSearch, customerUsersQueryOptions } from '../../../../../features/users/api/users';
import { CustomerUsersPage } from '../../../../../features/users/customer-users-page';
import { useDocumentTitle } from '../../../../../lib/document-title';
import { useSearchChange } from '../../../../../lib/search-change';

export const Route = createFileRoute('/_authenticated/customers/$id/users/')({
  // The search `q` (issue 15 item 12) is in the URL like the other lists' searches.
  validateSearch: (raw: { q?: unknown } & SearchSchemaInput): CustomerUsersSearch => ({
    q: parseSearchText(raw.q),
  }),
  loaderDeps: ({ search }) => search,
  // Not awaited: a list that fails shows as empty, with the error alert (SPEC §7).
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(customerUsersQueryOptions(params.id, deps));
  },
  component: CustomerUsersRoute,
});

function CustomerUsersRoute() {
  const { id } = Route.useParams();
  const name = useCustomer(id).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.users' } : { id: 'titles.customer_users', values: { name } },
  );
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <CustomerUsersPage customerId={id} search={search} onSearchChange={onSearchChange} />;
}
