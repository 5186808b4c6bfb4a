import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { OpenAlertsPanel } from '#client/features/alerts/open-alerts-panel.tsx';
import { HistoryPanel } from '#client/features/audit/history-panel.tsx';
import { customerDeviceQueryOptions, useCustomerDevice } from '#client/features/devices/api/devices.ts';
import { DeviceGapsPanel } from '#client/features/devices/components/device-gaps-panel.tsx';
import { DeviceKeyHistory } from '#client/features/devices/components/device-key-history.tsx';
import { DeviceEditPage } from '#client/features/devices/device-edit-page.tsx';
import { errorTitle, useDocumentTitle } from '#client/lib/document-title.ts';
import { idParam } from '#client/lib/route-params.ts';

/** docs/product.md §2 customer_device_edit. */
export const Route = createFileRoute('/_authenticated/customers/$id/devices/$deviceId')({
  params: idParam('deviceId'),
  loader: ({ context, params }) => {
    const query = customerDeviceQueryOptions(params.id, params.deviceId);
    void context.queryClient.prefetchQuery(query);
  },
  component: DeviceEditRoute,
});

function DeviceEditRoute() {
  const { id, deviceId } = Route.useParams();
  const device = useCustomerDevice(id, deviceId);
  // The loader does not wait for the device (the page shows its own progress and error).
  useDocumentTitle(
    device.data
      ? { id: 'titles.device', values: { serial: device.data.device_serial } }
      : device.isError
        ? errorTitle(device.error)
        : { id: 'titles.device_loading' },
  );
  // A new key per device and customer: after a reassignment the page starts over (and takes its keys).
  return (
    <Stack spacing={2}>
      <DeviceEditPage key={`${id}/${deviceId}`} customerId={id} deviceId={deviceId} />
      <OpenAlertsPanel deviceId={deviceId} />
      <DeviceGapsPanel customerId={id} deviceId={deviceId} />
      {device.isSuccess && <DeviceKeyHistory deviceId={deviceId} />}
      <HistoryPanel entityType="device" entityId={deviceId} />
    </Stack>
  );
}
