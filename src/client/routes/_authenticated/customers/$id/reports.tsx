import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { useCustomer } from '../../../../features/customers/api/customers';
import { reportsQueryOptions } from '../../../../features/reports/api/reports';
import { ReportListPage } from '../../../../features/reports/report-list-page';
import { parseReportSearch, type ReportListSearch, reportsQuery } from '../../../../features/reports/search';
import { useDocumentTitle } from '../../../../lib/document-title';
import { useSearchChange } from '../../../../lib/search-change';

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
