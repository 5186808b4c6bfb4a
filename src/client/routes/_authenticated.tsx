import { createFileRoute, redirect } from '@tanstack/react-router';

/** Every page below needs a logged-in user; a guest goes to login and comes back afterwards. */
export const Route = createFileRoute('/_authenticated')({
  beforeLoad: ({ context, location }) => {
    if (!context.session.get()) {
      throw redirect({ to: '/login', search: { redirect: location.href }, replace: true });
    }
  },
});
