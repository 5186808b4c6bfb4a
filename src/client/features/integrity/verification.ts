/**
 * The pure side of the "data integrity verification" modal (docs/product.md §2): the editable form of a
 * record, the control strings computed in the browser with the shared integrity module, the block
 * explorer link, and the verification state machine. Nothing here talks to a server or a chain.
 */
import type { BlockchainData, RecordEvidence, Sterilization } from '#shared/api/index.ts';
import {
  canonicalValue,
  EVIDENCE_FIELDS,
  HASHING_VERSION,
  type HashingVersion,
  INTEGRITY_FIELDS,
  type IntegrityField,
  type IntegrityRecord,
  isHashingVersion,
  type LeafField,
  leafHash,
  processProof,
} from '#shared/integrity/index.ts';
import type { ProofReceipt, ProofReceiptV2 } from '#shared/integrity/receipt.ts';
import { recordReceipt, recordReceiptV2 } from '#shared/integrity/record-receipt.ts';
import type { VerifiableRecord } from '#shared/integrity/verifiable-record.ts';

export { type VerifiableRecord, withEvidence } from '#shared/integrity/verifiable-record.ts';
export { INTEGRITY_FIELDS, type IntegrityField };

/** The modal's left column: every field as the text in its input. */
export type VerificationForm = Record<IntegrityField, string>;

/** Version 1 text fields keep null and "" apart (docs/integrity.md §2); in version 2 "" is null anyway. */
const TEXT_FIELDS: ReadonlySet<IntegrityField> = new Set(['device_serial', 'consumables_lot', 'notes']);

type RecordLike = Partial<Record<LeafField, unknown>>;

/** docs/product.md §2 "no form data": nothing to verify without the record and its identity. */
export function hasFormData(record: unknown): record is Sterilization {
  if (typeof record !== 'object' || record === null) return false;
  const candidate = record as RecordLike;
  return (
    typeof candidate.id === 'number' &&
    typeof candidate.received_ts === 'string' &&
    typeof candidate.device_serial === 'string'
  );
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  // null, undefined, and an object where text was expected (docs/product.md §3: shown as empty text).
  return '';
}

export function initialForm(record: RecordLike): VerificationForm {
  return Object.fromEntries(
    INTEGRITY_FIELDS.map((field) => [field, fieldText(record[field])]),
  ) as VerificationForm;
}

/**
 * The record the form describes. An empty text field means what the stored record had when it was
 * empty too (null or ""), since the two look the same in an input; a cleared non-empty field is null.
 * (Needed for version 1 blocks only: version 2 hashes "" as null.) The record's evidence (version 3:
 * its token's hash, its position there, its cycle time) is not edited: it comes from the record.
 */
export function formRecord(form: VerificationForm, original: RecordLike): IntegrityRecord {
  const evidence = EVIDENCE_FIELDS.map((field) => {
    const value = original[field];
    return [field, typeof value === 'string' || typeof value === 'number' ? value : null];
  });
  return Object.fromEntries([
    ...INTEGRITY_FIELDS.map((field) => {
      const value = form[field];
      if (TEXT_FIELDS.has(field) && value === '') return [field, original[field] === '' ? '' : null];
      return [field, value];
    }),
    ...evidence,
  ]) as IntegrityRecord;
}

/**
 * The fields whose value differs from the stored record's, compared as the leaf compares them
 * (canonical values of the block's version), so "12.50" typed for 12.5 is not a change.
 */
export function changedFields(
  form: VerificationForm,
  original: RecordLike,
  version: HashingVersion,
): IntegrityField[] {
  const edited = formRecord(form, original);
  const stored = formRecord(initialForm(original), original);
  return INTEGRITY_FIELDS.filter(
    (field) =>
      canonicalValue(field, edited[field], version) !== canonicalValue(field, stored[field], version),
  );
}

