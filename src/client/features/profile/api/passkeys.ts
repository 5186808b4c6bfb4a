import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import { formDataSerializer } from '#client/lib/form-data.ts';
import { createPasskey } from '#client/lib/passkeys.ts';
import type { Schemas } from '#shared/api/index.ts';
import { type FactorChange, secondFactorQueryOptions } from './second-factor';

export type Passkey = Schemas['Passkey'];

/** GET /auth/me/passkeys (docs/accounts.md §6). */
export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me', 'passkeys'],
    queryFn: () => unwrap(api.GET('/auth/me/passkeys')),
  });

export const usePasskeys = () => useQuery(passkeysQueryOptions());

function useRefreshFactors() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: passkeysQueryOptions().queryKey });
    await queryClient.invalidateQueries({ queryKey: secondFactorQueryOptions().queryKey });
  };
}

/**
 * Adds a passkey: POST /auth/me/passkeys/options (the password, and a proof of the factor in force),
 * the browser's dialog making the passkey, then POST /auth/me/passkeys with its name.
 */
export function useAddPasskey() {
  const refresh = useRefreshFactors();
  return useMutation({
    mutationKey: ['auth', 'me', 'passkeys', 'add'],
    meta: { silentError: true },
    mutationFn: async ({ name, ...proof }: FactorChange & { name: string }) => {
      const options = await unwrap(
        api.POST('/auth/me/passkeys/options', { body: proof, bodySerializer: formDataSerializer }),
      );
      const credential = await createPasskey(options);
      return unwrap(
        api.POST('/auth/me/passkeys', { body: { name, credential }, bodySerializer: formDataSerializer }),
      );
    },
    onSuccess: refresh,
  });
}

/** PUT /auth/me/passkeys/{passkeyId}. */
export function useRenamePasskey() {
  const refresh = useRefreshFactors();
  return useMutation({
    mutationKey: ['auth', 'me', 'passkeys', 'rename'],
    meta: { silentError: true },
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      unwrap(
        api.PUT('/auth/me/passkeys/{passkeyId}', {
          params: { path: { passkeyId: id } },
          body: { name },
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: refresh,
  });
}

/** POST /auth/me/passkeys/{passkeyId}/remove (the password, and a proof of a factor). */
export function useRemovePasskey() {
  const refresh = useRefreshFactors();
  return useMutation({
    mutationKey: ['auth', 'me', 'passkeys', 'remove'],
    meta: { silentError: true },
    mutationFn: ({ id, ...proof }: FactorChange & { id: number }) =>
      unwrap(
        api.POST('/auth/me/passkeys/{passkeyId}/remove', {
          params: { path: { passkeyId: id } },
          body: proof,
          bodySerializer: formDataSerializer,
        }),
      ),
    onSuccess: refresh,
  });
}
