import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { requireIdParam } from '../../../../../components/data-table/list-search';
import { HistoryPanel } from '../../../../../features/audit/history-panel';
import { customerDeviceQueryOptions } from '../../../../../features/devices/api/devices';
import { DeviceEditPage } from '../../../../../features/devices/device-edit-page';

/** SPEC §2 customer_device_edit. */
export const Route = createFileRoute('/_authenticated/customers/$id/devices/$deviceId')({
  loader: ({ context, params }) => {
    const query = customerDeviceQueryOptions(requireIdParam(params.id), requireIdParam(params.deviceId));
    void context.queryClient.prefetchQuery(query);
  },
  component: DeviceEditRoute,
});

function DeviceEditRoute() {
  const { id, deviceId } = Route.useParams();
  // A new key per device and customer: after a reassignment the page starts over (and takes its keys).
  return (
    <Stack spacing={2}>
      <DeviceEditPage key={`${id}/${deviceId}`} customerId={Number(id)} deviceId={Number(deviceId)} />
      <HistoryPanel entityType="device" entityId={Number(deviceId)} />
    </Stack>
  );
}
