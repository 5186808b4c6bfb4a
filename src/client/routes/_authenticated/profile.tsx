import { createFileRoute } from '@tanstack/react-router';
import { meQueryOptions } from '../../features/profile/api/me';
import { ProfilePage } from '../../features/profile/profile-page';
import { useDocumentTitle } from '../../lib/document-title';

export const Route = createFileRoute('/_authenticated/profile')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(meQueryOptions());
  },
  component: ProfileRoute,
});

function ProfileRoute() {
  useDocumentTitle({ id: 'titles.profile' });
  return <ProfilePage />;
}
