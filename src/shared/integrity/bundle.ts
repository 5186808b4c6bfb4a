/**
 * Proof bundles (`uvtrace-proof-bundle/1`, the sterilization list's "Download proofs"): many records'
 * proofs in one file, and their verification (docs/integrity.md §11). Each anchored record is checked
 * exactly as a receipt is (./receipt.ts: format, leaf, proof → root, and the chain checks), but the
 * node is asked for its chain id once and for each distinct transaction once, however many records
 * share it. One implementation for scripts/verify-receipt.ts, the /verify page's Web Worker and the
 * benchmark. Not re-exported from ./index.ts (it pulls viem's RPC client).
 */
import type { Hex } from 'viem';
import { getChainId } from 'viem/actions';
import type { LeafField } from './canonical.ts';
import { hashPair } from './merkle.ts';
import {
  type AnchorRead,
  chainCheckNames,
  chainIdCheck,
  type Fold,
  type ProofReceipt,
  RECEIPT_FORMAT,
  type ReceiptCheck,
  readAnchor,
  recordChecks,
  rpcClient,
  transactionChecks,
  type VerifyOptions,
  withMissingFailed,
} from './receipt.ts';

export const BUNDLE_FORMAT = 'uvtrace-proof-bundle/1';

/** Why a record of the bundle is not anchored (it is listed, but there is nothing on chain to check). */
export type NotAnchoredStatus = 'waiting' | 'PENDING' | 'SENT' | 'FAILED' | 'blockchain_disabled';

export type BundleEntry =
  | {
      anchored: true;
      hashing_version: number;
      record: Partial<Record<LeafField, string | null>>;
      leaf: string;
      proof: string[];
      root: string | null;
      block_id: number;
      network: string | null;
      transaction_hash: string | null;
    }
  | {
      anchored: false;
      anchor_status: NotAnchoredStatus;
      hashing_version: number;
      record: Partial<Record<LeafField, string | null>>;
    };

export type ProofBundle = {
  format: typeof BUNDLE_FORMAT;
  created_at: string;
  network: string | null;
  chain_id: number | null;
  contract_address: string | null;
  records: BundleEntry[];
};

/** A parsed JSON value that says it is a proof bundle (its records are checked one by one later). */
export function isProofBundle(value: unknown): value is ProofBundle {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { format?: unknown }).format === BUNDLE_FORMAT &&
    Array.isArray((value as { records?: unknown }).records)
  );
}

/** A bundle's record as the receipt the modal would give for it (the bundle's chain and contract). */
export function bundleReceipt(
  bundle: ProofBundle,
  entry: BundleEntry,
): ProofReceipt & { rpc_url?: string | null } {
  const anchored = entry as Extract<BundleEntry, { anchored: true }>;
  return {
    format: RECEIPT_FORMAT,
    hashing_version: anchored.hashing_version,
    record: anchored.record,
    leaf: anchored.leaf,
    proof: anchored.proof,
    root: anchored.root,
    block_id: anchored.block_id,
    network: anchored.network ?? bundle.network,
    chain_id: bundle.chain_id,
    contract_address: bundle.contract_address,
    transaction_hash: anchored.transaction_hash,
  };
}

/** A record that failed: its place in the bundle, its id (as written), and the checks it failed. */
export type BundleFailure = { index: number; id: string | null; checks: ReceiptCheck[] };
export type BundleNotAnchored = { index: number; id: string | null; status: string };

export type BundleVerification = {
  /** Every anchored record passed every check (records not anchored are listed, not failed). */
  ok: boolean;
  total: number;
  passed: number;
  failed: BundleFailure[];
  notAnchored: BundleNotAnchored[];
  /** Distinct transactions read from the node. */
  transactions: number;
};

export type BundleProgress = { done: number; total: number };

export type BundleOptions = VerifyOptions & {
  /** Called as records are checked (every `progressEvery` records, and at the end). */
  onProgress?: (progress: BundleProgress) => void;
  progressEvery?: number;
  /** Transactions read at the same time. */
  concurrency?: number;
};

const HEX32 = /^0x[0-9a-fA-F]{64}$/;

/**
 * processProof with each pair hashed once: a block's records share the upper levels of its tree, so a
 * bundle of 1,000-record blocks hashes about 2 pairs a record instead of 10 (same result: hashPair of the
 * same two nodes, which it orders itself; lower-case hex orders as the bytes do).
 */
