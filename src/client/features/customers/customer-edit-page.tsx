import { useNavigate } from '@tanstack/react-router';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import { useCreateCustomer, useCustomer, useUpdateCustomer } from './api/customers';
import { CustomerForm } from './customer-form';
import { CustomerPageFrame } from './customer-page-frame';

/** /customers/new: the empty form; once created, its edit page. */
export function CustomerCreatePage() {
  const abilities = useAbilities();
  const create = useCreateCustomer();
  const navigate = useNavigate();
  return (
    <CustomerPageFrame>
      <CustomerForm
        customer={undefined}
        canSave={Boolean(abilities.canCreateCustomers)}
        onSave={async (values) => {
          const customer = await create.mutateAsync(values);
          toast.success({ id: 'customers.created' });
          await navigate({ to: '/customers/$id', params: { id: customer.id } });
        }}
      />
    </CustomerPageFrame>
  );
}

/** /customers/$id (and /edit): the anagraphic tab, inside the customer layout. */
export function CustomerEditPage({ id }: { id: number }) {
  const abilities = useAbilities();
  const customer = useCustomer(id);
  const update = useUpdateCustomer(id);
  if (customer.isPending) return <PagePending />;
  if (customer.isError) return <PageError />;
  return (
    <CustomerForm
      customer={customer.data}
      canSave={Boolean(abilities.canCreateCustomers)}
      onSave={async (values) => {
        await update.mutateAsync(values);
        toast.success({ id: 'customers.updated' });
      }}
    />
  );
}

/** The /customers/$id layout: frame with heading and tabs around the tab's page. */
export function CustomerLayout({ id, children }: { id: number; children: React.ReactNode }) {
  const customer = useCustomer(id);
  if (customer.isPending) return <PagePending />;
  if (customer.isError) return <PageError />;
  return <CustomerPageFrame customer={customer.data}>{children}</CustomerPageFrame>;
}
