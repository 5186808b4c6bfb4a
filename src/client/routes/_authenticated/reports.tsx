import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { reportsQueryOptions } from '#client/features/reports/api/reports.ts';
import { ReportListPage } from '#client/features/reports/report-list-page.tsx';
import { parseReportSearch, type ReportListSearch, reportsQuery } from '#client/features/reports/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';
import { useSession } from '#client/lib/session.ts';

/** The clinic's own compliance reports (the "Reports" menu entry of customer users). */
export const Route = createFileRoute('/_authenticated/reports')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'reports'),
  validateSearch: (
    raw: Partial<Record<keyof ReportListSearch, unknown>> & SearchSchemaInput,
  ): ReportListSearch => parseReportSearch(raw),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    const customerId = context.session.get()?.user.customer_id;
    if (customerId !== undefined)
      void context.queryClient.prefetchQuery(reportsQueryOptions(customerId, reportsQuery(deps)));
  },
  component: ReportsRoute,
});

function ReportsRoute() {
  useDocumentTitle({ id: 'titles.reports' });
  const customerId = useSession()?.user.customer_id;
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  if (customerId === undefined) return null;
  return <ReportListPage customerId={customerId} search={search} onSearchChange={onSearchChange} />;
}
