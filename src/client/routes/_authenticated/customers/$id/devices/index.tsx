import { createFileRoute } from '@tanstack/react-router';
import { useCustomer } from '../../../../../features/customers/api/customers';
import { customerDevicesQueryOptions } from '../../../../../features/devices/api/devices';
import { CustomerDevicesPage } from '../../../../../features/devices/customer-devices-page';
import { useDocumentTitle } from '../../../../../lib/document-title';

/** SPEC §2 customer_devices_index (the devices tab of the customer page). */
export const Route = createFileRoute('/_authenticated/customers/$id/devices/')({
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(customerDevicesQueryOptions(params.id));
  },
  component: CustomerDevicesRoute,
});

function CustomerDevicesRoute() {
  const { id } = Route.useParams();
  const name = useCustomer(id).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.devices' } : { id: 'titles.customer_devices', values: { name } },
  );
  return <CustomerDevicesPage customerId={id} />;
}
