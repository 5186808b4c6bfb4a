import { createFileRoute, redirect } from '@tanstack/react-router';

/** /dashboard is an alias of / (docs/product.md §2). */
export const Route = createFileRoute('/dashboard')({
  beforeLoad: () => {
    throw redirect({ to: '/', replace: true });
  },
});
