import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseSearchText } from '#client/components/data-table/list-search.ts';
import { useCustomer } from '#client/features/customers/api/customers.ts';
import { type CustomerUsersSearch, customerUsersQueryOptions } from '#client/features/users/api/users.ts';
import { CustomerUsersPage } from '#client/features/users/customer-users-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

export const Route = createFileRoute('/_authenticated/customers/$id/users/')({
  // The search `q` is in the URL like the other lists' searches.
  validateSearch: (raw: { q?: unknown } & SearchSchemaInput): CustomerUsersSearch => ({
    q: parseSearchText(raw.q),
  }),
  loaderDeps: ({ search }) => search,
  // Not awaited: a list that fails shows as empty, with the error alert (docs/product.md §7).
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
