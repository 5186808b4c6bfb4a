import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';

/** GET /auth/me/second-factor (docs/accounts.md §5). */
export const secondFactorQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me', 'second-factor'],
    queryFn: () => unwrap(api.GET('/auth/me/second-factor')),
  });

export const useSecondFactor = () => useQuery(secondFactorQueryOptions());

export type FactorChange = { current_password: string; code?: string; passkey?: string };

/** POST /auth/me/second-factor/totp: a new app to set up (the password, and a code when one is in force). */
export function useStartTotpEnrolment() {
  return useMutation({
    mutationKey: ['auth', 'me', 'second-factor', 'start'],
    meta: { silentError: true },
    mutationFn: (values: FactorChange) =>
      unwrap(api.POST('/auth/me/second-factor/totp', { body: values, bodySerializer: formDataSerializer })),
  });
}

/** POST /auth/me/second-factor/totp/confirm: answers the recovery codes, once. */
export function useConfirmTotpEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'me', 'second-factor', 'confirm'],
    meta: { silentError: true },
    mutationFn: (code: string) =>
      unwrap(
        api.POST('/auth/me/second-factor/totp/confirm', {
          body: { code },
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondFactorQueryOptions().queryKey }),
  });
}

/** POST /auth/me/second-factor/remove. */
export function useRemoveSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'me', 'second-factor', 'remove'],
    meta: { silentError: true },
    mutationFn: (values: FactorChange) =>
      unwrap(api.POST('/auth/me/second-factor/remove', { body: values, bodySerializer: formDataSerializer })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondFactorQueryOptions().queryKey }),
  });
}
