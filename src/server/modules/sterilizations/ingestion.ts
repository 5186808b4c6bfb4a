/**
 * Device ingestion: a device posts its cycle records as a compact RS256 JWT signed with its own private
 * key. The token is checked before anything is stored, each failure with its own message:
 * unsupported_algorithm, invalid_token (not a JWT / bad claims shape), unknown_device, device_disabled,
 * device_has_no_key, invalid_signature, token_expired, token_not_yet_valid; record fields → 422.
 * Storing is idempotent per (device, progressive_id), and batch usage moves in the same transaction.
 */
import { sql } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, importSPKI, errors as joseErrors, jwtVerify } from 'jose';
import {
  CLOCK_SKEW_SECONDS,
  DEFAULT_BATCH_QUANTITY,
  ingestionRecordsSchema,
  MAX_TOKEN_LIFETIME_SECONDS,
  recordsOf,
  type SterilizationClaim,
} from '../../../shared/ingestion/claims.ts';
import { validateForm } from '../../../shared/validation/index.ts';
import type { Db, Tx } from '../../db/client.ts';
import { ApiError, validationFailed } from '../../http/envelope.ts';
import {
  STERILIZATION_FROM,
  STERILIZATION_SELECT,
  type SterilizationRow,
  sterilizationView,
} from './view.ts';

type DeviceKeys = {
  id: number;
  deleted_at: Date | null;
  public_key: string | null;
  public_key_2: string | null;
};

const refuse = (message: string, status = 401) => new ApiError(status, message);

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
  if (claims.iss.includes('\u0000')) throw refuse('unknown_device');
  return claims.iss;
}

async function verifyWithDeviceKeys(token: string, serial: string, device: DeviceKeys) {
  const keys = [device.public_key, device.public_key_2].filter((key): key is string => Boolean(key));
  if (keys.length === 0) throw refuse('device_has_no_key');
  let lastError: unknown;
  for (const pem of keys) {
    try {
      const key = await importSPKI(pem, 'RS256');
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['RS256'],
        issuer: serial,
        requiredClaims: ['iat', 'exp', 'iss'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        maxTokenAge: MAX_TOKEN_LIFETIME_SECONDS,
      });
      if (typeof payload.exp === 'number' && typeof payload.iat === 'number') {
        if (payload.exp - payload.iat > MAX_TOKEN_LIFETIME_SECONDS) throw refuse('token_lifetime_too_long');
      }
      return payload;
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
  if (lastError instanceof joseErrors.JWSSignatureVerificationFailed) throw refuse('invalid_signature');
  throw refuse('invalid_token');
}

/**
 * Stores one record and counts it in its consumable batch in one statement (atomic by itself, and one
 * round trip: on the single embedded connection every statement is queued). A record sent before is
 * not stored again and not counted twice: its stored id is the answer. The record's owner (and its
 * batch's) is the device's customer as this statement reads it, so it is the owner at reception and a
 * later reassignment never moves it (docs/decisions.md, "Record owner").
 */
async function storeRecord(db: Db | Tx, deviceId: number, record: SterilizationClaim): Promise<number> {
  const { consumables_lot: lot, lot_progressive_id: lotProgressive } = record;
  const counted =
    lot && lotProgressive !== null && lotProgressive !== undefined
      ? sql`, counted as (
          insert into consumable_batches (device_id, customer_id, lot_code, lot_progressive, batch_quantity,
            sterilization_count)
          select ${deviceId}, stored.customer_id, ${lot}, ${lotProgressive},
            ${record.batch_quantity ?? DEFAULT_BATCH_QUANTITY}, 1
          from stored
          on conflict (device_id, customer_id, lot_code, lot_progressive)
          do update set sterilization_count = consumable_batches.sterilization_count + 1, updated_at = now())`
      : sql``;
  const inserted = await db.execute<{ id: string }>(sql`
    with stored as (
      insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
        effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes)
      select d.id, d.customer_id, now(), ${record.progressive_id}, ${record.supplied_energy}, ${record.nominal_time},
        ${record.effective_time}, ${record.residual_lamp_life}, ${record.status_code}, ${record.latitude ?? null},
        ${record.longitude ?? null}, ${lot ?? null}, ${lotProgressive ?? null}, ${record.notes ?? null}
      from devices d where d.id = ${deviceId}
      on conflict (device_id, progressive_id) do nothing
      returning id, customer_id)${counted}
    select id from stored`);
  const id = inserted.rows[0]?.id;
  if (id !== undefined) return Number(id);
  // Sent before: the stored record is the answer (read by a statement of its own, whose snapshot also
  // sees a copy that a concurrent request committed while this one waited on it).
  const existing = await db.execute<{ id: string }>(
    sql`select id from sterilizations where device_id = ${deviceId} and progressive_id = ${record.progressive_id}`,
  );
  return Number(existing.rows[0]?.id);
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

export async function ingest(db: Db, token: string) {
  const serial = unverifiedIssuer(token);
  const devices = await db.execute<DeviceKeys>(
    sql`select id, deleted_at, public_key, public_key_2 from devices where device_serial = ${serial}`,
  );
  const device = devices.rows[0];
  if (!device) throw refuse('unknown_device');
  if (device.deleted_at) throw refuse('device_disabled', 403);
  const claims = await verifyWithDeviceKeys(token, serial, device);
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
  // One record is one statement; several are stored all or none.
  const ids =
    records.length === 1
      ? [await storeRecord(db, device.id, records[0] as SterilizationClaim)]
      : await db.transaction(async (tx) => {
          const stored: number[] = [];
          for (const record of records) stored.push(await storeRecord(tx, device.id, record));
          return stored;
        });
  const rows = await db.execute<SterilizationRow>(
    sql`select ${STERILIZATION_SELECT} from ${STERILIZATION_FROM} where s.id in ${sql.raw(`(${ids.join(',')})`)} order by s.progressive_id`,
  );
  return rows.rows.map(sterilizationView);
}
