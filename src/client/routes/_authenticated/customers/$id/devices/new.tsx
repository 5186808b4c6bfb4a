import { createFileRoute } from '@tanstack/react-router';
import { DeviceCreatePage } from '#client/features/devices/device-edit-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';

/** docs/product.md §2 customer_device_create. */
export const Route = createFileRoute('/_authenticated/customers/$id/devices/new')({
  component: DeviceCreateRoute,
});

function DeviceCreateRoute() {
  useDocumentTitle({ id: 'titles.device_new' });
  const { id } = Route.useParams();
  return <DeviceCreatePage key={id} customerId={id} />;
}
