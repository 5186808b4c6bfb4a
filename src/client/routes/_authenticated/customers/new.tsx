import { createFileRoute } from '@tanstack/react-router';
import { CustomerCreatePage } from '#client/features/customers/customer-edit-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';

export const Route = createFileRoute('/_authenticated/customers/new')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'customers'),
  component: CustomerCreateRoute,
});

function CustomerCreateRoute() {
  useDocumentTitle({ id: 'titles.customer_new' });
  return <CustomerCreatePage />;
}
