/**
 * The cycle report of one record (GET /sterilizations/cycle-report/{id}): read under the
 * caller's tenant scope (another tenant's record is 404 like a missing one), its proof receipt built
 * from the database row's exact text (the same leaf the anchor worker made), and, for a MINED or FINAL record,
 * the public /verify link on APP_URL carrying that receipt, printed as a QR code.
 */
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Db } from '#server/db/client.ts';
import { ApiError } from '#server/http/envelope.ts';
import { type CycleReportInput, renderCycleReport } from '#server/pdf/report/cycle-report.ts';
import type { AnchoringState } from '#server/pdf/report/cycle-texts.ts';
import type { ReportLanguage } from '#server/pdf/report/texts.ts';
import {
  canonicalTimestamp,
  HASHING_VERSION,
  INTEGRITY_FIELDS,
  type IntegrityField,
  leafHash,
} from '#shared/integrity/index.ts';
import { encodeReceiptFragment } from '#shared/integrity/receipt-link.ts';
import { recordReceipt } from '#shared/integrity/record-receipt.ts';
import type { ChainService } from '../integrity/index.ts';
import { integrityRecord } from '../integrity/index.ts';
import { STERILIZATION_FROM, STERILIZATION_SELECT, type SterilizationRow, TOKEN_SHA256_SQL } from './view.ts';

type CycleRow = SterilizationRow & {
  token_sha256: string | null;
  customer_id: number;
  customer_address: string | null;
  customer_postcode: string | null;
  customer_city: string | null;
  customer_country: string | null;
  device_label: string;
  product_name: string;
};

/** The record with its customer and device, or null when it does not exist or the scope excludes it. */
export async function findCycleRecord(db: Db, id: number, scope: number | null): Promise<CycleRow | null> {
  const tenant = scope === null ? sql`true` : sql`s.customer_id = ${scope}`;
  const result = await db.execute<CycleRow>(sql`
    select ${STERILIZATION_SELECT}, ${TOKEN_SHA256_SQL} as token_sha256, c.id as customer_id, c.address as customer_address,
      c.postcode as customer_postcode, c.city as customer_city, c.country as customer_country,
      d.label as device_label, p.name as product_name
    from ${STERILIZATION_FROM}
    join products p on p.id = d.product_id
    where s.id = ${id} and ${tenant}`);
  return result.rows[0] ?? null;
}

function anchoringState(row: CycleRow): AnchoringState {
  if (row.block_id === null) return row.customer_enable_blockchain ? 'waiting' : 'not_enabled';
  return (
    ({ PENDING: 'pending', SENT: 'sent', MINED: 'mined', FINAL: 'final', FAILED: 'failed' } as const)[
      row.block_status as 'PENDING' | 'SENT' | 'MINED' | 'FINAL' | 'FAILED'
    ] ?? 'pending'
  );
}

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString() : String(value);

export async function cycleReportPdf(
  deps: { chain: ChainService; appUrl: string },
  row: CycleRow,
  language: ReportLanguage,
): Promise<Uint8Array> {
  const record = integrityRecord(row);
  const state = anchoringState(row);
  const receipt =
    row.block_id === null
      ? null
      : recordReceipt(
          record,
          {
            hashing_version: row.hashing_version ?? row.block_hashing_version ?? 1,
            block_id: row.block_id,
            proof: row.merkle_proof ?? [],
            network: row.block_network,
            transaction_hash: row.block_transaction_hash,
          },
          null,
        );
  let verificationLink: string | null = null;
  let chainBlock: string | null = null;
  if ((state === 'mined' || state === 'final') && receipt) {
    // The QR's receipt names the chain and contract, so a verifier needs nothing of ours: no chain, no report.
    let connected: Awaited<ReturnType<ChainService['chain']>>;
    try {
      connected = await deps.chain.chain();
    } catch {
      throw new ApiError(503, 'service_unavailable');
    }
    receipt.chain_id = connected.chainId;
    receipt.contract_address = connected.contractAddress;
    verificationLink = `${deps.appUrl}/verify#${encodeReceiptFragment(receipt)}`;
    try {
      const mined = row.block_transaction_hash
        ? await connected.receipt(row.block_transaction_hash as Hex)
        : null;
      chainBlock = mined ? mined.blockNumber.toString() : null;
    } catch {
      chainBlock = null; // printed as "unknown": the QR's verification reads the chain itself anyway
    }
  }
  const fields = Object.fromEntries(INTEGRITY_FIELDS.map((field) => [field, text(record[field])])) as Record<
    IntegrityField,
    string | null
  >;
  // The instant as the leaf reads it (PostgreSQL's text form), shown as UTC to the millisecond.
  fields.received_ts =
    canonicalTimestamp(row.received_ts instanceof Date ? row.received_ts : String(row.received_ts)) ??
    String(row.received_ts);
  const input: CycleReportInput = {
    language,
    generatedAt: new Date(),
    customer: {
      id: row.customer_id,
      name: row.customer_name,
      address: row.customer_address,
      postcode: row.customer_postcode,
      city: row.customer_city,
      country: row.customer_country,
    },
    device: { serial: row.device_serial, label: row.device_label, product: row.product_name },
    record: fields,
    cycle: {
      at: row.cycle_ts === null ? null : new Date(row.cycle_ts),
      clockAhead: row.clock_suspect,
    },
    anchoring: {
      state,
      blockId: row.block_id,
      network: row.block_network,
      transactionHash: row.block_transaction_hash,
      chainBlock,
      // Not in a block yet: the leaf it will have (blocks are made with the current version).
      leaf: receipt?.leaf ?? leafHash(record, HASHING_VERSION),
      root: receipt?.root ?? null,
    },
    verificationLink,
  };
  return renderCycleReport(input);
}
