import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import type { QueryOf, RequestBodyOf } from '#shared/api/index.ts';

export type CustomerListParams = QueryOf<'listCustomers'>;
export type CustomerFormValues = Required<RequestBodyOf<'createCustomer'>>;

/** GET /customers: one page, sorted, with ok sterilizations counted in filterFrom..filterTo. */
export const customersQueryOptions = (params: CustomerListParams) =>
  queryOptions({
    queryKey: ['customers', withoutColumns(params)],
    queryFn: () => unwrap(api.GET('/customers', { params: { query: withoutColumns(params) } })),
    // The previous page stays on screen (with the spinner) while the next one loads.
    placeholderData: keepPreviousData,
  });

export const useCustomers = (params: CustomerListParams) => useQuery(customersQueryOptions(params));

/** GET /customers/{id}: one customer with its counts (tab badges). */
export const customerQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['customers', id],
    queryFn: () => unwrap(api.GET('/customers/{id}', { params: { path: { id } } })),
  });

export const useCustomer = (id: number) => useQuery(customerQueryOptions(id));

export type CustomerData = NonNullable<ReturnType<typeof useCustomer>['data']>;

/** POST /customers (multipart; empty values are not sent). */
export function useCreateCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customers', 'create'],
    mutationFn: (values: CustomerFormValues) =>
      unwrap(api.POST('/customers', { body: values, bodySerializer: formDataSerializer })),
    onSuccess: (customer) => {
      queryClient.setQueryData(customerQueryOptions(customer.id).queryKey, customer);
      return queryClient.invalidateQueries({ queryKey: ['customers'] });
    },
  });
}

/** The clinic's alert thresholds: sent even when empty, which sets them back to the server's default. */
const THRESHOLD_FIELDS = ['alert_device_silent_hours', 'alert_lamp_life_threshold'] as const;

/**
 * The update's multipart body. Formik hands a number input's value over as a number (a string only
 * until the user types), so a threshold may be either here.
 */
export function updateSerializer(body: Partial<CustomerFormValues>): FormData {
  const form = formDataSerializer(body);
  for (const field of THRESHOLD_FIELDS) {
    const value: unknown = body[field];
    if (value === undefined || value === null || String(value).trim() === '') form.append(field, '');
  }
  return form;
}

/** PATCH /customers/{id} (multipart; fields left empty are not changed, except the alert thresholds). */
export function useUpdateCustomer(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['customers', id, 'update'],
    mutationFn: (values: CustomerFormValues) =>
      unwrap(
        api.PATCH('/customers/{id}', {
          params: { path: { id } },
          body: values,
          bodySerializer: updateSerializer,
        }),
      ),
    onSuccess: (customer) => {
      queryClient.setQueryData(customerQueryOptions(id).queryKey, customer);
      return queryClient.invalidateQueries({ queryKey: ['customers'] });
    },
  });
}
