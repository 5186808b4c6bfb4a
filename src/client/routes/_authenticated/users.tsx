import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseListSearch, parseSearchText } from '../../components/data-table/list-search';
import { usersQueryOptions } from '../../features/users/api/users';
import { USER_SORT_KEYS, type UserListSearch } from '../../features/users/search';
import { UsersListPage } from '../../features/users/users-list-page';
import { useDocumentTitle } from '../../lib/document-title';
import { requireModulePage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';

export const Route = createFileRoute('/_authenticated/users')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'users'),
  validateSearch: (raw: Partial<UserListSearch> & SearchSchemaInput): UserListSearch => ({
    ...parseListSearch(raw, USER_SORT_KEYS, { sortBy: 'name', sortDir: 'asc' }),
    q: parseSearchText(raw.q),
  }),
  loaderDeps: ({ search }) => search,
  // Not awaited: a list that fails shows as empty, with the error alert (SPEC §7).
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
