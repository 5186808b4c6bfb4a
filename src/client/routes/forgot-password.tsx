import { createFileRoute, redirect } from '@tanstack/react-router';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { useDocumentTitle } from '../lib/document-title';

// Public, like the login page (docs/accounts.md §4).
export const Route = createFileRoute('/forgot-password')({
  beforeLoad: ({ context }) => {
    if (context.session.get()) throw redirect({ to: '/', replace: true });
  },
  component: ForgotPasswordRoute,
});

function ForgotPasswordRoute() {
  useDocumentTitle({ id: 'titles.forgot_password' });
  return <ForgotPasswordPage />;
}
