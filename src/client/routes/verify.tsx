import { createFileRoute } from '@tanstack/react-router';
import { VerifyPage } from '../features/integrity/verify-page';
import { useDocumentTitle } from '../lib/document-title';

// Public (outside _authenticated): anyone holding a receipt verifies it without an account.
export const Route = createFileRoute('/verify')({
  component: VerifyRoute,
});

function VerifyRoute() {
  useDocumentTitle({ id: 'titles.verify' });
  return <VerifyPage />;
}
