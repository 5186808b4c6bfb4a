import Add from '@mui/icons-material/Add';
import RestartAlt from '@mui/icons-material/RestartAlt';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { Customer } from '../../../shared/api/index.ts';
import { type DataColumn, DataTable, useListControls, YesNo } from '../../components/data-table';
import { DateFilter } from '../../components/data-table/date-filter';
import { OpenRowAction } from '../../components/data-table/open-row-action';
import { downloadUrl, ExportLink } from '../../components/export-link';
import { ButtonLink } from '../../components/router-link';
import { useAbilities } from '../../lib/session';
import { exportUrl, useCustomers, useSterilizationsOkExport } from './api/customers';
import type { CustomerListSearch } from './search';

function EditAction({ customer }: { customer: Customer }) {
  const intl = useIntl();
  const navigate = useNavigate();
  return (
    <OpenRowAction
      label={intl.formatMessage({ id: 'customers.list.open' }, { name: customer.name })}
      onOpen={() => void navigate({ to: '/customers/$id', params: { id: String(customer.id) } })}
    />
  );
}

/** SPEC §2 Customer list. Page, sort and the from/to filters live in the URL. */
export function CustomerListPage({
  search,
  onSearchChange,
}: {
  search: CustomerListSearch;
  onSearchChange: (patch: Partial<CustomerListSearch>) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const navigate = useNavigate();
  const list = useListControls(search, onSearchChange);
  const customers = useCustomers(search);
  const exporter = useSterilizationsOkExport();
  const range = { from: search.filterFrom, to: search.filterTo };

  const columns = useMemo<DataColumn<Customer>[]>(
    () => [
      { id: 'name', headerId: 'customers.list.name', cell: (row) => row.name, sortKey: 'name' },
      {
        id: 'blockchain',
        headerId: 'customers.list.blockchain',
        cell: (row) => <YesNo value={row.enable_blockchain} />,
      },
      {
        id: 'devices_count',
        headerId: 'customers.list.devices_count',
        cell: (row) => row.devices_count,
        align: 'right',
      },
      {
        id: 'users_count',
        headerId: 'customers.list.users_count',
        cell: (row) => row.users_count,
        align: 'right',
      },
      {
        id: 'sterilizations_ok_count',
        headerId: 'customers.list.sterilizations_ok_count',
        cell: (row) => row.sterilizations_ok_count,
        align: 'right',
      },
      {
        id: 'active',
        headerId: 'customers.list.active',
        cell: (row) => <YesNo value={row.deleted_at === null} />,
        sortKey: 'active',
      },
      {
        id: 'actions',
        headerId: 'customers.list.actions',
        cell: (row) => <EditAction customer={row} />,
        align: 'right',
      },
    ],
    [],
  );

  const filtered = Boolean(search.filterFrom || search.filterTo);

  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flexGrow: 1 }}>
          {intl.formatMessage({ id: 'customers.list.title' })}
        </Typography>
        {abilities.canCreateCustomers && (
          <ButtonLink to="/customers/new" variant="contained" startIcon={<Add />}>
            {intl.formatMessage({ id: 'customers.list.create' })}
          </ButtonLink>
        )}
      </Box>
      <Card>
        <CardContent>
          <Box
            role="search"
            aria-label={intl.formatMessage({ id: 'customers.list.filters' })}
            sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}
          >
            <DateFilter
              name="filterFrom"
              labelId="customers.list.filter_from"
              value={search.filterFrom}
              onChange={(filterFrom) => onSearchChange({ filterFrom, page: 1 })}
            />
            <DateFilter
              name="filterTo"
              labelId="customers.list.filter_to"
              value={search.filterTo}
              onChange={(filterTo) => onSearchChange({ filterTo, page: 1 })}
            />
            <Button
              startIcon={<RestartAlt />}
              disabled={!filtered}
              onClick={() => onSearchChange({ filterFrom: undefined, filterTo: undefined, page: 1 })}
            >
              {intl.formatMessage({ id: 'customers.list.reset' })}
            </Button>
            {abilities.canDownloadCustomers && (
              <ExportLink
                href={exportUrl(range)}
                labelId="customers.list.download"
                pending={exporter.isPending}
                onExport={() => exporter.mutate(range, { onSuccess: downloadUrl })}
              />
            )}
          </Box>
          <DataTable<Customer>
            labelId="customers.list.title"
            columns={columns}
            rows={customers.data?.data}
            getRowId={(row) => row.id}
            total={customers.data?.total}
            perPage={customers.data?.per_page}
            {...list}
            onRowClick={(row) => void navigate({ to: '/customers/$id', params: { id: String(row.id) } })}
            emptyMessageId="customers.list.empty"
            isFetching={customers.isFetching}
          />
        </CardContent>
      </Card>
    </Stack>
  );
}
