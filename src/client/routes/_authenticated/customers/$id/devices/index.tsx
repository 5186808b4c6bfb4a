import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseSearchText } from '#client/components/data-table/list-search.ts';
import { useCustomer } from '#client/features/customers/api/customers.ts';
import {
  type CustomerDevicesSearch,
  customerDevicesQueryOptions,
} from '#client/features/devices/api/devices.ts';
import { CustomerDevicesPage } from '#client/features/devices/customer-devices-page.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { useSearchChange } from '#client/lib/search-change.ts';

/** docs/product.md §2 customer_devices_index (the devices tab of the customer page). */
export const Route = createFileRoute('/_authenticated/customers/$id/devices/')({
  // The search `q` is in the URL like the other lists' searches.
  validateSearch: (raw: { q?: unknown } & SearchSchemaInput): CustomerDevicesSearch => ({
    q: parseSearchText(raw.q),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(customerDevicesQueryOptions(params.id, deps));
  },
  component: CustomerDevicesRoute,
});

function CustomerDevicesRoute() {
  const { id } = Route.useParams();
  const name = useCustomer(id).data?.name;
  useDocumentTitle(
    name === undefined ? { id: 'titles.devices' } : { id: 'titles.customer_devices', values: { name } },
  );
  const search = Route.useSearch();
  const onSearchChange = useSearchChange(Route);
  return <CustomerDevicesPage customerId={id} search={search} onSearchChange={onSearchChange} />;
}
