/**
 * Device ingestion: a device posts its cycle records as a compact RS256 JWT signed with its own private
 * key. The token is checked before anything is stored: unsupported_algorithm; invalid_token for a token
 * that is not a JWT, names an unknown or disabled device or one without a key, or is signed by none of
 * its keys (one answer, so a stranger learns nothing of the fleet: HiddenRefusal logs the reason);
 * key_replaced / key_revoked (signed with a key the device no longer has); token_expired,
 * token_not_yet_valid (after a good signature); record fields → 422. The accepted token is kept verbatim with
 * its records (docs/integrity.md, "What the device signed").
 * Storing is idempotent per (device, progressive_id), and batch usage moves in the same statement
 * (record-writer.ts, which stores the records of concurrent requests together).
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  compactVerify,
  decodeJwt,
  decodeProtectedHeader,
  importSPKI,
  errors as joseErrors,
  jwtVerify,
} from 'jose';
import type { Db } from '#server/db/client.ts';
import { errorCauses } from '#server/db/error-causes.ts';
import { ApiError, validationFailed } from '#server/http/envelope.ts';
import {
  CLOCK_SKEW_SECONDS,
  ingestionRecordsSchema,
  MAX_TOKEN_LIFETIME_SECONDS,
  recordsOf,
  type SterilizationClaim,
} from '#shared/ingestion/claims.ts';
import { validateForm } from '#shared/validation/index.ts';
import { ensureKeyEvents, formerKeys } from '../devices/index.ts';
import type { RecordWriter } from './record-writer.ts';

type DeviceKeys = {
  id: number;
  deleted_at: Date | null;
  public_key: string | null;
  public_key_2: string | null;
  key_event_1: number | null;
  key_event_2: number | null;
};

/** A slot holds a key but no event names it: the key was stored without its history (key-history.ts). */
const lacksKeyEvent = (device: DeviceKeys) =>
  (device.public_key !== null && device.key_event_1 === null) ||
  (device.public_key_2 !== null && device.key_event_2 === null);

const refuse = (message: string, status = 401) => new ApiError(status, message);

/**
 * A refusal that must not tell a stranger which serials exist or what state a device is in (unknown,
 * disabled, without a key, or a signature by none of its keys): the device is answered `invalid_token`
 * like any bad token, and the precise reason goes to the server's log (docs/product.md §7).
 */
export class HiddenRefusal extends ApiError {
  readonly reason: string;
  readonly serial: string;
  constructor(reason: string, serial: string) {
    super(401, 'invalid_token');
    this.reason = reason;
    this.serial = serial;
  }
}

function unverifiedIssuer(token: string): string {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let claims: ReturnType<typeof decodeJwt>;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    throw refuse('invalid_token');
  }
  if (header.alg !== 'RS256') throw refuse('unsupported_algorithm');
  if (typeof claims.iss !== 'string' || claims.iss.length === 0) throw refuse('invalid_token');
  // No serial holds a NUL, and PostgreSQL text cannot even be compared with one.
  if (claims.iss.includes('\u0000')) throw new HiddenRefusal('unknown_device', '');
  return claims.iss;
}

/**
 * Imported public keys by their PEM text: parsing a key costs more than the signature check it
 * serves, and a device sends many tokens. Keyed by the text itself, so a replaced key is simply
 * another entry; bounded, forgotten in bulk when full.
 */
const importedKeys = new Map<string, Promise<CryptoKey>>();
const MAX_IMPORTED_KEYS = 10_000;
function importDeviceKey(pem: string): Promise<CryptoKey> {
  let key = importedKeys.get(pem);
  if (!key) {
    if (importedKeys.size >= MAX_IMPORTED_KEYS) importedKeys.clear();
    key = importSPKI(pem, 'RS256');
    // A text that does not import is not kept: each token carrying it fails on its own.
    key.catch(() => importedKeys.delete(pem));
    importedKeys.set(pem, key);
  }
  return key;
}

const verifyOptions = (serial: string) => ({
  algorithms: ['RS256'],
  issuer: serial,
  requiredClaims: ['iat', 'exp', 'iss'],
  clockTolerance: CLOCK_SKEW_SECONDS,
  maxTokenAge: MAX_TOKEN_LIFETIME_SECONDS,
});

/** The verified claims, and the key event of the slot whose key verified them. */
type Verified = { payload: Awaited<ReturnType<typeof jwtVerify>>['payload']; keyEventId: number };

async function verifyWithDeviceKeys(token: string, serial: string, device: DeviceKeys): Promise<Verified> {
  const slots = [
    { pem: device.public_key, keyEventId: device.key_event_1 },
    { pem: device.public_key_2, keyEventId: device.key_event_2 },
  ].filter(
    (slot): slot is { pem: string; keyEventId: number } => Boolean(slot.pem) && slot.keyEventId !== null,
  );
  if (slots.length === 0) throw new HiddenRefusal('device_has_no_key', serial);
  let lastError: unknown;
  for (const { pem, keyEventId } of slots) {
    try {
      const key = await importDeviceKey(pem);
      const { payload } = await jwtVerify(token, key, verifyOptions(serial));
      if (typeof payload.exp === 'number' && typeof payload.iat === 'number') {
        if (payload.exp - payload.iat > MAX_TOKEN_LIFETIME_SECONDS) throw refuse('token_lifetime_too_long');
      }
      return { payload, keyEventId };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      lastError = error;
      // A signature made with the other registered key (during key rotation) is tried next.
      if (error instanceof joseErrors.JWSSignatureVerificationFailed) continue;
      break;
    }
  }
  if (lastError instanceof joseErrors.JWTExpired) throw refuse('token_expired');
  if (lastError instanceof joseErrors.JWTClaimValidationFailed) {
    throw refuse(
      lastError.claim === 'iat' || lastError.claim === 'nbf' ? 'token_not_yet_valid' : 'invalid_token',
    );
  }
  if (lastError instanceof joseErrors.JWSSignatureVerificationFailed)
    throw new HiddenRefusal('invalid_signature', serial);
  throw refuse('invalid_token');
}

