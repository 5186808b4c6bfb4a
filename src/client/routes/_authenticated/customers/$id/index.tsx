import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { HistoryPanel } from '../../../../features/audit/history-panel';
import { CustomerEditPage } from '../../../../features/customers/customer-edit-page';

export const Route = createFileRoute('/_authenticated/customers/$id/')({
  component: CustomerEditRoute,
});

function CustomerEditRoute() {
  const { id } = Route.useParams();
  return (
    <Stack spacing={2}>
      <CustomerEditPage id={Number(id)} />
      <HistoryPanel entityType="customer" entityId={Number(id)} />
    </Stack>
  );
}
