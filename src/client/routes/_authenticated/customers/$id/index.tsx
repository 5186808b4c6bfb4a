import { createFileRoute } from '@tanstack/react-router';
import { CustomerEditPage } from '../../../../features/customers/customer-edit-page';

export const Route = createFileRoute('/_authenticated/customers/$id/')({
  component: CustomerEditRoute,
});

function CustomerEditRoute() {
  const { id } = Route.useParams();
  return <CustomerEditPage id={Number(id)} />;
}
