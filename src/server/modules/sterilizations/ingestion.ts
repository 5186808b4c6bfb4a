/**
 * Device ingestion: a device posts its cycle records as a compact RS256 JWT signed with its own private
 * key. The token is checked before anything is stored, each failure with its own message:
 * unsupported_algorithm, invalid_token (not a JWT / bad claims shape), unknown_device, device_disabled,
 * device_has_no_key, invalid_signature, token_expired, token_not_yet_valid; record fields → 422.
 * Storing is idempotent per (device, progressive_id), and batch usage moves in the same transaction.
 */
import { sql } from 'drizzle-orm';
import { decodeJwt, decodeProtectedHeader, importSPKI, errors as joseErrors, jwtVerify } from 'jose';
import type { Db } from '#server/db/client.ts';
import { publishEvent } from '#server/events/publish.ts';
import { ApiError, validationFailed } from '#server/http/envelope.ts';
import {
  CLOCK_SKEW_SECONDS,
  DEFAULT_BATCH_QUANTITY,
  ingestionRecordsSchema,
  MAX_TOKEN_LIFETIME_SECONDS,
  recordsOf,
  type SterilizationClaim,
} from '#shared/ingestion/claims.ts';
import { validateForm } from '#shared/validation/index.ts';
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
 *
 * The device row is locked before the record goes in, and held to the end of the transaction: records
 * of one device are stored one request after the other. The trigger that keeps the device's gaps
 * (migration 0007) locks its progress row after the insert; without this lock first, a token of
 * records [5, 4] and a concurrent token [4] could each hold what the other waits for (a deadlock).
 */
/** A stored record: its id, and its owner when this request stored it (null: it was sent before). */
type StoredRecord = { id: number; newOwner: number | null };

async function storeRecord(db: Db, deviceId: number, record: SterilizationClaim): Promise<StoredRecord> {
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
  const inserted = await db.execute<{ id: string; customer_id: number }>(sql`
    with stored as (
      insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
        effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes)
      select d.id, d.customer_id, now(), ${record.progressive_id}, ${record.supplied_energy}, ${record.nominal_time},
        ${record.effective_time}, ${record.residual_lamp_life}, ${record.status_code}, ${record.latitude ?? null},
        ${record.longitude ?? null}, ${lot ?? null}, ${lotProgressive ?? null}, ${record.notes ?? null}
      from devices d where d.id = ${deviceId}
      for no key update
      on conflict (device_id, progressive_id) do nothing
      returning id, customer_id)${counted}
    select id, customer_id from stored`);
  const row = inserted.rows[0];
  if (row) return { id: Number(row.id), newOwner: Number(row.customer_id) };
  // Sent before: the stored record is the answer (read by a statement of its own, whose snapshot also
  // sees a copy that a concurrent request committed while this one waited on it).
  const existing = await db.execute<{ id: string }>(
    sql`select id from sterilizations where device_id = ${deviceId} and progressive_id = ${record.progressive_id}`,
  );
  return { id: Number(existing.rows[0]?.id), newOwner: null };
}

/**
 * Stores the records of one token and counts them in their consumable batches in one statement: all or
 * none (a statement is atomic), and one round trip whatever the number of records. Row locks (the
 * batch rows, the owner's daily count the insert trigger moves) are held for that statement only,
 * where a transaction of one statement per record held them across all its round trips and so queued
 * every other token of the same customer behind it. Records sent before are not stored or counted
 * again; their stored ids are the answer, as in storeRecord. Returns ids in the records' order.
 */
