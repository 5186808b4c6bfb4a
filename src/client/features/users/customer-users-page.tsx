import Add from '@mui/icons-material/Add';
import { Box, Card, CardContent, Stack } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { type DataColumn, DataTable, listState, YesNo } from '#client/components/data-table/index.ts';
import { SearchBar } from '#client/components/list/index.ts';
import { ButtonLink } from '#client/components/router-link.tsx';
import { useAbilities } from '#client/lib/session.ts';
import type { User } from '#shared/api/index.ts';
import { type CustomerUsersSearch, useCustomerUsers } from './api/users';
import { RoleBadge } from './role-badge';

/**
 * docs/product.md §2 Customer users: name, email, active; create with canCreateUsers; row click opens edit.
 * The search (`q` in the URL) narrows it by name or email, like the users list.
 */
export function CustomerUsersPage({
  customerId,
  search,
  onSearchChange,
}: {
  customerId: number;
  search: CustomerUsersSearch;
  onSearchChange: (patch: Partial<CustomerUsersSearch>) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const navigate = useNavigate();
  const users = useCustomerUsers(customerId, search);

  const columns = useMemo<DataColumn<User>[]>(
    () => [
      {
        id: 'name',
        headerId: 'users.list.name',
        cell: (row) => (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            {row.name} <RoleBadge role={row.role} />
          </Box>
        ),
      },
      { id: 'email', headerId: 'users.list.email', cell: (row) => row.email },
      {
        id: 'active',
        headerId: 'users.list.active',
        cell: (row) => <YesNo value={row.deleted_at === null} />,
      },
    ],
    [],
  );

  return (
    <Stack spacing={2}>
      {abilities.canCreateUsers && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <ButtonLink
            to="/customers/$id/users/new"
            params={{ id: customerId }}
            variant="contained"
            startIcon={<Add />}
          >
            {intl.formatMessage({ id: 'users.list.create' })}
          </ButtonLink>
        </Box>
      )}
      <Card>
        <CardContent>
          <SearchBar
            labelId="users.list.filters"
            placeholderId="users.list.search_placeholder"
            value={search.q}
            onChange={(q) => onSearchChange({ q })}
          />
          <DataTable<User>
            labelId="users.list.customer_label"
            columns={columns}
            rows={users.data}
            getRowId={(row) => row.id}
            onRowClick={(row) =>
              void navigate({
                to: '/customers/$id/users/$userId',
                params: { id: customerId, userId: row.id },
              })
            }
            emptyMessageId="users.list.empty"
            {...listState(users)}
          />
        </CardContent>
      </Card>
    </Stack>
  );
}
