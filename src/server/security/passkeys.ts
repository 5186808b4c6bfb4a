/**
 * Passkeys and security keys (WebAuthn, docs/accounts.md §6), verified by @simplewebauthn/server: the
 * options a browser needs to make or use one, the challenges behind them (rows of webauthn_challenges,
 * each taken by the one answer that names it, so it works across server processes and is never good
 * twice), and the checks of an answer: the origin and RP id of the configuration, the challenge, the
 * credential's owner and its signature counter.
 */
import { createHash } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { WebauthnConfig } from '../config.ts';
import type { Db, Tx } from '../db/client.ts';
import { passkeys, webauthnChallenges } from '../db/schema.ts';

export type { WebauthnConfig };

type Transports = NonNullable<WebAuthnCredential['transports']>;
export type ChallengePurpose = 'registration' | 'second_factor' | 'passwordless' | 'reauth';

/** Time to touch a key or unlock a phone, not to wait for a better moment. */
export const CHALLENGE_SECONDS = 120;
/** The longest name a user gives a passkey. */
export const PASSKEY_NAME_MAX = 64;
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

export interface PasskeyRow {
  id: number;
  name: string;
  transports: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

export function passkeysOf(db: Db | Tx, userId: number): Promise<PasskeyRow[]> {
  return db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      transports: passkeys.transports,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

/** A name as its owner typed it, trimmed; null when empty, too long or with control characters. */
export function passkeyName(raw: unknown): string | null {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (name === '' || [...name].length > PASSKEY_NAME_MAX || /\p{Cc}/u.test(name)) return null;
  return name;
}

// ---- challenges ------------------------------------------------------------------------------------

async function storeChallenge(
  db: Db | Tx,
  challenge: string,
  purpose: ChallengePurpose,
  userId: number | null,
) {
  // Challenges nobody answered are of no further use.
  await db.delete(webauthnChallenges).where(sql`${webauthnChallenges.expiresAt} < now()`);
  await db.insert(webauthnChallenges).values({
    challenge,
    purpose,
    userId,
    expiresAt: sql`now() + make_interval(secs => ${CHALLENGE_SECONDS})`,
  });
}

/**
 * Takes the challenge an answer names: it is deleted whatever follows, so no answer is checked twice
 * against it. Answers whether it was live, of this purpose and, unless passwordless, for this user.
 */
async function takeChallenge(
  db: Db | Tx,
  challenge: string,
  purpose: ChallengePurpose,
  userId: number | null,
): Promise<boolean> {
  const taken = await db
    .delete(webauthnChallenges)
    .where(eq(webauthnChallenges.challenge, challenge))
    .returning({
      purpose: webauthnChallenges.purpose,
      userId: webauthnChallenges.userId,
      live: sql<boolean>`${webauthnChallenges.expiresAt} > now()`,
    });
  const row = taken[0];
  return Boolean(row?.live) && row?.purpose === purpose && row.userId === userId;
}

// ---- reading what the browser sent ------------------------------------------------------------------

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * The browser's answer (a form field holding its JSON) when it has the shape of one, with the challenge
 * its client data names; undefined for anything else.
 */
function parseAnswer(raw: unknown, kind: 'attestation' | 'assertion') {
  if (typeof raw !== 'string' || raw.length > 16_384) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !isText(value.id) || !isText(value.rawId) || value.type !== 'public-key')
    return undefined;
  const response = value.response;
  if (!isObject(response) || !isText(response.clientDataJSON)) return undefined;
  if (kind === 'attestation' && !isText(response.attestationObject)) return undefined;
  if (kind === 'assertion' && (!isText(response.authenticatorData) || !isText(response.signature)))
    return undefined;
  if (!isoBase64URL.isBase64URL(value.id) || !isoBase64URL.isBase64URL(response.clientDataJSON))
    return undefined;
  let challenge: unknown;
  try {
    challenge = JSON.parse(isoBase64URL.toUTF8String(response.clientDataJSON)).challenge;
  } catch {
    return undefined;
  }
  if (!isText(challenge) || challenge.length > 512) return undefined;
  if (!isObject(value.clientExtensionResults)) value.clientExtensionResults = {};
  return { answer: value, credentialId: value.id, challenge };
}

// ---- enrolling -------------------------------------------------------------------------------------

/** The user handle an authenticator keeps beside the account: the same for every passkey of a user, no e-mail in it. */
const userHandle = (userId: number) =>
  new Uint8Array(createHash('sha256').update(`uvtrace user ${userId}`).digest().subarray(0, 16));

/** What navigator.credentials.create needs to make a passkey for the user (after their re-authentication). */
export async function registrationOptions(
  db: Db,
  webauthn: WebauthnConfig,
  user: { id: number; email: string; name: string },
) {
  const existing = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  const options = await generateRegistrationOptions({
    rpName: webauthn.rpName,
    rpID: webauthn.rpId,
    userName: user.email,
    userDisplayName: user.name,
    userID: userHandle(user.id),
    attestationType: 'none',
    // The same authenticator twice is refused by the browser itself.
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId,
      transports: row.transports as Transports,
    })),
    // Discoverable where the authenticator can (passwordless sign-in); a plain security key still serves
    // as a second factor.
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await storeChallenge(db, options.challenge, 'registration', user.id);
  return options;
}

