import { createFileRoute } from '@tanstack/react-router';
import { meQueryOptions } from '#client/features/profile/api/me.ts';
import { ProfilePage } from '#client/features/profile/profile-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';

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