/** Whether the form still holds the record's own texts (nothing to restore). */
export function isPristine(form: VerificationForm, original: RecordLike): boolean {
  const initial = initialForm(original);
  return INTEGRITY_FIELDS.every((field) => form[field] === initial[field]);
}

export type Hashes = {
  /** The record's control string (leaf). */
  leaf: `0x${string}`;
  /** The block control string: the root the leaf and the record's proof lead to; null without a block. */
  root: `0x${string}` | null;
};

/**
 * The version to hash with: the block's (a block keeps the version it was made with); a record not in a
 * block yet will be put in a block of the current version. An unknown version hashes as the current one
 * and so fails to verify rather than pretending.
 */
export function hashingVersionOf(blockchainData: BlockchainData | null): HashingVersion {
  const version = blockchainData?.hashing_version;
  return isHashingVersion(version) ? version : HASHING_VERSION;
}

/** Leaf and root computed here, from the form and the proof (a malformed proof gives no root). */
export function computeHashes(
  form: VerificationForm,
  original: RecordLike,
  blockchainData: BlockchainData | null,
): Hashes {
  const leaf = leafHash(formRecord(form, original), hashingVersionOf(blockchainData));
  let root: Hashes['root'] = null;
  if (blockchainData) {
    try {
      root = processProof(leaf, blockchainData.proof as `0x${string}`[]);
    } catch {
      root = null;
    }
  }
  return { leaf, root };
}

/**
 * The proof receipt ("download proof"): everything a third party needs to check the stored
 * record against the chain with no code of ours (docs/integrity.md §7); its shape and checks are
 * shared with scripts/verify-receipt.ts and the /verify page.
 */
export type { ProofReceipt };

export function proofReceipt(
  record: VerifiableRecord,
  chain: { chain_id: number; contract_address: string } | undefined,
): ProofReceipt | null {
  const data = record.blockchain_data;
  if (!data) return null;
  return recordReceipt(
    formRecord(initialForm(record), record),
    {
      hashing_version: data.hashing_version,
      block_id: data.blockchain_data_block_id,
      proof: data.proof,
      network: data.blockchain_data_block.network,
      transaction_hash: data.blockchain_data_block.transaction_hash,
    },
    chain,
  );
}

/**
 * The receipt that proves every link (format 2, docs/integrity.md §14), when the record's token is
 * kept: for a record in a block, or of a customer without blockchain (which proves the device's
 * signature and values only). Null otherwise (then proofReceipt's format 1, or nothing).
 */
export function proofReceiptWithEvidence(
  record: VerifiableRecord,
  chain: { chain_id: number; contract_address: string } | undefined,
  evidence: RecordEvidence | undefined,
): ProofReceiptV2 | null {
  if (!evidence) return null;
  const data = record.blockchain_data;
  if (!data && record.blockchain_enabled) return null;
  return recordReceiptV2(
    formRecord(initialForm(record), record),
    data
      ? {
          hashing_version: data.hashing_version,
          block_id: data.blockchain_data_block_id,
          proof: data.proof,
          network: data.blockchain_data_block.network,
          transaction_hash: data.blockchain_data_block.transaction_hash,
        }
      : null,
    chain,
    evidence,
    record.blockchain_enabled,
  );
}

const EXPLORERS: Record<string, string> = {
  mainnet: 'https://etherscan.io/tx/',
  main: 'https://etherscan.io/tx/',
  sepolia: 'https://sepolia.etherscan.io/tx/',
  rinkeby: 'https://rinkeby.etherscan.io/tx/',
};

/** The transaction's page on a public block explorer; null for the devnet (or an unknown network). */
export function explorerTxUrl(
  network: string | null | undefined,
  hash: string | null | undefined,
): string | null {
  if (!network || !hash) return null;
  const prefix = EXPLORERS[network.toLowerCase()];
  return prefix ? `${prefix}${hash}` : null;
}

