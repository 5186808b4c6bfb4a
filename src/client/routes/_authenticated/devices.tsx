import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch, parseSearchText } from '#client/components/data-table/list-search.ts';
import { devicesQueryOptions } from '#client/features/devices/api/devices.ts';
import { DevicesListPage } from '#client/features/devices/devices-list-page.tsx';
import { DEVICE_SORT_KEYS, type DevicesListSearch } from '#client/features/devices/search.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { requireModulePage } from '#client/lib/route-guards.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

/** docs/product.md §2 devices_index; default sort label ascending (docs/product.md §9). */
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