export function memoisedFold(): Fold {
  const memo = new Map<string, Hex>();
  return (leaf, proof) => {
    let node = leaf.toLowerCase() as Hex;
    for (const sibling of proof) {
      const other = sibling.toLowerCase() as Hex;
      const key = node < other ? node + other : other + node;
      let next = memo.get(key);
      if (next === undefined) {
        next = hashPair(node, other);
        memo.set(key, next);
      }
      node = next;
    }
    return node;
  };
}

const message = (error: unknown) =>
  error instanceof Error ? (error as { shortMessage?: string }).shortMessage || error.message : String(error);

function recordId(entry: unknown): string | null {
  const record = (entry as { record?: unknown } | null)?.record;
  const id = typeof record === 'object' && record !== null ? (record as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : id === undefined || id === null ? null : String(id);
}

/**
 * Every record of a bundle checked. The node is asked for its chain id once and for each distinct
 * transaction hash once (transactions first, then records, `concurrency` at a time); each record is then
 * checked like a receipt against those answers. A bundle that is not a bundle fails as one record.
 */
export async function verifyBundle(
  bundle: unknown,
  options: BundleOptions = {},
): Promise<BundleVerification> {
  const onProgress = options.onProgress ?? (() => {});
  const every = options.progressEvery ?? 250;
  if (!isProofBundle(bundle)) {
    return {
      ok: false,
      total: 0,
      passed: 0,
      failed: [
        {
          index: -1,
          id: null,
          checks: [{ name: 'format', ok: false, detail: `not a ${BUNDLE_FORMAT} file` }],
        },
      ],
      notAnchored: [],
      transactions: 0,
    };
  }
  const entries = bundle.records;
  const hashes = new Set<string>();
  for (const entry of entries) {
    const hash = (entry as { transaction_hash?: unknown })?.transaction_hash;
    if (entry?.anchored === true && typeof hash === 'string' && HEX32.test(hash))
      hashes.add(hash.toLowerCase());
  }

  const names = chainCheckNames(options.confirmations);
  const client = rpcClient(options);
  let chainFailure: string | null = client ? null : 'no RPC URL (pass --rpc URL)';
  let chainId = 0;
  const reads = new Map<string, AnchorRead>();
  if (client) {
    try {
      chainId = await getChainId(client);
    } catch (error) {
      chainFailure = `cannot reach the node: ${message(error)}`;
    }
  }
  if (client && chainFailure === null) {
    const queue = [...hashes];
    const worker = async () => {
      for (let hash = queue.shift(); hash !== undefined; hash = queue.shift()) {
        reads.set(hash, await readAnchor(client, hash as Hex, Boolean(options.confirmations)));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  }

  const fold = memoisedFold();
  const failed: BundleFailure[] = [];
  const notAnchored: BundleNotAnchored[] = [];
  let passed = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as BundleEntry;
    if (typeof entry === 'object' && entry !== null && entry.anchored === false) {
      notAnchored.push({ index, id: recordId(entry), status: String(entry.anchor_status) });
    } else {
      const receipt = bundleReceipt(bundle, entry ?? ({} as BundleEntry));
      const checks = recordChecks(receipt, fold);
      if (chainFailure !== null) checks.push(...withMissingFailed([], names, chainFailure));
      else {
        const chain: ReceiptCheck[] = [chainIdCheck(receipt, chainId)];
        const hash = receipt.transaction_hash;
        const read = typeof hash === 'string' ? reads.get(hash.toLowerCase()) : undefined;
        if (read) chain.push(...transactionChecks(receipt, read));
        checks.push(
          ...withMissingFailed(chain, names, read ? 'no transaction' : 'the receipt has no transaction hash'),
        );
      }
      const failing = checks.filter((check) => !check.ok);
      if (failing.length === 0) passed += 1;
      else failed.push({ index, id: recordId(entry), checks: failing });
    }
    if ((index + 1) % every === 0) onProgress({ done: index + 1, total: entries.length });
  }
  onProgress({ done: entries.length, total: entries.length });
  return {
    ok: failed.length === 0,
    total: entries.length,
    passed,
    failed,
    notAnchored,
    transactions: reads.size,
  };
}
