/**
 * Devices calls (docs/product.md §7): a customer's devices (list, one, create, update), the paged devices
 * list, reassignment to another customer. The option lists of its type select and assign dialog are
 * lib/reference-lists (the audit view names products and customers with them too).
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import type { DeviceForm, QueryOf } from '#shared/api/index.ts';

export type DevicesSearch = Required<Omit<QueryOf<'listDevices'>, 'q' | 'perPage'>> &
  Pick<QueryOf<'listDevices'>, 'q' | 'perPage'>;
export type DeviceSortBy = DevicesSearch['sortBy'];

/** GET /devices: a page of every device the user may see. */
export const devicesQueryOptions = (search: DevicesSearch) =>
  queryOptions({
    queryKey: ['devices', withoutColumns(search)],
    queryFn: () => unwrap(api.GET('/devices', { params: { query: withoutColumns(search) } })),
    placeholderData: keepPreviousData,
  });

export const useDevices = (search: DevicesSearch) => useQuery(devicesQueryOptions(search));

export type CustomerDevicesSearch = QueryOf<'listCustomerDevices'>;

/** GET /customers/{id}/devices: all the devices of one customer, or those matching the search `q`. */
export const customerDevicesQueryOptions = (customerId: number, search: CustomerDevicesSearch = {}) =>
  queryOptions({
    queryKey: ['customers', customerId, 'devices', search],
    queryFn: () =>
      unwrap(api.GET('/customers/{id}/devices', { params: { path: { id: customerId }, query: search } })),
    placeholderData: keepPreviousData,
  });

export const useCustomerDevices = (customerId: number, search: CustomerDevicesSearch = {}) =>
  useQuery(customerDevicesQueryOptions(customerId, search));

/** GET /customers/{id}/devices/{deviceId}. */
export const customerDeviceQueryOptions = (customerId: number, deviceId: number) =>
  queryOptions({
    queryKey: ['customers', customerId, 'devices', deviceId],
    queryFn: () =>
      unwrap(
        api.GET('/customers/{id}/devices/{deviceId}', {
          params: { path: { id: customerId, deviceId } },
        }),
      ),
  });

export const useCustomerDevice = (customerId: number, deviceId: number) =>
  useQuery(customerDeviceQueryOptions(customerId, deviceId));

/** Everything that lists or counts devices (but the queries `keep` names). */
function invalidateDevices(
  queryClient: ReturnType<typeof useQueryClient>,
  keep: (key: readonly unknown[]) => boolean = () => false,
) {
  const predicate = (query: { queryKey: readonly unknown[] }) => !keep(query.queryKey);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['devices'], predicate }),
    queryClient.invalidateQueries({ queryKey: ['customers'], predicate }),
    queryClient.invalidateQueries({ queryKey: ['dashboard'], predicate }),
  ]);
}

/** POST /customers/{id}/devices (multipart; empty values dropped, text trimmed). */
export function useCreateCustomerDevice(customerId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customers', customerId, 'devices', 'create'],
    mutationFn: (values: DeviceForm) =>
      unwrap(
        api.POST('/customers/{id}/devices', {
          params: { path: { id: customerId } },
          body: values,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: () => invalidateDevices(queryClient),
  });
}

/** PATCH /customers/{id}/devices/{deviceId}: serial, label, product and the PUBLIC keys only. */
export function useUpdateCustomerDevice(customerId: number, deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customers', customerId, 'devices', deviceId, 'update'],
    mutationFn: (values: DeviceForm) =>
      unwrap(
        api.PATCH('/customers/{id}/devices/{deviceId}', {
          params: { path: { id: customerId, deviceId } },
          body: values,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: (device) => {
      queryClient.setQueryData(customerDeviceQueryOptions(customerId, deviceId).queryKey, device);
      return invalidateDevices(queryClient);
    },
  });
}

/**
 * POST /device/{deviceId}/assign-to/{customerId}. Silent: the dialog shows "already of the selected
 * customer" and the other refusals itself.
 */
export function useAssignDevice(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['device', deviceId, 'assign'],
    meta: { silentError: true },
    mutationFn: (customerId: number) =>
      unwrap(
        api.POST('/device/{deviceId}/assign-to/{customerId}', { params: { path: { deviceId, customerId } } }),
      ),
    // The device's page under its former customer is gone (404 there now): not refetched, so the page
    // that moves to the new address shows no error after the success.
    onSuccess: (moved) =>
      invalidateDevices(
        queryClient,
        (key) =>
          key[0] === 'customers' &&
          key[1] !== moved.customer_id &&
          key[2] === 'devices' &&
          key[3] === deviceId,
      ),
  });
}

/** GET /devices/{deviceId}/gaps: its missing progressive ids and late records (a clinic: its own only). */
export const deviceGapsQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['devices', deviceId, 'gaps'],
    queryFn: () => unwrap(api.GET('/devices/{deviceId}/gaps', { params: { path: { deviceId } } })),
  });

export const useDeviceGaps = (deviceId: number) => useQuery(deviceGapsQueryOptions(deviceId));

/** GET /devices/{deviceId}/key-events: every change of the device's two key slots, oldest first. */
export const deviceKeyEventsQueryOptions = (deviceId: number) =>
  queryOptions({
    queryKey: ['devices', deviceId, 'key-events'],
    queryFn: () => unwrap(api.GET('/devices/{deviceId}/key-events', { params: { path: { deviceId } } })),
  });

export const useDeviceKeyEvents = (deviceId: number) => useQuery(deviceKeyEventsQueryOptions(deviceId));

/** POST /devices/{deviceId}/keys/{slot}/revoke, with its reason. */
export function useRevokeDeviceKey(deviceId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['devices', deviceId, 'revoke-key'],
    mutationFn: ({ slot, reason }: { slot: 1 | 2; reason: string }) =>
      unwrap(
        api.POST('/devices/{deviceId}/keys/{slot}/revoke', {
          params: { path: { deviceId, slot } },
          body: { reason },
        }),
      ),
    onSuccess: () => invalidateDevices(queryClient),
  });
}