export interface VerifiedPasskey {
  credentialId: string;
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

/**
 * Verifies a new passkey's answer against a registration challenge of the user (taken by it, whatever
 * the outcome); undefined when it does not verify.
 */
export async function verifyEnrolment(
  db: Db,
  webauthn: WebauthnConfig,
  userId: number,
  raw: unknown,
): Promise<VerifiedPasskey | undefined> {
  const parsed = parseAnswer(raw, 'attestation');
  if (!parsed || !(await takeChallenge(db, parsed.challenge, 'registration', userId))) return undefined;
  try {
    const verified = await verifyRegistrationResponse({
      response: parsed.answer as unknown as RegistrationResponseJSON,
      expectedChallenge: parsed.challenge,
      expectedOrigin: webauthn.origin,
      expectedRPID: webauthn.rpId,
      // The password stands before it; a security key without a PIN is a fine second factor.
      requireUserVerification: false,
    });
    if (!verified.verified) return undefined;
    const { credential } = verified.registrationInfo;
    const answered = parsed.answer.response as Record<string, unknown>;
    const transports = (Array.isArray(answered.transports) ? answered.transports : []).filter(
      (transport): transport is string => typeof transport === 'string' && TRANSPORTS.has(transport),
    );
    return {
      credentialId: credential.id,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports,
    };
  } catch {
    return undefined;
  }
}

/** Stores a verified passkey under its name; undefined when that credential is stored already. */
export async function storePasskey(
  tx: Tx,
  userId: number,
  passkey: VerifiedPasskey,
  name: string,
): Promise<PasskeyRow | undefined> {
  const inserted = await tx
    .insert(passkeys)
    .values({
      userId,
      credentialId: passkey.credentialId,
      publicKey: Buffer.from(passkey.publicKey),
      counter: passkey.counter,
      transports: passkey.transports,
      name,
    })
    .onConflictDoNothing()
    .returning({
      id: passkeys.id,
      name: passkeys.name,
      transports: passkeys.transports,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    });
  return inserted[0];
}

// ---- using one -------------------------------------------------------------------------------------

/**
 * What navigator.credentials.get needs: for a known user, their passkeys (second factor, re-authentication);
 * for a passwordless sign-in, none named (the browser offers the discoverable ones it has).
 */
export async function authenticationOptions(
  db: Db,
  webauthn: WebauthnConfig,
  purpose: Exclude<ChallengePurpose, 'registration'>,
  userId: number | null,
) {
  const allowed =
    userId === null
      ? []
      : await db
          .select({ id: passkeys.credentialId, transports: passkeys.transports })
          .from(passkeys)
          .where(eq(passkeys.userId, userId));
  const options = await generateAuthenticationOptions({
    rpID: webauthn.rpId,
    allowCredentials: allowed.map((row) => ({
      id: row.id,
      transports: row.transports as Transports,
    })),
    userVerification: purpose === 'passwordless' ? 'required' : 'preferred',
    timeout: CHALLENGE_SECONDS * 1000,
  });
  await storeChallenge(db, options.challenge, purpose, userId);
  return options;
}

export type AssertionCheck =
  | { ok: true; userId: number; passkey: { id: number; name: string } }
  /** userId: the owner of the credential the answer named, when it is one of ours. */
  | { ok: false; userId: number | null };

/**
 * Checks a passkey's answer: a live challenge of this purpose (for `userId`, or passwordless when null),
 * taken by this answer; a credential of that user (any user's, passwordless); a signature by its key
 * over this origin and RP id; a signature counter past the one stored (when the authenticator keeps
 * one). A passwordless answer must also say the user was verified (PIN, biometrics). On success the
 * counter and the time of use are stored.
 */
export async function checkAssertion(
  db: Db,
  webauthn: WebauthnConfig,
  purpose: Exclude<ChallengePurpose, 'registration'>,
  raw: unknown,
  userId: number | null,
): Promise<AssertionCheck> {
  const parsed = parseAnswer(raw, 'assertion');
  if (!parsed) return { ok: false, userId: null };
  return db.transaction(async (tx) => {
    const challengeOk = await takeChallenge(tx, parsed.challenge, purpose, userId);
    const [stored] = await tx
      .select()
      .from(passkeys)
      .where(eq(passkeys.credentialId, parsed.credentialId))
      .for('update');
    const owner = stored?.userId ?? null;
    // Another user's passkey never answers for this one.
    if (!stored || !challengeOk || (userId !== null && stored.userId !== userId))
      return { ok: false, userId: owner };
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response: parsed.answer as unknown as AuthenticationResponseJSON,
        expectedChallenge: parsed.challenge,
        expectedOrigin: webauthn.origin,
        expectedRPID: webauthn.rpId,
        credential: {
          id: stored.credentialId,
          publicKey: new Uint8Array(stored.publicKey),
          counter: stored.counter,
          transports: stored.transports as Transports,
        },
        requireUserVerification: purpose === 'passwordless',
      });
    } catch {
      // A wrong signature, origin, RP id or type, or a counter that did not move forward.
      return { ok: false, userId: owner };
    }
    if (!verified.verified) return { ok: false, userId: owner };
    await tx
      .update(passkeys)
      .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: sql`now()` })
      .where(eq(passkeys.id, stored.id));
    return { ok: true, userId: stored.userId, passkey: { id: stored.id, name: stored.name } };
  });
}

// ---- naming and removing ---------------------------------------------------------------------------

/** Renames one of the user's passkeys; answers its old name, or null when it is not theirs. */
export async function renamePasskey(
  tx: Tx,
  userId: number,
  id: number,
  name: string,
): Promise<string | null> {
  const [before] = await tx
    .select({ name: passkeys.name })
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .for('update');
  if (!before) return null;
  await tx.update(passkeys).set({ name }).where(eq(passkeys.id, id));
  return before.name;
}

/** Removes one of the user's passkeys; answers its name, or null when it is not theirs. */
export async function removePasskey(tx: Tx, userId: number, id: number): Promise<string | null> {
  const [removed] = await tx
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ name: passkeys.name });
  return removed?.name ?? null;
}

/** Removes every passkey of the user (a SUPER_ADMIN's reset); answers how many there were. */
export async function removePasskeys(tx: Tx, userId: number): Promise<number> {
  const removed = await tx.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, userId));
  return removed.length;
}
