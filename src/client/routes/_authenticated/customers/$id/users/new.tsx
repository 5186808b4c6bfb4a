import { createFileRoute } from '@tanstack/react-router';
import { UserCreatePage } from '#client/features/users/user-edit-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';

export const Route = createFileRoute('/_authenticated/customers/$id/users/new')({
  component: UserCreateRoute,
});

function UserCreateRoute() {
  useDocumentTitle({ id: 'titles.user_new' });
  const { id } = Route.useParams();
  return <UserCreatePage customerId={id} />;
}
