/**
 * What a change of one's own second factors sends besides the password (docs/accounts.md §5, §6): a
 * code of the app when there is one, else one of the user's passkeys (its browser dialog), else nothing.
 */
import { ApiError } from '#client/lib/api-client.ts';
import { passkeyProof } from '#client/lib/passkeys.ts';
import type { FactorChange } from './api/second-factor';

export async function factorProof(
  state: { totp: boolean; passkeys: number } | undefined,
  password: string,
  code: string,
): Promise<FactorChange> {
  if (state?.totp) return { current_password: password, code: code.trim() };
  if (state && state.passkeys > 0) return { current_password: password, passkey: await passkeyProof() };
  return { current_password: password };
}

/** The first message of a refused form, by field. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.message !== 'validation_error' || !error.data) return {};
  return Object.fromEntries(
    Object.entries(error.data as Record<string, string[]>).map(([field, ids]) => [field, ids[0] ?? '']),
  );
}
