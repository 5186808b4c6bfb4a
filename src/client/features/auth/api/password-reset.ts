import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';

export type ForgotPasswordValues = { email: string };
export type ResetPasswordValues = { token: string; new_password: string; repeat_new_password: string };

/** POST /auth/password-reset: the same answer whether the address is known or not (docs/accounts.md §4). */
export function useRequestPasswordReset() {
  return useMutation({
    mutationKey: ['auth', 'password-reset', 'request'],
    mutationFn: (values: ForgotPasswordValues) =>
      unwrap(api.POST('/auth/password-reset', { body: values, bodySerializer: formDataSerializer })),
  });
}

/** POST /auth/password-reset/complete: the link's token and the new password. */
export function useCompletePasswordReset() {
  return useMutation({
    mutationKey: ['auth', 'password-reset', 'complete'],
    // The page reports a refused link or password on its own fields.
    meta: { silentError: true },
    mutationFn: (values: ResetPasswordValues) =>
      unwrap(api.POST('/auth/password-reset/complete', { body: values, bodySerializer: formDataSerializer })),
  });
}