/** What the browser read from the chain about the anchoring transaction (chain-reader.ts). */
export type AnchorTransaction = {
  hash: string;
  /** The called contract. */
  to: string | null;
  /** Raw call data. */
  input: string;
  /** The receipt's status: true = success, null = no receipt (yet). */
  succeeded: boolean | null;
  /** Decoded call, or null when the input is not a call of the Anchor ABI. */
  functionName: string | null;
  params: Array<{ name: string; type: string; value: string }>;
};

export type ChainRead =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'done'; transaction: AnchorTransaction };

/** The anchored block id (first parameter) and root (second parameter) of an anchor call. */
export function anchoredValues(transaction: AnchorTransaction): {
  blockId: string | null;
  root: string | null;
} {
  if (transaction.functionName !== 'anchor') return { blockId: null, root: null };
  return { blockId: transaction.params[0]?.value ?? null, root: transaction.params[1]?.value ?? null };
}

export type Verdict = 'error' | 'not_sent' | 'not_mined' | 'verifying' | 'success' | 'failed';
export type CheckStatus = 'pass' | 'fail' | 'pending';
export type CheckId = 'computed' | 'transaction' | 'root_match';
export type Check = { id: CheckId; status: CheckStatus };

export type VerificationInput = {
  /** The record given to the modal (hasFormData). */
  hasForm: boolean;
  blockchainData: BlockchainData | null;
  /** The browser's hashes; null while calculating (an edit not yet debounced). */
  hashes: Hashes | null;
  /** The contract the app anchors to (GET /chain); undefined while loading. */
  contractAddress: string | undefined;
  chain: ChainRead;
};

/** A block whose root is on chain: MINED, or FINAL once its chain block is past finality. */
export const isAnchored = (status: string | null | undefined): boolean =>
  status === 'MINED' || status === 'FINAL';

const same = (a: string | null | undefined, b: string | null | undefined) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * docs/product.md §2/§4: no form data → "an error happened"; no blockchain data → "data not yet sent"; a
 * block neither MINED nor FINAL → "data verifiable when transaction is mined"; otherwise "doing verification" until the
 * browser has its hashes and the transaction, then "successful" only when every check passes:
 * - computed: the leaf and the root were computed here from the fields and the proof;
 * - transaction: the transaction read from the chain is a successful `anchor` call to our contract
 *   for this record's block;
 * - root_match: the root it anchored (its second parameter) equals the root computed here.
 */
export function verification(input: VerificationInput): { verdict: Verdict; checks: Check[] } {
  if (!input.hasForm) return { verdict: 'error', checks: [] };
  const data = input.blockchainData;
  if (!data) return { verdict: 'not_sent', checks: [] };
  if (!isAnchored(data.blockchain_data_block.status)) return { verdict: 'not_mined', checks: [] };

  const computed: CheckStatus = input.hashes ? 'pass' : 'pending';
  let transaction: CheckStatus = 'pending';
  let rootMatch: CheckStatus = 'pending';
  if (input.chain.status === 'error') {
    transaction = 'fail';
    rootMatch = 'fail';
  } else if (input.chain.status === 'done' && input.contractAddress !== undefined) {
    const tx = input.chain.transaction;
    const anchored = anchoredValues(tx);
    transaction =
      same(tx.to, input.contractAddress) &&
      tx.succeeded === true &&
      anchored.blockId === String(data.blockchain_data_block_id)
        ? 'pass'
        : 'fail';
    if (input.hashes) rootMatch = same(anchored.root, input.hashes.root) ? 'pass' : 'fail';
  }
  const checks: Check[] = [
    { id: 'computed', status: computed },
    { id: 'transaction', status: transaction },
    { id: 'root_match', status: rootMatch },
  ];
  const verdict: Verdict = checks.some((check) => check.status === 'fail')
    ? 'failed'
    : checks.every((check) => check.status === 'pass')
      ? 'success'
      : 'verifying';
  return { verdict, checks };
}
