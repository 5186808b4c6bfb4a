import { createFileRoute, type SearchSchemaInput } from '@tanstack/react-router';
import { parseSearchText } from '../../../../../components/data-table/list-search';
import { useCustomer } from '../../../../../features/customers/api/customers';
import {
  type CustomerDevicesSearch,
  customerDevicesQueryOptions,
} from '../../../../../features/devices/api/devices';
import { CustomerDevicesPage } from '../../../../../features/devices/customer-devices-page';
import { useDocumentTitle } from '../../../../../lib/document-title';
import { useSearchChange } from '../../../../../lib/search-change';

/** SPEC §2 customer_devices_index (the devices tab of the customer page). */
export const Route = createFileRoute('/_authenticated/customers/$id/devices/')({
  // The search `q` (issue 15 item 12) is in the URL like the other lists' searches.
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
