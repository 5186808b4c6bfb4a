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
import {
  BulkBar,
  chosenIds,
  ListPage,
  NOTHING_SELECTED,
  SearchBar,
  useRowSelection,
  useSelectableColumns,
} from '#client/components/list/index.ts';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import type { User } from '#shared/api/index.ts';
import { useBulkUserAction, useUsers } from './api/users';
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
  const intl = useIntl();
  const bulk = useBulkUserAction();
  const { selection, setSelection, toggle } = useRowSelection(search.q ?? '');
  const canManage = abilities.canUpdateUsers === true;

  const baseColumns = useMemo<DataColumn<User>[]>(
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
  const columns = useSelectableColumns(baseColumns, {
    enabled: canManage,
    selection,
    toggle,
    rowLabel: (row) => intl.formatMessage({ id: 'users.bulk.select_one' }, { name: row.name }),
    // The list's columns are the product's (docs/product.md, Users list): the checkbox joins the actions.
    inActions: true,
  });
  // Each chosen user is disabled or enabled on its own on the server, audited; the toast counts both.
  const act = (action: 'disable' | 'enable') => {
    const ids = chosenIds(selection);
    bulk.mutate(ids ? { action, ids } : { action, filter: { q: search.q } }, {
      onSuccess: (result) => {
        toast.success({
          id: 'users.bulk.result',
          values: { done: result.done.length, skipped: result.skipped.length },
        });
        setSelection(NOTHING_SELECTED);
      },
    });
  };

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
      {canManage && (
        <BulkBar
          rows={users.data?.data ?? []}
          total={users.data?.total ?? 0}
          selection={selection}
          onSelectionChange={setSelection}
          toolbarLabelId="users.bulk.toolbar"
          selectedId="users.bulk.selected"
          selectAllId="users.bulk.select_all"
          pending={bulk.isPending}
          actions={[
            { labelId: 'users.bulk.disable', onClick: () => act('disable') },
            { labelId: 'users.bulk.enable', onClick: () => act('enable') },
          ]}
        />
      )}
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
