/** The API shape of a sterilization record (contract schema Sterilization), from one SQL row. */
import { sql } from 'drizzle-orm';
import { isoTimestamp as iso, isoTimestampOrNull as isoOrNull } from '#server/db/timestamps.ts';
import type { BlockStatus, LotStatus, Sterilization } from '#shared/api/index.ts';

export type SterilizationRow = {
  id: string | number;
  device_id: number;
  received_ts: Date | string;
  device_serial: string;
  progressive_id: number;
  arrived_out_of_order: boolean;
  supplied_energy: string;
  nominal_time: string;
  effective_time: string;
  residual_lamp_life: string;
  status_code: number;
  latitude: string | null;
  longitude: string | null;
  consumables_lot: string | null;
  lot_progressive_id: number | null;
  notes: string | null;
  created_at: Date | string;
  customer_name: string;
  customer_enable_blockchain: boolean;
  hashing_version: number | null;
  merkle_proof: string[] | null;
  block_id: number | null;
  block_status: string | null;
  block_network: string | null;
  block_transaction_hash: string | null;
  block_merkle_root: string | null;
  block_hashing_version: number | null;
  block_created_at: Date | string | null;
  block_sent_at: Date | string | null;
  block_mined_at: Date | string | null;
  block_final_at: Date | string | null;
  lot_status: LotStatus;
  cycle_ts: Date | string | null;
  clock_suspect: boolean;
  token_id: string | number | null;
  token_position: number | null;
};

/**
 * Columns and joins every query returning records uses, so the view always has what it needs. Not the
 * token's digest: reading it was a list page's dearest column (docs/benchmarks.md), and the one reader
 * that needs it, the verification window, reads the record's evidence anyway.
 */
export const STERILIZATION_SELECT = sql`
  s.id, s.device_id, s.received_ts, d.device_serial, s.progressive_id, s.arrived_out_of_order, s.supplied_energy, s.nominal_time,
  s.effective_time, s.residual_lamp_life, s.status_code, s.latitude, s.longitude, s.consumables_lot,
  s.lot_progressive_id, s.notes, s.created_at, c.name as customer_name, s.hashing_version, s.merkle_proof,
  b.id as block_id, b.status as block_status, b.network as block_network,
  b.transaction_hash as block_transaction_hash, b.merkle_root as block_merkle_root,
  b.hashing_version as block_hashing_version, b.created_at as block_created_at, b.sent_at as block_sent_at,
  b.mined_at as block_mined_at, b.final_at as block_final_at, c.enable_blockchain as customer_enable_blockchain, s.lot_status,
  s.cycle_ts, s.clock_suspect, s.token_id, s.token_position`;

/** A record's token digest (a version 3 leaf's token_sha256), read by the token's key; `s` is the record. */
export const TOKEN_SHA256_SQL = sql`(select t.sha256 from device_tokens t where t.id = s.token_id)`;

export const STERILIZATION_FROM = sql`
  sterilizations s
  join devices d on d.id = s.device_id
  join customers c on c.id = s.customer_id
  left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id`;

const num = (value: string | null) => (value === null ? null : Number(value));

/**
 * The block columns of a record in a block. Nullable in SterilizationRow only because of the left
 * join: with block_id set, the NOT NULL ones are there (status checked to the contract's values).
 */
type InBlock = SterilizationRow & {
  block_id: number;
  block_status: BlockStatus;
  block_hashing_version: number;
  block_created_at: Date | string;
};
const inBlock = (row: SterilizationRow): row is InBlock => row.block_id !== null;

/** The one place a record row becomes the contract's Sterilization. */
export function sterilizationView(row: SterilizationRow): Sterilization {
  return {
    id: Number(row.id),
    device_id: row.device_id,
    received_ts: iso(row.received_ts),
    cycle_ts: isoOrNull(row.cycle_ts),
    clock_suspect: row.clock_suspect,
    token_id: row.token_id === null ? null : Number(row.token_id),
    token_position: row.token_position,
    device_serial: row.device_serial,
    progressive_id: row.progressive_id,
    arrived_out_of_order: row.arrived_out_of_order,
    supplied_energy: Number(row.supplied_energy),
    nominal_time: Number(row.nominal_time),
    effective_time: Number(row.effective_time),
    residual_lamp_life: Number(row.residual_lamp_life),
    status_code: row.status_code,
    latitude: num(row.latitude),
    longitude: num(row.longitude),
    consumables_lot: row.consumables_lot,
    lot_progressive_id: row.lot_progressive_id,
    notes: row.notes,
    created_at: iso(row.created_at),
    device: { device_serial: row.device_serial, customer: { name: row.customer_name } },
    // A record of a customer without blockchain will never be anchored; the modal says so.
    blockchain_enabled: row.customer_enable_blockchain,
    // Kept by the database (migration 0007) from the lot's certificates; never computed here.
    lot_status: row.lot_status,
    blockchain_data: !inBlock(row)
      ? null
      : {
          hashing_version: row.hashing_version ?? row.block_hashing_version ?? 1,
          blockchain_data_block_id: row.block_id,
          blockchain_data_block: {
            id: row.block_id,
            status: row.block_status,
            network: row.block_network,
            transaction_hash: row.block_transaction_hash,
            merkle_root: row.block_merkle_root,
            hashing_version: row.block_hashing_version,
            created_at: iso(row.block_created_at),
            sent_at: isoOrNull(row.block_sent_at),
            mined_at: isoOrNull(row.block_mined_at),
            final_at: isoOrNull(row.block_final_at),
          },
          // Stored with the block by the anchor worker, so a list row costs nothing to prove.
          proof: row.merkle_proof ?? [],
        },
  };
}
