import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import { signWithPasskey } from '#client/lib/passkeys.ts';
import { session } from '#client/lib/session.ts';
import type { LoginResult, Schemas } from '#shared/api/index.ts';

export type LoginValues = { email: string; password: string };
export type LoginStep = Schemas['LoginStep'];

/** The session a finished sign-in answers, stored; nothing cached for a previous user may leak into it. */
function useStoreSession() {
  const queryClient = useQueryClient();
  return (data: LoginResult) => {
    queryClient.clear();
    session.set({ user: { ...data.user, modules: data.modules ?? data.user.modules }, token: data.token });
  };
}

/**
 * POST /auth/login. A user without a second factor is signed in at once (the session stored); otherwise
 * the answer is the step still owed (docs/accounts.md §5), and the session comes from that step.
 */
export function useLogin() {
  const store = useStoreSession();
  return useMutation({
    mutationKey: ['auth', 'login'],
    // The login screen reports its own failures ("Login failed").
    meta: { silentError: true },
    mutationFn: (values: LoginValues) =>
      unwrap(api.POST('/auth/login', { body: values, bodySerializer: formDataSerializer })),
    onSuccess: (data) => {
      if (!('step' in data)) store(data);
    },
  });
}

/** POST /auth/login/second-factor: a code of the app, or a recovery code. */
export function useLoginSecondFactor() {
  const store = useStoreSession();
  return useMutation({
    mutationKey: ['auth', 'login', 'second-factor'],
    meta: { silentError: true },
    mutationFn: (values: { step_token: string; code: string }) =>
      unwrap(api.POST('/auth/login/second-factor', { body: values, bodySerializer: formDataSerializer })),
    onSuccess: store,
  });
}

/** POST /auth/login/enrol: the app to set up when the role requires one. */
export function useLoginEnrolStart() {
  return useMutation({
    mutationKey: ['auth', 'login', 'enrol'],
    mutationFn: (stepToken: string) =>
      unwrap(
        api.POST('/auth/login/enrol', {
          body: { step_token: stepToken },
          bodySerializer: formDataSerializer,
        }),
      ),
  });
}

/**
 * POST /auth/login/enrol/confirm: confirms the app and signs in. The session is stored only once the
 * user has seen the recovery codes (`store` of the answer), or the app would leave this screen at once.
 */
export function useLoginEnrolConfirm() {
  const store = useStoreSession();
  const mutation = useMutation({
    mutationKey: ['auth', 'login', 'enrol', 'confirm'],
    meta: { silentError: true },
    mutationFn: (values: { step_token: string; code: string }) =>
      unwrap(api.POST('/auth/login/enrol/confirm', { body: values, bodySerializer: formDataSerializer })),
  });
  return { ...mutation, store };
}

/**
 * The second step with a passkey (docs/accounts.md §6): a challenge for the user's passkeys
 * (POST /auth/login/passkey/options), the browser's passkey dialog, then POST /auth/login/passkey.
 */
export function useLoginPasskey() {
  const store = useStoreSession();
  return useMutation({
    mutationKey: ['auth', 'login', 'passkey'],
    meta: { silentError: true },
    mutationFn: async (stepToken: string) => {
      const options = await unwrap(
        api.POST('/auth/login/passkey/options', {
          body: { step_token: stepToken },
          bodySerializer: formDataSerializer,
        }),
      );
      const credential = await signWithPasskey(options);
      return unwrap(
        api.POST('/auth/login/passkey', {
          body: { step_token: stepToken, credential },
          bodySerializer: formDataSerializer,
        }),
      );
    },
    onSuccess: store,
  });
}

/** Passwordless: a challenge for any passkey of this site (POST /auth/passkey/options), then POST /auth/passkey. */
export function usePasskeySignIn() {
  const store = useStoreSession();
  return useMutation({
    mutationKey: ['auth', 'passkey'],
    meta: { silentError: true },
    mutationFn: async () => {
      const options = await unwrap(api.POST('/auth/passkey/options'));
      const credential = await signWithPasskey(options);
      return unwrap(api.POST('/auth/passkey', { body: { credential }, bodySerializer: formDataSerializer }));
    },
    onSuccess: store,
  });
}
