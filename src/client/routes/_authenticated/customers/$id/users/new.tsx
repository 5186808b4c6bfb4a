import { createFileRoute } from '@tanstack/react-router';
import { UserCreatePage } from '../../../../../features/users/user-edit-page';
import { useDocumentTitle } from '../../../../../lib/document-title';

export const Route = createFileRoute('/_authenticated/customers/$id/users/new')({
  component: UserCreateRoute,
});

function UserCreateRoute() {
  useDocumentTitle({ id: 'titles.user_new' });
  const { id } = Route.useParams();
  return <UserCreatePage customerId={id} />;
}
