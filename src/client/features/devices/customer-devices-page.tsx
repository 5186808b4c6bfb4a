import AddIcon from '@mui/icons-material/Add';
import { Box, Stack } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { type DataColumn, DataTable, listState, YesNo } from '#client/components/data-table/index.ts';
import { SearchBar } from '#client/components/list/index.ts';
import { ButtonLink } from '#client/components/router-link.tsx';
import { useAbilities } from '#client/lib/session.ts';
import type { Device } from '#shared/api/index.ts';
import { type CustomerDevicesSearch, useCustomerDevices } from './api/devices';

/**
 * docs/product.md §2 customer_devices_index: all the customer's devices; a row opens the device. The search
 * (`q` in the URL) narrows it by serial number or label, like the devices list.
 */
export function CustomerDevicesPage({
  customerId,
  search,
  onSearchChange,
}: {
  customerId: number;
  search: CustomerDevicesSearch;
  onSearchChange: (patch: Partial<CustomerDevicesSearch>) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const navigate = useNavigate();
  const devices = useCustomerDevices(customerId, search);

  const columns = useMemo<DataColumn<Device>[]>(
    () => [
      { id: 'device_serial', headerId: 'devices.columns.device_serial', cell: (row) => row.device_serial },
      { id: 'type', headerId: 'devices.columns.type', cell: (row) => row.product.name },
      { id: 'label', headerId: 'devices.columns.label', cell: (row) => row.label },
      {
        id: 'active',
        headerId: 'devices.columns.active',
        cell: (row) => <YesNo value={row.deleted_at === null} />,
      },
    ],
    [],
  );

  return (
    <Stack spacing={1}>
      {abilities.canCreateDevices && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <ButtonLink
            to="/customers/$id/devices/new"
            params={{ id: customerId }}
            variant="contained"
            startIcon={<AddIcon />}
          >
            {intl.formatMessage({ id: 'devices.list.create' })}
          </ButtonLink>
        </Box>
      )}
      <SearchBar
        labelId="devices.list.filters"
        placeholderId="devices.list.search_placeholder"
        value={search.q}
        onChange={(q) => onSearchChange({ q })}
      />
      <DataTable
        labelId="devices.list.label"
        columns={columns}
        rows={devices.data}
        getRowId={(row) => row.id}
        emptyMessageId="devices.list.empty"
        {...listState(devices)}
        onRowClick={(row) =>
          void navigate({
            to: '/customers/$id/devices/$deviceId',
            params: { id: customerId, deviceId: row.id },
          })
        }
      />
    </Stack>
  );
}
