import { Stack } from '@mui/material';
import { createFileRoute } from '@tanstack/react-router';
import { OpenAlertsPanel } from '../../../../features/alerts/open-alerts-panel';
import { HistoryPanel } from '../../../../features/audit/history-panel';
import { useCustomer } from '../../../../features/customers/api/customers';
import { CustomerEditPage } from '../../../../features/customers/customer-edit-page';
import { useDocumentTitle } from '../../../../lib/document-title';

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
