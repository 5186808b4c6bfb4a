import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { OpenAlertsPanel } from '../../../../../features/alerts/open-alerts-panel';
import { HistoryPanel } from '../../../../../features/audit/history-panel';
import { customerDeviceQueryOptions, useCustomerDevice } from '../../../../../features/devices/api/devices';
import { DeviceGapsPanel } from '../../../../../features/devices/components/device-gaps-panel';
import { DeviceEditPage } from '../../../../../features/devices/device-edit-page';
import { errorTitle, useDocumentTitle } from '../../../../../lib/document-title';
import { idParam } from '../../../../../lib/route-params';

/** SPEC §2 customer_device_edit. */
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
      <HistoryPanel entityType="device" entityId={deviceId} />
    </Stack>
  );
}
