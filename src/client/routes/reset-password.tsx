import { createFileRoute } from '@tanstack/react-router';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { useDocumentTitle } from '../lib/document-title';

// Public: the link in the reset mail opens it, signed in or not (docs/accounts.md §4).
export const Route = createFileRoute('/reset-password')({
  component: ResetPasswordRoute,
});

function ResetPasswordRoute() {
  useDocumentTitle({ id: 'titles.reset_password' });
  return <ResetPasswordPage />;
}
