/**
 * The proof receipt of one stored record (`uvtrace-proof-receipt/1`, docs/integrity.md §7), built the
 * same way by the verification modal (from the API's record) and the server's cycle report PDF (from the
 * database row, whose numbers are still exact text). Hashing only: no RPC client is loaded.
 */
import type { Hex } from 'viem';
import {
  canonicalValue,
  HASHING_VERSION,
  type IntegrityRecord,
  isHashingVersion,
  type LeafField,
  leafFields,
  leafHash,
} from './canonical.ts';
import { processProof } from './merkle.ts';
import type { ProofReceipt, ProofReceiptV2 } from './receipt.ts';

/** Where a record sits: its block, the version the block was hashed with, and the record's proof. */
export type RecordAnchor = {
  hashing_version: number;
  block_id: number;
  proof: string[];
  network: string | null;
  transaction_hash: string | null;
};

/** The chain a receipt points a verifier to (GET /chain's chain_id and contract_address). */
export type ReceiptChain = { chain_id: number; contract_address: string };

/**
 * The receipt: the canonical values of the leaf's fields (in the block's version), the leaf, the root the proof folds it
 * into (null for a malformed proof), and the anchor. An unknown version hashes as the current one, so
 * such a receipt fails to verify rather than pretending.
 */
export function recordReceipt(
  record: IntegrityRecord,
  anchor: RecordAnchor,
  chain: ReceiptChain | null | undefined,
): ProofReceipt {
  const version = isHashingVersion(anchor.hashing_version) ? anchor.hashing_version : HASHING_VERSION;
  const values = Object.fromEntries(
    leafFields(version).map((field) => [field, canonicalValue(field, record[field], version)]),
  ) as Record<LeafField, string | null>;
  const leaf = leafHash(record, version);
  let root: Hex | null = null;
  try {
    root = processProof(leaf, anchor.proof as Hex[]);
  } catch {
    root = null;
  }
  return {
    format: 'uvtrace-proof-receipt/1',
    hashing_version: anchor.hashing_version,
    record: values,
    leaf,
    proof: anchor.proof,
    root,
    block_id: anchor.block_id,
    network: anchor.network,
    chain_id: chain?.chain_id ?? null,
    contract_address: chain?.contract_address ?? null,
    transaction_hash: anchor.transaction_hash,
  };
}

/** A record's evidence as the API answers it (GET /sterilizations/evidence/{id}). */
export type EvidenceAnswer = {
  token: { jws: string } | null;
  position: number | null;
  key_event: {
    id: number;
    device_serial: string;
    slot: number;
    action: string;
    public_key: string;
    thumbprint: string;
    effective_at: string;
    anchor: {
      block_id: number;
      merkle_root: string | null;
      transaction_hash: string | null;
      proof: string[];
    } | null;
  } | null;
};

/**
 * The receipt of format 2 (docs/integrity.md §14): format 1's, plus the device's token exactly as it was
 * stored and the key event that verified it with its anchor. `anchor` is null for a record of a customer
 * without blockchain (`blockchain` false): such a receipt proves the device's signature and values only.
 * Null when the record has no token kept (stored before tokens were).
 */
export function recordReceiptV2(
  record: IntegrityRecord,
  anchor: RecordAnchor | null,
  chain: ReceiptChain | null | undefined,
  evidence: EvidenceAnswer,
  blockchain: boolean,
): ProofReceiptV2 | null {
  const key = evidence.key_event;
  if (!evidence.token || key === null || evidence.position === null) return null;
  const base = recordReceipt(
    record,
    anchor ?? {
      hashing_version: HASHING_VERSION,
      block_id: 0,
      proof: [],
      network: null,
      transaction_hash: null,
    },
    chain,
  );
  return {
    ...base,
    format: 'uvtrace-proof-receipt/2',
    block_id: anchor ? base.block_id : null,
    root: anchor ? base.root : null,
    blockchain,
    device: {
      jws: evidence.token.jws,
      position: evidence.position,
      key: {
        event_id: key.id,
        device_serial: key.device_serial,
        slot: key.slot,
        action: key.action,
        public_key: key.public_key,
        thumbprint: key.thumbprint,
        effective_at: key.effective_at,
      },
      key_anchor: key.anchor
        ? {
            proof: key.anchor.proof,
            root: key.anchor.merkle_root,
            block_id: key.anchor.block_id,
            transaction_hash: key.anchor.transaction_hash,
          }
        : null,
    },
  };
}
