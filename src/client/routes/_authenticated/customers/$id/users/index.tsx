import { createFileRoute } from '@tanstack/react-router';
import { requireIdParam } from '../../../../../components/data-table/list-search';
import { customerUsersQueryOptions } from '../../../../../features/users/api/users';
import { CustomerUsersPage } from '../../../../../features/users/customer-users-page';

export const Route = createFileRoute('/_authenticated/customers/$id/users/')({
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(customerUsersQueryOptions(requireIdParam(params.id))),
  component: CustomerUsersRoute,
});

function CustomerUsersRoute() {
  const { id } = Route.useParams();
  return <CustomerUsersPage customerId={Number(id)} />;
}
