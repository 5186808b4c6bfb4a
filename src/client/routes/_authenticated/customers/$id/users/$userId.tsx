import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { PagePending, RouteError } from '#client/components/route-fallbacks.tsx';
import { HistoryPanel } from '#client/features/audit/history-panel.tsx';
import { customerUserQueryOptions, useCustomerUser } from '#client/features/users/api/users.ts';
import { UserEditPage } from '#client/features/users/user-edit-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { idParam } from '#client/lib/route-params.ts';

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
