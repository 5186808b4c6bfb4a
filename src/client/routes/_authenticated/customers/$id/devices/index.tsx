import { createFileRoute } from '@tanstack/react-router';
import { requireIdParam } from '../../../../../components/data-table/list-search';
import { customerDevicesQueryOptions } from '../../../../../features/devices/api/devices';
import { CustomerDevicesPage } from '../../../../../features/devices/customer-devices-page';

/** SPEC §2 customer_devices_index (the devices tab of the customer page). */
export const Route = createFileRoute('/_authenticated/customers/$id/devices/')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(customerDevicesQueryOptions(requireIdParam(params.id)));
  },
  component: CustomerDevicesRoute,
});

function CustomerDevicesRoute() {
  const { id } = Route.useParams();
  return <CustomerDevicesPage customerId={Number(id)} />;
}
