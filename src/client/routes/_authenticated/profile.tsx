import { createFileRoute } from '@tanstack/react-router';
import { meQueryOptions } from '../../features/profile/api/me';
import { ProfilePage } from '../../features/profile/profile-page';

export const Route = createFileRoute('/_authenticated/profile')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(meQueryOptions());
  },
  component: ProfilePage,
});
