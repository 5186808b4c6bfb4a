import { createFileRoute } from '@tanstack/react-router';
import { CustomerCreatePage } from '../../../features/customers/customer-edit-page';
import { useDocumentTitle } from '../../../lib/document-title';
import { requireModulePage } from '../../../lib/route-guards';

export const Route = createFileRoute('/_authenticated/customers/new')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'customers'),
  component: CustomerCreateRoute,
});

function CustomerCreateRoute() {
  useDocumentTitle({ id: 'titles.customer_new' });
  return <CustomerCreatePage />;
}
