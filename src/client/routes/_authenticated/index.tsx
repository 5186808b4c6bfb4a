import { createFileRoute } from '@tanstack/react-router';
import { dashboardQueryOptions } from '../../features/dashboard/api/dashboard';
import { DashboardPage } from '../../features/dashboard/dashboard-page';
import { useDocumentTitle } from '../../lib/document-title';

export const Route = createFileRoute('/_authenticated/')({
  loader: ({ context }) => {
    // Start the fetch early; the page shows its own progress and error states.
    void context.queryClient.prefetchQuery(dashboardQueryOptions());
  },
  component: DashboardRoute,
});

function DashboardRoute() {
  useDocumentTitle({ id: 'titles.dashboard' });
  return <DashboardPage />;
}
