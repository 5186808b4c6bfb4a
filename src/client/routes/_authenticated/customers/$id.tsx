import { createFileRoute, Outlet } from '@tanstack/react-router';
import { requireIdParam } from '../../../components/data-table/list-search';
import { customerQueryOptions } from '../../../features/customers/api/customers';
import { CustomerLayout } from '../../../features/customers/customer-edit-page';
import { requireModulePage } from '../../../lib/route-guards';

/** The customer page: back button, heading and tabs around anagraphic / users / devices. */
export const Route = createFileRoute('/_authenticated/customers/$id')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'customers'),
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(customerQueryOptions(requireIdParam(params.id))),
  component: CustomerRoute,
});

function CustomerRoute() {
  const { id } = Route.useParams();
  return (
    <CustomerLayout id={Number(id)}>
      <Outlet />
    </CustomerLayout>
  );
}
