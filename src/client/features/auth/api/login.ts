import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import { session } from '#client/lib/session.ts';

export type LoginValues = { email: string; password: string };

/** POST /auth/login. On success the session (user with its modules, token) is stored. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'login'],
    // The login screen reports its own failures ("Login failed").
    meta: { silentError: true },
    mutationFn: (values: LoginValues) =>
      unwrap(api.POST('/auth/login', { body: values, bodySerializer: formDataSerializer })),
    onSuccess: (data) => {
      // Nothing cached for a previous user may leak into this session.
      queryClient.clear();
      session.set({ user: { ...data.user, modules: data.modules ?? data.user.modules }, token: data.token });
    },
  });
}
