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
import { ListPage, SearchBar } from '#client/components/list/index.ts';
import { useAbilities } from '#client/lib/session.ts';
import type { Device } from '#shared/api/index.ts';
import { useDevices } from './api/devices';
import type { DevicesListSearch } from './search';

function LabelCell({ device }: { device: Device }) {
  const intl = useIntl();
  return (
    <Box>
      <Typography variant="body2">{device.label}</Typography>
      {device.customer?.name && (
        <Typography variant="caption" color="text.secondary">
          {intl.formatMessage({ id: 'devices.list.installed_at' }, { customer: device.customer.name })}
        </Typography>
      )}
    </Box>
  );
}

function ProductTypeCell({ device }: { device: Device }) {
  const intl = useIntl();
  return <>{intl.formatMessage({ id: `devices.type.${device.product_type}` })}</>;
}

type Props = {
  search: DevicesListSearch;
  onSearchChange: (patch: Partial<DevicesListSearch>) => void;
};

/**
 * docs/product.md §2 devices_index. A row opens the device only for users with canUpdateUsers or
 * canGenerateDeviceKeys (docs/product.md §2).
 */
export function DevicesListPage({ search, onSearchChange }: Props) {
  const abilities = useAbilities();
  const navigate = useNavigate();
  const devices = useDevices(search);
  const list = useListControls(search, onSearchChange, 'devices');
  const canOpen = Boolean(abilities.canUpdateUsers || abilities.canGenerateDeviceKeys);

  const columns = useMemo<DataColumn<Device>[]>(
    () => [
      {
        id: 'device_serial',
        headerId: 'devices.columns.device_serial',
        sortKey: 'device_serial',
        cell: (row) => row.device_serial,
      },
      {
        id: 'label',
        headerId: 'devices.columns.label',
        sortKey: 'label',
        cell: (row) => <LabelCell device={row} />,
      },
      {
        id: 'type',
        headerId: 'devices.columns.product_type',
        cell: (row) => <ProductTypeCell device={row} />,
      },
      {
        id: 'active',
        headerId: 'devices.columns.active',
        sortKey: 'active',
        cell: (row) => <YesNo value={row.deleted_at === null} />,
      },
    ],
    [],
  );

  return (
    <ListPage
      titleId="devices.list.title"
      action={
        abilities.canCreateDevices && (
          <CreateForCustomerButton labelId="devices.list.create" target="devices" />
        )
      }
    >
      <SearchBar
        labelId="devices.list.filters"
        placeholderId="devices.list.search_placeholder"
        value={search.q}
        onChange={(q) => onSearchChange({ q, page: 1 })}
      />
      <DataTable
        {...list}
        labelId="devices.list.label"
        columns={columns}
        {...pagedRows(devices)}
        getRowId={(row) => row.id}
        emptyMessageId="devices.list.empty"
        onRowClick={
          canOpen
            ? (row) =>
                void navigate({
                  to: '/customers/$id/devices/$deviceId',
                  params: { id: row.customer_id, deviceId: row.id },
                })
            : undefined
        }
      />
    </ListPage>
  );
}
