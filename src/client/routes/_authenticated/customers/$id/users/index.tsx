import { createFileRoute } from '@tanstack/react-router';
import { useCustomer } from '../../../../../features/customers/api/customers';
import { customerUsersQueryOptions } from '../../../../../features/users/api/users';
import { CustomerUsersPage } from '../../../../../features/users/customer-users-page';
import { useDocumentTitle } from '../../../../../lib/document-title';

export const Route = createFileRoute('/_authenticated/customers/$id/users/')({
  // Not awaited: a list that fails shows as empty, with the error alert (SPEC §7).
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(customerUsersQueryOptions(params.id));
  },
  component: CustomerUsersRoute,
});

function CustomerUsersRoute() {
  const { id } = Route.useParams();
  const name = useCustomer(id).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.users' } : { id: 'titles.customer_users', values: { name } },
  );
  return <CustomerUsersPage customerId={id} />;
}
