import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { withoutColumns } from '#client/components/data-table/list-search.ts';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import type { QueryOf, RequestBodyOf } from '#shared/api/index.ts';

export type UserListParams = QueryOf<'listUsers'>;
export type UserFormValues = Required<RequestBodyOf<'createCustomerUser'>>;

/** GET /users: one page of the users the caller may see. */
export const usersQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: ['users', withoutColumns(params)],
    queryFn: () => unwrap(api.GET('/users', { params: { query: withoutColumns(params) } })),
    placeholderData: keepPreviousData,
  });

export const useUsers = (params: UserListParams) => useQuery(usersQueryOptions(params));

export type CustomerUsersSearch = QueryOf<'listCustomerUsers'>;

/**
 * GET /customers/{id}/users: every user of a customer, or those matching the search `q`. Loaded once
 * (docs/product.md §2: "loaded only if empty"): it stays fresh until a user of this customer is created,
 * updated, disabled or enabled here. The key ends in the search object, so `customerUsersListKey` (an empty
 * object matches any search) reaches every search of the list and no single user.
 */
export const customerUsersQueryOptions = (customerId: number, search: CustomerUsersSearch = {}) =>
  queryOptions({
    queryKey: ['customers', customerId, 'users', search],
    queryFn: () =>
      unwrap(api.GET('/customers/{id}/users', { params: { path: { id: customerId }, query: search } })),
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });

/** Every search of one customer's users list. */
const customerUsersListKey = (customerId: number) => ['customers', customerId, 'users', {}] as const;

export const useCustomerUsers = (customerId: number, search: CustomerUsersSearch = {}) =>
  useQuery(customerUsersQueryOptions(customerId, search));

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
      queryClient.invalidateQueries({ queryKey: customerUsersListKey(customerId) }),
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

/** POST /customers/{id}/users/{userId}/end-sessions: the user is signed out everywhere (docs/accounts.md §3). */
export function useEndUserSessions(customerId: number, userId: number) {
  return useMutation({
    mutationKey: ['customers', customerId, 'users', userId, 'end-sessions'],
    mutationFn: () =>
      unwrap(
        api.POST('/customers/{id}/users/{userId}/end-sessions', {
          params: { path: { id: customerId, userId } },
        }),
      ),
  });
}

/** POST /customers/{id}/users/{userId}/reset-second-factor: the SUPER_ADMIN's, with a reason (docs/accounts.md §5). */
export function useResetUserSecondFactor(customerId: number, userId: number) {
  return useMutation({
    mutationKey: ['customers', customerId, 'users', userId, 'reset-second-factor'],
    mutationFn: (reason: string) =>
      unwrap(
        api.POST('/customers/{id}/users/{userId}/reset-second-factor', {
          params: { path: { id: customerId, userId } },
          body: { reason },
          bodySerializer: formDataSerializer,
        }),
      ),
  });
}

export type UserBulkRequest = RequestBodyOf<'bulkUserAction'>;

/**
 * POST /users/bulk: the chosen users, or every user the search matches, disabled or enabled one by one
 * on the server. Any user's page or list may have changed.
 */
export function useBulkUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserBulkRequest) => unwrap(api.POST('/users/bulk', { body })),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['users'] }),
        queryClient.invalidateQueries({ queryKey: ['customers'] }),
      ]),
  });
}
