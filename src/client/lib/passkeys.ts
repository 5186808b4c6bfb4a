/**
 * The browser's side of passkeys (docs/accounts.md §6), with @simplewebauthn/browser: the options the
 * server answered go to navigator.credentials, and the answer comes back as the JSON text the server's
 * forms take (`credential`, `passkey`).
 */
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from '@simplewebauthn/browser';
import type { Schemas } from '#shared/api/index.ts';
import { api, unwrap } from './api-client.ts';

/** Whether this browser can use passkeys at all (WebAuthn, a secure context). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** Makes a passkey with the server's creation options; answers the attestation as JSON text. */
export async function createPasskey(options: Schemas['PasskeyCreationOptions']): Promise<string> {
  const answer = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return JSON.stringify(answer);
}

/** Signs the server's challenge with a passkey the browser offers; answers the assertion as JSON text. */
export async function signWithPasskey(options: Schemas['PasskeyRequestOptions']): Promise<string> {
  const answer = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return JSON.stringify(answer);
}

/**
 * One of the signed-in user's own passkeys confirming a change of factors or a signature: a challenge
 * of POST /auth/me/passkeys/check signed in the browser's passkey dialog; answers the `passkey` field.
 */
export async function passkeyProof(): Promise<string> {
  return signWithPasskey(await unwrap(api.POST('/auth/me/passkeys/check')));
}

/** The person closed the browser's passkey dialog, or it timed out: nothing to report as an error. */
export const passkeyDismissed = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
