import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { AlertsListPage } from '#client/features/alerts/alerts-list-page.tsx';
import { alertsQueryOptions } from '#client/features/alerts/api/alerts.ts';
import { type AlertListSearch, parseAlertSearch } from '#client/features/alerts/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

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
