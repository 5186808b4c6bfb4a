import { createFileRoute } from '@tanstack/react-router';
import { parseListSearch } from '../../components/data-table';
import { devicesQueryOptions } from '../../features/devices/api/devices';
import {
  DEVICE_SORT_KEYS,
  DevicesListPage,
  type DevicesListSearch,
} from '../../features/devices/devices-list-page';

/** SPEC §2 devices_index; default sort label ascending (SPEC §9). */
export const Route = createFileRoute('/_authenticated/devices')({
  validateSearch: (raw: Record<string, unknown>): DevicesListSearch =>
    parseListSearch(raw, DEVICE_SORT_KEYS, { sortBy: 'label', sortDir: 'asc' }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(devicesQueryOptions(deps));
  },
  component: DevicesRoute,
});

function DevicesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <DevicesListPage
      search={search}
      onSearchChange={(patch) => void navigate({ search: (prev) => ({ ...prev, ...patch }) })}
    />
  );
}
