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
import type { ProofReceipt } from './receipt.ts';

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
