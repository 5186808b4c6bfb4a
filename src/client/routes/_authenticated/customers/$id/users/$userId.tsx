import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { PagePending, RouteError } from '../../../../../components/route-fallbacks';
import { HistoryPanel } from '../../../../../features/audit/history-panel';
import { customerUserQueryOptions, useCustomerUser } from '../../../../../features/users/api/users';
import { UserEditPage } from '../../../../../features/users/user-edit-page';
import { useDocumentTitle } from '../../../../../lib/document-title';
import { idParam } from '../../../../../lib/route-params';

export const Route = createFileRoute('/_authenticated/customers/$id/users/$userId')({
  params: idParam('userId'),
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(customerUserQueryOptions(params.id, params.userId)),
  // The loader waits for the user: a failure shows inside the customer page, with a retry.
  pendingComponent: PagePending,
  errorComponent: RouteError,
  component: UserEditRoute,
});

function UserEditRoute() {
  const { id, userId } = Route.useParams();
  const name = useCustomerUser(id, userId).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.user_loading' } : { id: 'titles.user', values: { name } },
  );
  return (
    <Stack spacing={2}>
      <UserEditPage customerId={id} userId={userId} />
      <HistoryPanel entityType="user" entityId={userId} />
    </Stack>
  );
}
