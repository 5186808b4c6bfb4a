import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseListSearch, parseSearchText } from '#client/components/data-table/list-search.ts';
import { usersQueryOptions } from '#client/features/users/api/users.ts';
import { USER_SORT_KEYS, type UserListSearch } from '#client/features/users/search.ts';
import { UsersListPage } from '#client/features/users/users-list-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

export const Route = createFileRoute('/_authenticated/users')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'users'),
  validateSearch: (raw: Partial<UserListSearch> & SearchSchemaInput): UserListSearch => ({
    ...parseListSearch(raw, USER_SORT_KEYS, { sortBy: 'name', sortDir: 'asc' }),
    q: parseSearchText(raw.q),
  }),
  loaderDeps: ({ search }) => search,
  // Not awaited: a list that fails shows as empty, with the error alert (docs/product.md §7).
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(usersQueryOptions(deps));
  },
  component: UsersRoute,
});

function UsersRoute() {
  useDocumentTitle({ id: 'titles.users' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <UsersListPage search={search} onSearchChange={onSearchChange} />;
}
