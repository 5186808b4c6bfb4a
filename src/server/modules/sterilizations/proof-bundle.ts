/**
 * The proof bundle of the filtered list (docs/integrity.md §11): the list's records for its
 * filters, newest first, each with its 14 fields as the canonical strings that were hashed (read as
 * PostgreSQL text, never through a float), its leaf, Merkle proof, block id, root and anchoring
 * transaction. Streamed like the CSV export: keyset batches, one short query each, written as JSON text
 * record by record, so memory stays flat however many records there are.
 *
 * Records not anchored (no block yet, a block not MINED or FINAL, a customer without blockchain) are included,
 * marked `anchored: false` with the reason, so the bundle is the whole filtered set
 * (docs/adr/0029-proof-bundles.md).
 */
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { type GiveWay, inSlices, nextTurnOnly } from '#server/http/give-way.ts';
import { BUNDLE_FORMAT, type BundleEntry } from '#shared/integrity/bundle.ts';
import {
  canonicalValue,
  HASHING_VERSION,
  type HashingVersion,
  isHashingVersion,
  type LeafField,
  leafFields,
  leafHash,
} from '#shared/integrity/index.ts';
import { integrityRecord, RECORD_FIELDS_SQL } from '../integrity/index.ts';
import { before, type Cursor, EXPORT_BATCH_ROWS } from './exports.ts';
import { isEmptyFilter, orderedIds, type SterilizationFilter } from './list.ts';
import type { SterilizationRow } from './view.ts';

/** The chain the server anchors to now (null when it cannot be reached: records still listed). */
export type BundleChain = { network: string; chain_id: number; contract_address: string } | null;

type BundleRow = Parameters<typeof integrityRecord>[0] & {
  cursor_ts: string;
  enable_blockchain: boolean;
  hashing_version: number | null;
  merkle_proof: string[] | null;
  block_id: number | null;
  block_status: string | null;
  block_network: string | null;
  block_transaction_hash: string | null;
  block_merkle_root: string | null;
  block_hashing_version: number | null;
} & Pick<SterilizationRow, 'id'>;

function canonicalRecord(row: BundleRow, version: HashingVersion): Partial<Record<LeafField, string | null>> {
  const record = integrityRecord(row);
  return Object.fromEntries(
    leafFields(version).map((field) => [field, canonicalValue(field, record[field], version)]),
  );
}

/**
 * Entries written between two gives of way (#server/http/give-way.ts): about a millisecond of work, so
 * a request that arrives meanwhile waits no longer than that for the event loop.
 */
const FORMAT_SLICE_ROWS = 200;

/** One record of the bundle. */
export function bundleEntry(row: BundleRow): BundleEntry {
  // MINED (and FINAL) is the claim of being on chain: such a block without its hash or root (never
  // written by the worker) is listed as anchored, with nulls, and so fails verification instead of hiding.
  const mined = row.block_id !== null && (row.block_status === 'MINED' || row.block_status === 'FINAL');
  if (!mined) {
    const status =
      row.block_id !== null
        ? ((row.block_status ?? 'PENDING') as 'PENDING' | 'SENT' | 'FAILED')
        : row.enable_blockchain
          ? 'waiting'
          : 'blockchain_disabled';
    return {
      anchored: false,
      anchor_status: status,
      hashing_version: HASHING_VERSION,
      record: canonicalRecord(row, HASHING_VERSION),
    };
  }
  const stored = row.hashing_version ?? row.block_hashing_version ?? 1;
  // A version this server cannot hash (none yet) is listed as the block has it and fails verification.
  const version = isHashingVersion(stored) ? stored : HASHING_VERSION;
  return {
    anchored: true,
    hashing_version: stored,
    record: canonicalRecord(row, version),
    leaf: leafHash(integrityRecord(row), version),
    proof: row.merkle_proof ?? [],
    root: row.block_merkle_root,
    block_id: Number(row.block_id),
    network: row.block_network,
    transaction_hash: row.block_transaction_hash,
  };
}

async function* bundleJson(
  db: Db,
  filter: SterilizationFilter,
  chain: BundleChain,
  batchRows: number,
  now: Date,
  giveWay: GiveWay,
): AsyncGenerator<string> {
  const head = {
    format: BUNDLE_FORMAT,
    created_at: now.toISOString(),
    network: chain?.network ?? null,
    chain_id: chain?.chain_id ?? null,
    contract_address: chain?.contract_address ?? null,
  };
  // The header's JSON without its closing brace, then the records array.
  yield `${JSON.stringify(head).slice(0, -1)},"records":[`;
  let first = true;
  if (!isEmptyFilter(filter)) {
    let cursor: Cursor | null = null;
    for (;;) {
      const ids = orderedIds(filter, 'received_ts', 'desc', batchRows, 0, before(cursor));
      const result: { rows: BundleRow[] } = await db.execute<BundleRow>(sql`
        with page as materialized (${ids})
        select ${RECORD_FIELDS_SQL}, s.received_ts::text as cursor_ts, c.enable_blockchain,
          s.hashing_version, s.merkle_proof, b.id as block_id, b.status as block_status,
          b.network as block_network, b.transaction_hash as block_transaction_hash,
          b.merkle_root as block_merkle_root, b.hashing_version as block_hashing_version
        from page p, sterilizations s join devices d on d.id = s.device_id
          join customers c on c.id = s.customer_id
          left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
        where s.id = p.id
        order by s.received_ts desc, s.id desc`);
      const { rows } = result;
      if (rows.length === 0) break;
      yield* inSlices(
        rows,
        FORMAT_SLICE_ROWS,
        (slice) => {
          let text = '';
          for (const row of slice) {
            text += (first ? '\n' : ',\n') + JSON.stringify(bundleEntry(row));
            first = false;
          }
          return text;
        },
        giveWay,
      );
      if (rows.length < batchRows) break;
      const last = rows[rows.length - 1] as BundleRow;
      cursor = { ts: last.cursor_ts, id: String(last.id) };
    }
  }
  yield '\n]}\n';
}

export function proofBundleExport(
  db: Db,
  filter: SterilizationFilter,
  chain: BundleChain,
  batchRows = EXPORT_BATCH_ROWS,
  now = new Date(),
  giveWay: GiveWay = nextTurnOnly,
): Readable {
  return Readable.from(bundleJson(db, filter, chain, batchRows, now, giveWay), { objectMode: false });
}
