import { createFileRoute, redirect } from '@tanstack/react-router';

/** /customers/$id/edit is an alias of /customers/$id (docs/product.md §2). */
export const Route = createFileRoute('/_authenticated/customers/$id/edit')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/customers/$id', params: { id: params.id }, replace: true });
  },
});
