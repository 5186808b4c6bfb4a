/**
 * A sterilization record as a leaf of a block: the columns the leaf is made of, the query shape that
 * reads them, and the one place where the worker turns a record into its leaf and says which
 * hashing_version its blocks are made with (docs/integrity.md).
 */
import { sql } from 'drizzle-orm';
import { type SterilizationRow, TOKEN_SHA256_SQL } from '#server/modules/sterilizations/index.ts';
import { HASHING_VERSION, type IntegrityRecord, leafBytes } from '#shared/integrity/index.ts';

/**
 * The record columns the leaf is made of (the list's row type, so the two never drift apart), and the
 * token's digest, which a list row does not read.
 */
export type RecordRow = { token_sha256: string | null } & Pick<
  SterilizationRow,
  | 'id'
  | 'received_ts'
  | 'device_serial'
  | 'progressive_id'
  | 'supplied_energy'
  | 'nominal_time'
  | 'effective_time'
  | 'residual_lamp_life'
  | 'status_code'
  | 'latitude'
  | 'longitude'
  | 'consumables_lot'
  | 'lot_progressive_id'
  | 'notes'
  | 'created_at'
  | 'token_position'
  | 'cycle_ts'
>;

/**
 * The 14 integrity fields of records, joined with their device, and their evidence (the one query
 * shape of leaves). The token's hash is read by its key, so every query of this shape keeps its joins.
 */
export const RECORD_FIELDS_SQL = sql`s.id, s.received_ts, d.device_serial, s.progressive_id, s.supplied_energy,
  s.nominal_time, s.effective_time, s.residual_lamp_life, s.status_code, s.latitude, s.longitude,
  s.consumables_lot, s.lot_progressive_id, s.notes,
  ${TOKEN_SHA256_SQL} as token_sha256, s.token_position, s.cycle_ts`;

export function integrityRecord(row: Omit<RecordRow, 'created_at'>): IntegrityRecord {
  return {
    id: String(row.id),
    received_ts: row.received_ts,
    device_serial: row.device_serial,
    progressive_id: row.progressive_id,
    supplied_energy: row.supplied_energy,
    nominal_time: row.nominal_time,
    effective_time: row.effective_time,
    residual_lamp_life: row.residual_lamp_life,
    status_code: row.status_code,
    latitude: row.latitude,
    longitude: row.longitude,
    consumables_lot: row.consumables_lot,
    lot_progressive_id: row.lot_progressive_id,
    notes: row.notes,
    token_sha256: row.token_sha256,
    token_position: row.token_position,
    cycle_ts: row.cycle_ts,
  };
}

/** The hashing_version new blocks are made with: stored on the block row and on each of its records. */
export const BLOCK_HASHING_VERSION = HASHING_VERSION;

/** A record's leaf in a new block (hashed with BLOCK_HASHING_VERSION). */
export function blockLeaf(row: Omit<RecordRow, 'created_at'>): Uint8Array {
  return leafBytes(integrityRecord(row), BLOCK_HASHING_VERSION);
}
