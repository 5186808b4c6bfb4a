import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { AlertsListPage } from '../../features/alerts/alerts-list-page';
import { alertsQueryOptions } from '../../features/alerts/api/alerts';
import { type AlertListSearch, parseAlertSearch } from '../../features/alerts/search';
import { useDocumentTitle } from '../../lib/document-title';
import { requireModulePage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';

/** Alerts the user may see: page, sort and filters in the URL, so a filtered view is a link. */
export const Route = createFileRoute('/_authenticated/alerts')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'alerts'),
  validateSearch: (
    raw: Partial<Record<keyof AlertListSearch, unknown>> & SearchSchemaInput,
  ): AlertListSearch => parseAlertSearch(raw),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(alertsQueryOptions(deps));
  },
  component: AlertsRoute,
});

function AlertsRoute() {
  useDocumentTitle({ id: 'titles.alerts' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <AlertsListPage search={search} onSearchChange={onSearchChange} />;
}
