import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { useCustomer } from '#client/features/customers/api/customers.ts';
import { reportsQueryOptions } from '#client/features/reports/api/reports.ts';
import { ReportListPage } from '#client/features/reports/report-list-page.tsx';
import { parseReportSearch, type ReportListSearch, reportsQuery } from '#client/features/reports/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

/** The reports tab of the customer page (staff). */
export const Route = createFileRoute('/_authenticated/customers/$id/reports')({
  validateSearch: (
    raw: Partial<Record<keyof ReportListSearch, unknown>> & SearchSchemaInput,
  ): ReportListSearch => parseReportSearch(raw),
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(reportsQueryOptions(params.id, reportsQuery(deps)));
  },
  component: CustomerReportsRoute,
});

function CustomerReportsRoute() {
  const { id } = Route.useParams();
  const name = useCustomer(id).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.reports' } : { id: 'titles.customer_reports', values: { name } },
  );
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return (
    <ReportListPage
      customerId={id}
      search={search}
      titleId="reports.list.customer_title"
      onSearchChange={onSearchChange}
    />
  );
}
