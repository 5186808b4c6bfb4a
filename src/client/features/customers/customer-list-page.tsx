import Add from '@mui/icons-material/Add';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { DateRangeFilter } from '#client/components/data-table/date-filter.tsx';
import {
  type DataColumn,
  DataTable,
  pagedRows,
  useListControls,
  YesNo,
} from '#client/components/data-table/index.ts';
import { OpenRowAction } from '#client/components/data-table/open-row-action.tsx';
import { ExportLink } from '#client/components/export-link.tsx';
import { FilterBar, ListPage, SearchFilter } from '#client/components/list/index.ts';
import { ButtonLink } from '#client/components/router-link.tsx';
import { useAbilities } from '#client/lib/session.ts';
import type { Customer } from '#shared/api/index.ts';
import { useCustomers } from './api/customers';
import type { CustomerListSearch } from './search';

function EditAction({ customer }: { customer: Customer }) {
  const intl = useIntl();
  const navigate = useNavigate();
  return (
    <OpenRowAction
      label={intl.formatMessage({ id: 'customers.list.open' }, { name: customer.name })}
      onOpen={() => void navigate({ to: '/customers/$id', params: { id: customer.id } })}
    />
  );
}

/** docs/product.md §2 Customer list. Page, sort and the from/to filters live in the URL. */
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
  const list = useListControls(search, onSearchChange, 'customers');
  const customers = useCustomers(search);
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

  const filtered = Boolean(search.filterFrom || search.filterTo || search.q);

  return (
    <ListPage
      titleId="customers.list.title"
      action={
        abilities.canCreateCustomers && (
          <ButtonLink to="/customers/new" variant="contained" startIcon={<Add />}>
            {intl.formatMessage({ id: 'customers.list.create' })}
          </ButtonLink>
        )
      }
    >
      <FilterBar
        labelId="customers.list.filters"
        filtered={filtered}
        onReset={() => onSearchChange({ q: undefined, filterFrom: undefined, filterTo: undefined, page: 1 })}
        trailing={
          abilities.canDownloadCustomers && (
            <ExportLink exportName="sterilizations-ok" filters={range} labelId="customers.list.download" />
          )
        }
      >
        <SearchFilter
          placeholderId="customers.list.search_placeholder"
          value={search.q}
          onChange={(q) => onSearchChange({ q, page: 1 })}
        />
        <DateRangeFilter
          names={['filterFrom', 'filterTo']}
          labelIds={['customers.list.filter_from', 'customers.list.filter_to']}
          value={[search.filterFrom, search.filterTo]}
          onChange={([filterFrom, filterTo]) => onSearchChange({ filterFrom, filterTo, page: 1 })}
        />
      </FilterBar>
      <DataTable<Customer>
        labelId="customers.list.title"
        columns={columns}
        {...pagedRows(customers)}
        getRowId={(row) => row.id}
        {...list}
        onRowClick={(row) => void navigate({ to: '/customers/$id', params: { id: row.id } })}
        emptyMessageId="customers.list.empty"
      />
    </ListPage>
  );
}
