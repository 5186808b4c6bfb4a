/**
 * A passkey in the tests: a software authenticator with an ES256 (P-256) key from node:crypto that
 * answers the server's options as a browser and authenticator would — clientDataJSON, authenticator
 * data, an attestation object of format `none` in CBOR, an ECDSA signature — so that the server's
 * WebAuthn verification runs on real answers. Any part of an answer can be made wrong on purpose (the
 * origin, the RP id, the counter) to test the attacks.
 */
import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { DEMO_PASSWORD } from './accounts.ts';
import { formBody, type TestApp } from './test-app.ts';

// ---- CBOR (RFC 8949), the little of it an attestation object needs ----------------------------------

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

// ---- the authenticator -----------------------------------------------------------------------------

export interface Ceremony {
  /** The origin the browser reports (default: the app's WEBAUTHN origin). */
  origin?: string;
  /** The RP id whose hash opens the authenticator data (default: the options' or the app's). */
  rpId?: string;
  /** The signature counter to report; default: one more than the last. */
  counter?: number;
  /** Whether the authenticator says it verified its user (PIN, biometrics); default true. */
  userVerified?: boolean;
  /** Another challenge than the options' (a replay of an older answer is made by keeping an answer). */
  challenge?: string;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export class SoftPasskey {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private userHandle: string | undefined;
  counter = 0;

  private readonly defaults: { origin: string; rpId: string };
  /** An authenticator without a counter always reports 0. */
  private readonly keepsCounter: boolean;

  constructor(defaults: { origin: string; rpId: string }, keepsCounter = true) {
    this.defaults = defaults;
    this.keepsCounter = keepsCounter;
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The clientDataJSON a browser makes for this ceremony. */
  private clientData(type: string, options: { challenge: string }, ceremony: Ceremony): Buffer {
    const challenge = ceremony.challenge ?? options.challenge;
    const origin = ceremony.origin ?? this.defaults.origin;
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The PublicKeyCredential's JSON, as @simplewebauthn/browser hands it to the app. */
  private credential(response: Record<string, unknown>): string {
    return JSON.stringify({
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response,
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    });
  }

  /** The public key as the authenticator registers it (a COSE key). */
  coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
  }

  private nextCounter(ceremony: Ceremony): number {
    if (ceremony.counter !== undefined) return ceremony.counter;
    if (!this.keepsCounter) return 0;
    this.counter += 1;
    return this.counter;
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** The browser's answer to navigator.credentials.create with these options (attestation `none`). */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    ceremony: Ceremony = {},
  ) {
    this.userHandle = options.user.id;
    const rpId = ceremony.rpId ?? options.rp.id ?? this.defaults.rpId;
    const counter = this.nextCounter(ceremony);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    const flags = FLAG_UP | FLAG_AT | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authData(rpId, flags, counter, attested);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return this.credential({
      clientDataJSON: b64url(this.clientData('webauthn.create', options, ceremony)),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    });
  }

  /** The browser's answer to navigator.credentials.get with these options, signed by this passkey. */
  assert(options: { challenge: string; rpId?: string }, ceremony: Ceremony = {}) {
    const rpId = ceremony.rpId ?? options.rpId ?? this.defaults.rpId;
    const flags = FLAG_UP | (ceremony.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authData(rpId, flags, this.nextCounter(ceremony));
    const clientDataJSON = this.clientData('webauthn.get', options, ceremony);
    const signature = createSign('SHA256')
      .update(Buffer.concat([authData, sha256(clientDataJSON)]))
      .sign(this.privateKey);
    return this.credential({
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      ...(this.userHandle ? { userHandle: this.userHandle } : {}),
    });
  }
}

/** A passkey for this app's relying party. */
export const softPasskey = (t: TestApp, keepsCounter = true) =>
  new SoftPasskey({ origin: t.config.webauthn.origin, rpId: t.config.webauthn.rpId }, keepsCounter);

/**
 * Enrols a new passkey for the session's user through the API (the password, and `proof` when the user
 * has a second factor already); answers the passkey and its id.
 */
export async function enrolPasskey(
  t: TestApp,
  token: string,
  name = 'Test key',
  proof: Record<string, string> = {},
): Promise<{ passkey: SoftPasskey; id: number }> {
  const start = await t.as(token, {
    method: 'POST',
    url: '/api/v1/auth/me/passkeys/options',
    ...formBody({ current_password: DEMO_PASSWORD, ...proof }),
  });
  if (start.statusCode !== 200) throw new Error(`passkey options: ${start.statusCode} ${start.body}`);
  const passkey = softPasskey(t);
  const done = await t.as(token, {
    method: 'POST',
    url: '/api/v1/auth/me/passkeys',
    ...formBody({ name, credential: passkey.register(start.json().data) }),
  });
  if (done.statusCode !== 200) throw new Error(`passkey enrol: ${done.statusCode} ${done.body}`);
  return { passkey, id: done.json().data.id };
}

/**
 * Gives the user a passkey straight in the database (as an enrolment would store it); answers it and
 * its id. For tests that need a user with a passkey without going through the enrolment.
 */
export async function givePasskey(
  t: TestApp,
  userId: number,
  name = 'Given key',
): Promise<{ passkey: SoftPasskey; id: number }> {
  const passkey = softPasskey(t);
  const { storePasskey } = await import('../security/passkeys.ts');
  const stored = { credentialId: passkey.id, publicKey: passkey.coseKey(), counter: 0, transports: [] };
  const row = await t.database.db.transaction((tx) => storePasskey(tx, userId, stored, name));
  if (!row) throw new Error('passkey not stored');
  return { passkey, id: row.id };
}

/** A registration challenge for the user, as startPasskeyEnrolment makes it, answered by a new passkey. */
export async function registrationAnswer(t: TestApp, userId: number): Promise<string> {
  const { registrationOptions } = await import('../security/passkeys.ts');
  const user = { id: userId, email: `user-${userId}@example.com`, name: `User ${userId}` };
  return softPasskey(t).register(await registrationOptions(t.database.db, t.config.webauthn, user));
}

/**
 * A challenge of this purpose (for the user, or passwordless when null), as the options calls make it,
 * answered by the passkey.
 */
export async function assertionAnswer(
  t: TestApp,
  passkey: SoftPasskey,
  purpose: 'second_factor' | 'passwordless' | 'reauth',
  userId: number | null,
): Promise<string> {
  const { authenticationOptions } = await import('../security/passkeys.ts');
  return passkey.assert(await authenticationOptions(t.database.db, t.config.webauthn, purpose, userId));
}
