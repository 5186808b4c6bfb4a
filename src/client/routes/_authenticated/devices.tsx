import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch, parseSearchText } from '../../components/data-table/list-search';
import { devicesQueryOptions } from '../../features/devices/api/devices';
import { DevicesListPage } from '../../features/devices/devices-list-page';
import { DEVICE_SORT_KEYS, type DevicesListSearch } from '../../features/devices/search';
import { useDocumentTitle } from '../../lib/document-title';
import { requireModulePage } from '../../lib/route-guards';
import { useSearchChange } from '../../lib/search-change';

/** SPEC §2 devices_index; default sort label ascending (SPEC §9). */
export const Route = createFileRoute('/_authenticated/devices')({
  beforeLoad: ({ context }) => requireModulePage(context.session.get(), 'devices'),
  validateSearch: (raw: Record<string, unknown>): DevicesListSearch => ({
    ...parseListSearch(raw, DEVICE_SORT_KEYS, { sortBy: 'label', sortDir: 'asc' }),
    q: parseSearchText(raw.q),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(devicesQueryOptions(deps));
  },
  component: DevicesRoute,
});

function DevicesRoute() {
  useDocumentTitle({ id: 'titles.devices' });
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <DevicesListPage search={search} onSearchChange={onSearchChange} />;
}
