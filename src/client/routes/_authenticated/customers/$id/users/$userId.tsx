import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { requireIdParam } from '../../../../../components/data-table/list-search';
import { HistoryPanel } from '../../../../../features/audit/history-panel';
import { customerUserQueryOptions, useCustomerUser } from '../../../../../features/users/api/users';
import { UserEditPage } from '../../../../../features/users/user-edit-page';
import { useDocumentTitle } from '../../../../../lib/document-title';

export const Route = createFileRoute('/_authenticated/customers/$id/users/$userId')({
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(
      customerUserQueryOptions(requireIdParam(params.id), requireIdParam(params.userId)),
    ),
  component: UserEditRoute,
});

function UserEditRoute() {
  const { id, userId } = Route.useParams();
  const name = useCustomerUser(Number(id), Number(userId)).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.user_loading' } : { id: 'titles.user', values: { name } },
  );
  return (
    <Stack spacing={2}>
      <UserEditPage customerId={Number(id)} userId={Number(userId)} />
      <HistoryPanel entityType="user" entityId={Number(userId)} />
    </Stack>
  );
}
