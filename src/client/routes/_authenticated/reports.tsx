import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { reportsQueryOptions } from '../../features/reports/api/reports';
import { ReportListPage } from '../../features/reports/report-list-page';
import { parseReportSearch, type ReportListSearch, reportsQuery } from '../../features/reports/search';
import { useDocumentTitle } from '../../lib/document-title';
import { requireModulePage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';
import { useSession } from '../../lib/session';

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
