import { createFileRoute } from '@tanstack/react-router';
import { VerifyPage } from '../features/integrity/verify-page';

// Public (outside _authenticated): anyone holding a receipt verifies it without an account.
export const Route = createFileRoute('/verify')({
  component: VerifyPage,
});
