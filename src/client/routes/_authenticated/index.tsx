import { createFileRoute } from '@tanstack/react-router';
import { dashboardQueryOptions } from '#client/features/dashboard/api/dashboard.ts';
import { DashboardPage } from '#client/features/dashboard/dashboard-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';

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
