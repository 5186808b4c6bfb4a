import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { RequestBodyOf } from '#shared/api/index.ts';

/** GET /auth/me/notifications: which alerts reach the user by e-mail, and in which language. */
export const notificationSettingsQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me', 'notifications'],
    queryFn: () => unwrap(api.GET('/auth/me/notifications')),
  });

export const useNotificationSettings = () => useQuery(notificationSettingsQueryOptions());

export type NotificationSettingsValues = RequestBodyOf<'updateNotificationSettings'>;

/** PUT /auth/me/notifications. */
export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'me', 'notifications', 'update'],
    mutationFn: (body: NotificationSettingsValues) => unwrap(api.PUT('/auth/me/notifications', { body })),
    onSuccess: (settings) => queryClient.setQueryData(notificationSettingsQueryOptions().queryKey, settings),
  });
}
