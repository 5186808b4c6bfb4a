import { createFileRoute } from '@tanstack/react-router';
import { UserCreatePage } from '../../../../../features/users/user-edit-page';

export const Route = createFileRoute('/_authenticated/customers/$id/users/new')({
  component: UserCreateRoute,
});

function UserCreateRoute() {
  const { id } = Route.useParams();
  return <UserCreatePage customerId={Number(id)} />;
}
