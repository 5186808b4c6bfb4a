import { Alert, Box, Typography } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import type { Device } from '#shared/api/index.ts';
import { useCreateCustomerDevice, useCustomerDevice, useUpdateCustomerDevice } from './api/devices';
import { AssignDeviceDialog } from './components/assign-device-dialog';
import { DeviceForm } from './components/device-form';
import { handOverPrivateKeys, type PrivateKeys, takePrivateKeys } from './private-key-handoff';

function Heading({ device }: { device: Device | undefined }) {
  const intl = useIntl();
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="h5" component="h2">
        {device
          ? intl.formatMessage({ id: 'devices.edit.title' }, { serial: device.device_serial })
          : intl.formatMessage({ id: 'devices.edit.title_new' })}
      </Typography>
      {device && (
        <Typography variant="body2" color="text.secondary">
          {intl.formatMessage({ id: 'devices.edit.code' }, { id: device.id, label: device.label })}
        </Typography>
      )}
    </Box>
  );
}

/** docs/product.md §2 customer_device_create: the device form for a new device of the customer. */
export function DeviceCreatePage({ customerId }: { customerId: number }) {
  const abilities = useAbilities();
  const navigate = useNavigate();
  const create = useCreateCustomerDevice(customerId);
  const [privateKeys, setPrivateKeys] = useState<PrivateKeys>({});

  return (
    <Box>
      <Heading device={undefined} />
      <DeviceForm
        device={undefined}
        canSave={Boolean(abilities.canCreateDevices)}
        saving={create.isPending}
        privateKeys={privateKeys}
        setPrivateKeys={setPrivateKeys}
        onSave={async (body) => {
          const device = await create.mutateAsync(body);
          toast.success({ id: 'devices.created' });
          handOverPrivateKeys(device.id, privateKeys);
          await navigate({
            to: '/customers/$id/devices/$deviceId',
            params: { id: customerId, deviceId: device.id },
          });
        }}
      />
    </Box>
  );
}

/** docs/product.md §2 customer_device_edit. */
export function DeviceEditPage({ customerId, deviceId }: { customerId: number; deviceId: number }) {
  const intl = useIntl();
  const abilities = useAbilities();
  const navigate = useNavigate();
  const query = useCustomerDevice(customerId, deviceId);
  const update = useUpdateCustomerDevice(customerId, deviceId);
  // Keys generated before (on the create page or under the previous customer) come along, once.
  const [privateKeys, setPrivateKeys] = useState<PrivateKeys>(() => takePrivateKeys(deviceId));
  const [assignOpen, setAssignOpen] = useState(false);

  if (query.isPending) return <PagePending />;
  if (query.isError) return <PageError />;
  const device = query.data;

  return (
    <Box>
      <Heading device={device} />
      {device.deleted_at && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {intl.formatMessage({ id: 'devices.edit.disabled' })}
        </Alert>
      )}
      <DeviceForm
        device={device}
        canSave={Boolean(abilities.canUpdateDevices)}
        saving={update.isPending}
        privateKeys={privateKeys}
        setPrivateKeys={setPrivateKeys}
        onSave={async (body) => {
          await update.mutateAsync(body);
          toast.success({ id: 'devices.updated' });
        }}
        onAssign={abilities.canAssignDeviceToDifferentCustomer ? () => setAssignOpen(true) : undefined}
      />
      {abilities.canAssignDeviceToDifferentCustomer && (
        <AssignDeviceDialog
          open={assignOpen}
          device={device}
          onClose={() => setAssignOpen(false)}
          onAssigned={(moved) => {
            setAssignOpen(false);
            toast.success({ id: 'devices.assigned' });
            handOverPrivateKeys(moved.id, privateKeys);
            void navigate({
              to: '/customers/$id/devices/$deviceId',
              params: { id: moved.customer_id, deviceId: moved.id },
            });
          }}
        />
      )}
    </Box>
  );
}
