import { createFileRoute, redirect } from '@tanstack/react-router';
import { LoginPage } from '../features/auth/login-page';
import { useDocumentTitle } from '../lib/document-title';

type LoginSearch = { redirect?: string };

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  beforeLoad: ({ context }) => {
    if (context.session.get()) throw redirect({ to: '/', replace: true });
  },
  component: LoginRoute,
});

function LoginRoute() {
  useDocumentTitle({ id: 'titles.login' });
  const { redirect: target } = Route.useSearch();
  return <LoginPage redirect={target} />;
}
