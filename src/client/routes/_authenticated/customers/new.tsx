import { createFileRoute } from '@tanstack/react-router';
import { CustomerCreatePage } from '../../../features/customers/customer-edit-page';

export const Route = createFileRoute('/_authenticated/customers/new')({
  component: CustomerCreatePage,
});