/**
 * Why a signature that no key in force verifies is refused: signed with a key this device once had
 * (replaced or removed: `key_replaced`; revoked: `key_revoked`), or with none of its keys. Only the
 * holder of a key that was registered can learn the first two.
 */
async function refusedSignature(db: Db, token: string, device: DeviceKeys): Promise<ApiError | null> {
  for (const former of await formerKeys(db, device.id)) {
    try {
      await compactVerifyWith(token, former.publicKey);
      return refuse(former.ended === 'revoked' ? 'key_revoked' : 'key_replaced');
    } catch {
      // Not this key: the next former one.
    }
  }
  return null;
}

async function compactVerifyWith(token: string, pem: string): Promise<void> {
  await compactVerify(token, await importDeviceKey(pem), { algorithms: ['RS256'] });
}

/**
 * yup looks a record's keys up among its fields on a plain object, so a key such as "constructor" or
 * "__proto__" finds Object.prototype's member and crashes it: such a key is refused like any unknown one.
 */
function inheritedKeyErrors(records: unknown): Record<string, string[]> | null {
  if (!Array.isArray(records)) return null;
  const errors: Record<string, string[]> = {};
  records.forEach((record, i) => {
    if (
      typeof record === 'object' &&
      record !== null &&
      Object.keys(record).some((key) => key in Object.prototype)
    )
      errors[`[${i}]`] = ['ingest.invalid.unknown_field'];
  });
  return Object.keys(errors).length > 0 ? errors : null;
}

/** A device's objects-as-notes become empty text, as the spec shows them. */
function normalizeNotes(records: unknown): unknown {
  if (!Array.isArray(records)) return records;
  return records.map((record) =>
    typeof record === 'object' && record !== null && typeof (record as { notes?: unknown }).notes === 'object'
      ? { ...record, notes: null }
      : record,
  );
}

/**
 * `onStored` hears the ids of the stored records once the answer's data is ready; it must return at
 * once and never throw (the alert evaluation queues them: src/server/modules/alerts/service.ts).
 */
async function findDevice(db: Db, serial: string): Promise<DeviceKeys | undefined> {
  const devices = await db.execute<DeviceKeys>(
    sql`select id, deleted_at, public_key, public_key_2, key_event_1, key_event_2 from devices where device_serial = ${serial}`,
  );
  return devices.rows[0];
}

/** The store refused the token because its key left the slot after the signature was checked. */
const isKeyNoLongerInForce = (error: unknown) =>
  [...errorCauses(error)].some((level) => level.code === '28000');

export async function ingest(
  db: Db,
  writer: RecordWriter,
  token: string,
  onStored?: (recordIds: number[]) => void,
) {
  const serial = unverifiedIssuer(token);
  let device = await findDevice(db, serial);
  if (!device) throw new HiddenRefusal('unknown_device', serial);
  if (device.deleted_at) throw new HiddenRefusal('device_disabled', serial);
  if (lacksKeyEvent(device)) {
    await ensureKeyEvents(db, device.id);
    device = (await findDevice(db, serial)) as DeviceKeys;
  }
  let verified: Verified;
  try {
    verified = await verifyWithDeviceKeys(token, serial, device);
  } catch (error) {
    // Signed by a key the device once had (a device whose keys were all revoked has none left): only
    // that key's holder can make such a token, so it is told why.
    if (error instanceof HiddenRefusal) throw (await refusedSignature(db, token, device)) ?? error;
    throw error;
  }
  const claims = verified.payload;
  const sent = normalizeNotes(recordsOf(claims));
  const inherited = inheritedKeyErrors(sent);
  if (inherited) throw validationFailed(inherited);
  const form = await validateForm(ingestionRecordsSchema, sent);
  if (!form.ok) throw validationFailed(form.errors);
  const records = form.value as SterilizationClaim[];
  const progressiveIds = new Set(records.map((record) => record.progressive_id));
  if (progressiveIds.size !== records.length) {
    throw validationFailed({ sterilizations: ['ingest.invalid.duplicate_progressive_id'] });
  }
  const { stored, answer } = await writer
    .write({
      deviceId: device.id,
      records,
      token: {
        jws: token,
        sha256: createHash('sha256').update(token, 'ascii').digest('hex'),
        issuedAt: Number(claims.iat),
        keyEventId: verified.keyEventId,
      },
    })
    .catch((error: unknown) => {
      if (isKeyNoLongerInForce(error)) throw refuse('key_replaced');
      throw error;
    });
  onStored?.(stored.map((record) => record.id));
  return answer;
}
