import { Box, Typography } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { CreateForCustomerButton } from '#client/components/create-for-customer.tsx';
import {
  type DataColumn,
  DataTable,
  pagedRows,
  useListControls,
  YesNo,
} from '#client/components/data-table/index.ts';
import { OpenRowAction } from '#client/components/data-table/open-row-action.tsx';
import { ListPage, SearchBar } from '#client/components/list/index.ts';
import { useAbilities } from '#client/lib/session.ts';
import type { User } from '#shared/api/index.ts';
import { useUsers } from './api/users';
import { RoleBadge } from './role-badge';
import type { UserListSearch } from './search';

const userParams = (user: User) => ({ id: user.customer_id, userId: user.id });

function EditAction({ user }: { user: User }) {
  const intl = useIntl();
  const navigate = useNavigate();
  return (
    <OpenRowAction
      label={intl.formatMessage({ id: 'users.list.open' }, { name: user.name })}
      onOpen={() => void navigate({ to: '/customers/$id/users/$userId', params: userParams(user) })}
    />
  );
}

/** docs/product.md §2 Users list: paged, sortable by name, email, active; row click opens the user. */
export function UsersListPage({
  search,
  onSearchChange,
}: {
  search: UserListSearch;
  onSearchChange: (patch: Partial<UserListSearch>) => void;
}) {
  const navigate = useNavigate();
  const abilities = useAbilities();
  const list = useListControls(search, onSearchChange, 'users');
  const users = useUsers(search);

  const columns = useMemo<DataColumn<User>[]>(
    () => [
      {
        id: 'name',
        headerId: 'users.list.name',
        sortKey: 'name',
        cell: (row) => (
          <Box>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              {row.name} <RoleBadge role={row.role} />
            </Box>
            <Typography variant="body2" color="text.secondary">
              {row.customer.name}
            </Typography>
          </Box>
        ),
      },
      { id: 'email', headerId: 'users.list.email', sortKey: 'email', cell: (row) => row.email },
      {
        id: 'active',
        headerId: 'users.list.active',
        sortKey: 'active',
        cell: (row) => <YesNo value={row.deleted_at === null} />,
      },
      {
        id: 'actions',
        headerId: 'users.list.actions',
        align: 'right',
        cell: (row) => <EditAction user={row} />,
      },
    ],
    [],
  );

  return (
    <ListPage
      titleId="users.list.title"
      action={
        abilities.canCreateUsers && <CreateForCustomerButton labelId="users.list.create" target="users" />
      }
    >
      <SearchBar
        labelId="users.list.filters"
        placeholderId="users.list.search_placeholder"
        value={search.q}
        onChange={(q) => onSearchChange({ q, page: 1 })}
      />
      <DataTable<User>
        labelId="users.list.title"
        columns={columns}
        {...pagedRows(users)}
        getRowId={(row) => row.id}
        {...list}
        onRowClick={(row) => void navigate({ to: '/customers/$id/users/$userId', params: userParams(row) })}
        emptyMessageId="users.list.empty"
      />
    </ListPage>
  );
}
