import { createFileRoute } from '@tanstack/react-router';
import { dashboardQueryOptions } from '../../features/dashboard/api/dashboard';
import { DashboardPage } from '../../features/dashboard/dashboard-page';

export const Route = createFileRoute('/_authenticated/')({
  loader: ({ context }) => {
    // Start the fetch early; the page shows its own progress and error states.
    void context.queryClient.prefetchQuery(dashboardQueryOptions());
  },
  component: DashboardPage,
});
