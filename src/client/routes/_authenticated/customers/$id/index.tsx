import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { OpenAlertsPanel } from '#client/features/alerts/open-alerts-panel.tsx';
import { HistoryPanel } from '#client/features/audit/history-panel.tsx';
import { useCustomer } from '#client/features/customers/api/customers.ts';
import { CustomerEditPage } from '#client/features/customers/customer-edit-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';

export const Route = createFileRoute('/_authenticated/customers/$id/')({
  component: CustomerEditRoute,
});

function CustomerEditRoute() {
  const { id } = Route.useParams();
  // The layout's loader has the customer in the cache: its name shows at once.
  const name = useCustomer(id).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.customer_loading' } : { id: 'titles.customer', values: { name } },
  );
  return (
    <Stack spacing={2}>
      <CustomerEditPage id={id} />
      <OpenAlertsPanel customerId={id} />
      <HistoryPanel entityType="customer" entityId={id} />
    </Stack>
  );
}