async function storeRecords(
  db: Db,
  deviceId: number,
  records: SterilizationClaim[],
): Promise<StoredRecord[]> {
  const rows = records.map((record, ord) => ({
    ord,
    progressive_id: record.progressive_id,
    supplied_energy: record.supplied_energy,
    nominal_time: record.nominal_time,
    effective_time: record.effective_time,
    residual_lamp_life: record.residual_lamp_life,
    status_code: record.status_code,
    latitude: record.latitude ?? null,
    longitude: record.longitude ?? null,
    consumables_lot: record.consumables_lot ?? null,
    lot_progressive_id: record.lot_progressive_id ?? null,
    notes: record.notes ?? null,
    batch_quantity: record.batch_quantity ?? DEFAULT_BATCH_QUANTITY,
    // The same rule as storeRecord's: a record counts in a batch when it names a lot and its progressive.
    counts:
      Boolean(record.consumables_lot) &&
      record.lot_progressive_id !== null &&
      record.lot_progressive_id !== undefined,
  }));
  // Numbers travel as JSON numbers (the same decimal text a parameter would carry) and are cast to the
  // columns' types by the insert, as parameters are.
  const inserted = await db.execute<{ id: string; customer_id: number; progressive_id: number }>(sql`
    with incoming as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        ord integer, progressive_id integer, supplied_energy numeric, nominal_time numeric,
        effective_time numeric, residual_lamp_life numeric, status_code integer, latitude numeric,
        longitude numeric, consumables_lot text, lot_progressive_id integer, notes text,
        batch_quantity integer, counts boolean)),
    stored as (
      insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
        effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes)
      select d.id, d.customer_id, now(), i.progressive_id, i.supplied_energy, i.nominal_time, i.effective_time,
        i.residual_lamp_life, i.status_code, i.latitude, i.longitude, i.consumables_lot, i.lot_progressive_id, i.notes
      from incoming i cross join devices d where d.id = ${deviceId}
      order by i.ord
      for no key update of d
      on conflict (device_id, progressive_id) do nothing
      returning id, customer_id, progressive_id),
    counted as (
      insert into consumable_batches (device_id, customer_id, lot_code, lot_progressive, batch_quantity,
        sterilization_count)
      -- A new batch takes the batch_quantity of its first record in the token, as one record at a time did.
      select ${deviceId}, s.customer_id, i.consumables_lot, i.lot_progressive_id,
        (array_agg(i.batch_quantity order by i.ord))[1], count(*)
      from stored s join incoming i on i.progressive_id = s.progressive_id
      where i.counts
      group by s.customer_id, i.consumables_lot, i.lot_progressive_id
      on conflict (device_id, customer_id, lot_code, lot_progressive)
      do update set sterilization_count = consumable_batches.sterilization_count + excluded.sterilization_count,
        updated_at = now())
    select id, customer_id, progressive_id from stored`);
  const ids = new Map<number, StoredRecord>(
    inserted.rows.map((row) => [
      Number(row.progressive_id),
      { id: Number(row.id), newOwner: Number(row.customer_id) },
    ]),
  );
  if (ids.size < records.length) {
    // Sent before: read by a statement of its own (see storeRecord).
    const missing = records.map((record) => record.progressive_id).filter((id) => !ids.has(id));
    const existing = await db.execute<{ id: string; progressive_id: number }>(sql`
      select id, progressive_id from sterilizations
      where device_id = ${deviceId} and progressive_id = any(${`{${missing.join(',')}}`}::integer[])`);
    for (const row of existing.rows)
      ids.set(Number(row.progressive_id), { id: Number(row.id), newOwner: null });
  }
  return records.map((record) => ids.get(record.progressive_id) as StoredRecord);
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
 * One live event per request, for the records it stored (a resent record is not news). Not awaited: the
 * device's answer never waits for it, and publishEvent never fails.
 */
function announceNewRecords(db: Db, deviceId: number, stored: StoredRecord[]): void {
  // One owner in practice; two only if the device was reassigned while its records were being stored.
  const byOwner = new Map<number, number[]>();
  for (const { id, newOwner } of stored) {
    if (newOwner !== null) byOwner.set(newOwner, [...(byOwner.get(newOwner) ?? []), id]);
  }
  for (const [customerId, recordIds] of byOwner) {
    void publishEvent(db, { type: 'record.created', customerId, deviceId, recordIds });
  }
}

/**
 * `onStored` hears the ids of the stored records once the answer's data is ready; it must return at
 * once and never throw (the alert evaluation queues them: src/server/alerts/service.ts).
 */
export async function ingest(db: Db, token: string, onStored?: (recordIds: number[]) => void) {
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
  // One statement either way; several records are stored all or none.
  const storedRecords =
    records.length === 1
      ? [await storeRecord(db, device.id, records[0] as SterilizationClaim)]
      : await storeRecords(db, device.id, records);
  announceNewRecords(db, device.id, storedRecords);
  const ids = storedRecords.map((record) => record.id);
  const rows = await db.execute<SterilizationRow>(
    // The ids as one array parameter: the same text for every answer, so a prepared statement's plan serves them all.
    sql`select ${STERILIZATION_SELECT} from ${STERILIZATION_FROM} where s.id = any(${`{${ids.join(',')}}`}::bigint[]) order by s.progressive_id`,
  );
  const stored = rows.rows.map(sterilizationView);
  onStored?.(ids);
  return stored;
}
