import { createFileRoute, Outlet } from '@tanstack/react-router';
import { PagePending, RouteError } from '#client/components/route-fallbacks.tsx';
import { customerQueryOptions } from '#client/features/customers/api/customers.ts';
import { CustomerLayout } from '#client/features/customers/customer-edit-page.tsx';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { idParam } from '#client/lib/route-params.ts';

/** The customer page: back button, heading and tabs around anagraphic / users / devices. */
export const Route = createFileRoute('/_authenticated/customers/$id')({
  params: idParam('id'),
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'customers'),
  loader: ({ context, params }) => context.queryClient.ensureQueryData(customerQueryOptions(params.id)),
  // The loader waits for the customer: a failure (another tenant's id, a 5xx) shows here, with a retry.
  pendingComponent: PagePending,
  errorComponent: RouteError,
  component: CustomerRoute,
});

function CustomerRoute() {
  const { id } = Route.useParams();
  return (
    <CustomerLayout id={id}>
      <Outlet />
    </CustomerLayout>
  );
}
