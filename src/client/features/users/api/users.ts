import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryOf, RequestBodyOf } from '../../../../shared/api/index.ts';
import { api, unwrap } from '../../../lib/api-client';
import { formDataSerializer } from '../../../lib/form-data';

export type UserListParams = QueryOf<'listUsers'>;
export type UserFormValues = Required<RequestBodyOf<'createCustomerUser'>>;

/** GET /users: one page of the users the caller may see. */
export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: ['users', params],
    queryFn: () => unwrap(api.GET('/users', { params: { query: params } })),
    placeholderData: keepPreviousData,
  });

export const useUsers = (params: UserListParams) => useQuery(usersQueryOptions(params));

/**
 * GET /customers/{id}/users: every user of a customer. Loaded once (SPEC "loaded only if empty"):
 * it stays fresh until a user of this customer is created, updated, disabled or enabled here.
 */
export const customerUsersQueryOptions = (customerId: number) =>
  queryOptions({
    queryKey: ['customers', customerId, 'users'],
    queryFn: () => unwrap(api.GET('/customers/{id}/users', { params: { path: { id: customerId } } })),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCustomerUsers = (customerId: number) => useQuery(customerUsersQueryOptions(customerId));

/** GET /customers/{id}/users/{userId}. */
export const customerUserQueryOptions = (customerId: number, userId: number) =>
  queryOptions({
    queryKey: ['customers', customerId, 'users', userId],
    queryFn: () =>
      unwrap(api.GET('/customers/{id}/users/{userId}', { params: { path: { id: customerId, userId } } })),
  });

export const useCustomerUser = (customerId: number, userId: number) =>
  useQuery(customerUserQueryOptions(customerId, userId));

export type UserData = NonNullable<ReturnType<typeof useCustomerUser>['data']>;

/** After a write: the user itself, its customer's list and counts, and the users list. */
function useUserWritten(customerId: number) {
  const queryClient = useQueryClient();
  return async (user: UserData) => {
    queryClient.setQueryData(customerUserQueryOptions(customerId, user.id).queryKey, user);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['customers', customerId, 'users'], exact: true }),
      queryClient.invalidateQueries({ queryKey: ['customers', customerId], exact: true }),
      queryClient.invalidateQueries({ queryKey: ['users'] }),
    ]);
  };
}

/**
 * POST /customers/{id}/users. Field errors (e.g. the taken email) are shown on the form and in the
 * alert of the mutation cache.
 */
export function useCreateCustomerUser(customerId: number) {
  const written = useUserWritten(customerId);
  return useMutation({
    mutationKey: ['customers', customerId, 'users', 'create'],
    mutationFn: (values: UserFormValues) =>
      unwrap(
        api.POST('/customers/{id}/users', {
          params: { path: { id: customerId } },
          body: values,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: written,
  });
}

/** PATCH /customers/{id}/users/{userId}: empty fields (e.g. no new password) are not sent. */
export function useUpdateCustomerUser(customerId: number, userId: number) {
  const written = useUserWritten(customerId);
  return useMutation({
    mutationKey: ['customers', customerId, 'users', userId, 'update'],
    mutationFn: (values: UserFormValues) =>
      unwrap(
        api.PATCH('/customers/{id}/users/{userId}', {
          params: { path: { id: customerId, userId } },
          body: values,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: written,
  });
}

/** DELETE /customers/{id}/users/{userId}: disables the user and ends its sessions. */
export function useDisableCustomerUser(customerId: number, userId: number) {
  const written = useUserWritten(customerId);
  return useMutation({
    mutationKey: ['customers', customerId, 'users', userId, 'disable'],
    mutationFn: () =>
      unwrap(api.DELETE('/customers/{id}/users/{userId}', { params: { path: { id: customerId, userId } } })),
    onSuccess: written,
  });
}

/** POST /customers/{id}/users/{userId}/undelete: the user can log in again. */
export function useEnableCustomerUser(customerId: number, userId: number) {
  const written = useUserWritten(customerId);
  return useMutation({
    mutationKey: ['customers', customerId, 'users', userId, 'enable'],
    mutationFn: () =>
      unwrap(
        api.POST('/customers/{id}/users/{userId}/undelete', {
          params: { path: { id: customerId, userId } },
        }),
      ),
    onSuccess: written,
  });
}
