/**
 * Proof receipts (`uvtrace-proof-receipt/1`, the verification modal's "Download proof"): their shape,
 * every check of one against a chain node, and the compact form a link carries in its URL fragment
 * (docs/integrity.md §9; the link's form is ./receipt-link.ts). One implementation for scripts/verify-receipt.ts and the public /verify page,
 * so the command line and the browser cannot disagree about what "verified" means.
 * Not re-exported from ./index.ts: it pulls viem's RPC client, which the hashing code does not need.
 */
import { type Abi, createClient, decodeFunctionData, type Hex, http, type Transport } from 'viem';
import { getBlock, getBlockNumber, getChainId, getTransaction, getTransactionReceipt } from 'viem/actions';
import artifact from './anchor-contract/Anchor.json' with { type: 'json' };
import {
  canonicalValue,
  HASHING_VERSIONS,
  isHashingVersion,
  type LeafField,
  leafFields,
  leafHash,
  recordFromForm,
} from './canonical.ts';
import {
  anchoredLink,
  type DeviceEvidence,
  keyLink,
  type LinkResult,
  type ReceiptKeyAnchor,
  signatureLink,
  signedValuesLink,
  unavailableLinks,
} from './device-evidence.ts';
import { keyEventLeafHash } from './key-event-leaf.ts';
import { processProof } from './merkle.ts';

const ANCHOR_ABI = artifact.abi as Abi;

export const RECEIPT_FORMAT = 'uvtrace-proof-receipt/1';
/** A receipt that also proves what happened before the anchor: the device's token and key (§14). */
export const RECEIPT_FORMAT_2 = 'uvtrace-proof-receipt/2';

/**
 * What the modal downloads: everything a third party needs to check the stored record against the
 * chain with no code of ours (docs/integrity.md §7). `record` holds the canonical values of the 14
 * fields (strings or null), so recomputing the leaf from it is unambiguous.
 */
export type ProofReceipt = {
  format: 'uvtrace-proof-receipt/1';
  hashing_version: number;
  /** The leaf's fields in canonical form: the 14 of docs/integrity.md §1, and from version 3 the evidence. */
  record: Partial<Record<LeafField, string | null>>;
  leaf: string;
  proof: string[];
  root: string | null;
  block_id: number;
  network: string | null;
  chain_id: number | null;
  contract_address: string | null;
  transaction_hash: string | null;
};

/** What every receipt (a record's, a report's) says about its anchor: checked the same way for both. */
export type AnchorFields = Pick<
  ProofReceipt,
  'leaf' | 'proof' | 'root' | 'block_id' | 'chain_id' | 'contract_address' | 'transaction_hash'
>;

/**
 * Format 2: format 1's fields (the anchor's null for a record of a customer without blockchain), whether
 * the customer anchors at all, and the device's evidence.
 */
export type ProofReceiptV2 = Omit<ProofReceipt, 'format' | 'block_id'> & {
  format: 'uvtrace-proof-receipt/2';
  block_id: number | null;
  blockchain: boolean;
  device: DeviceEvidence;
};

/** A receipt as read from a file or a link: the modal's shape, possibly with a node's URL. */
export type ReceiptInput = (ProofReceipt | ProofReceiptV2) & { rpc_url?: string | null };

const isFormat2 = (receipt: ReceiptInput): receipt is ProofReceiptV2 & { rpc_url?: string | null } =>
  receipt?.format === RECEIPT_FORMAT_2;

export type CheckName =
  | 'format'
  | 'document'
  | 'leaf'
  | 'root'
  | 'chain_id'
  | 'transaction'
  | 'contract'
  | 'status'
  | 'confirmations'
  | 'anchor_call';

/**
 * One check. `detail` is an English sentence (the command line prints it); `values` holds the same
 * facts as data, so a page can say them in its own language.
 */
export type ReceiptCheck = {
  name: CheckName;
  ok: boolean;
  detail: string;
  values?: Record<string, string>;
};
export type ReceiptVerification = {
  ok: boolean;
  checks: ReceiptCheck[];
  /** Format 2: the four links from the device's key to the chain. */
  links?: LinkResult[];
};

export type VerifyOptions = {
  /** JSON-RPC URL of a node of the receipt's chain. */
  rpcUrl?: string | undefined;
  /** A viem transport to use instead of http(rpcUrl) (tests: an in-process node). */
  transport?: Transport | undefined;
  /** Also count the transaction's confirmations (the page shows them; the command line never did). */
  confirmations?: boolean | undefined;
};

const HEX32 = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const sameHex = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

const message = (error: unknown) =>
  error instanceof Error ? (error as { shortMessage?: string }).shortMessage || error.message : String(error);

function formatCheck(receipt: ReceiptInput): ReceiptCheck {
  const problems: string[] = [];
  const stated = (receipt as { format?: unknown } | null)?.format;
  const format2 = stated === RECEIPT_FORMAT_2;
  if (stated !== RECEIPT_FORMAT && !format2) problems.push(`format is ${JSON.stringify(stated)}`);
  if (format2) {
    const evidence = (receipt as ProofReceiptV2).device;
    if (typeof evidence !== 'object' || evidence === null || typeof evidence.jws !== 'string')
      problems.push('no device evidence');
    else if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(evidence.jws))
      // Whitespace or another base64 alphabet is not the token the device sent, byte for byte.
      problems.push('the device token is not a compact JWS as stored');
  }
  if (!isHashingVersion(receipt?.hashing_version)) {
    problems.push(
      `hashing_version ${JSON.stringify(receipt?.hashing_version)} is not one of ${HASHING_VERSIONS.join(', ')}`,
    );
  }
  if (typeof receipt?.record !== 'object' || receipt.record === null) problems.push('no record');
  const anchored = !format2 || (receipt as ProofReceiptV2).blockchain !== false;
  if (anchored && !Number.isSafeInteger(receipt?.block_id)) problems.push('block_id is not an integer');
  return {
    name: 'format',
    ok: problems.length === 0,
    detail:
      problems.length === 0
        ? `${String(stated)}, hashing_version ${receipt.hashing_version}`
        : problems.join('; '),
    values: { version: String(receipt?.hashing_version) },
  };
}

/**
 * The fields that cannot be what the modal wrote: the modal writes each value in its canonical form
 * (or null), so a value that is not (e.g. "12.50" typed for 12.5, a number instead of a string) was
 * changed by hand. A changed value that is still canonical cannot be told from the leaf alone.
 */
export function suspectFields(record: unknown, version: number): LeafField[] {
  if (typeof record !== 'object' || record === null || !isHashingVersion(version)) return [];
  const fields = record as Partial<Record<LeafField, unknown>>;
  return leafFields(version).filter((field) => {
    const value = fields[field];
    if (value === null) return false;
    if (typeof value !== 'string') return true;
    return canonicalValue(field, value, version) !== value;
  });
}

function leafCheck(receipt: ReceiptInput): ReceiptCheck {
  try {
    const version = receipt.hashing_version;
    if (!isHashingVersion(version)) {
      return { name: 'leaf', ok: false, detail: `cannot hash with hashing_version ${version}` };
    }
    const computed = leafHash(recordFromForm(receipt.record), version);
    const ok = sameHex(computed, receipt.leaf);
    const suspects = ok ? [] : suspectFields(receipt.record, version);
    return {
      name: 'leaf',
      ok,
      detail: ok
        ? `record hashes to ${computed}`
        : `record hashes to ${computed}, receipt says ${receipt.leaf}` +
          (suspects.length > 0 ? ` (not as recorded: ${suspects.join(', ')})` : ''),
      values: { computed, recorded: String(receipt.leaf), fields: suspects.join(', ') },
    };
  } catch (error) {
    return { name: 'leaf', ok: false, detail: `cannot compute the leaf: ${message(error)}` };
  }
}

/** Folds a leaf with its proof into a root (merkle.ts processProof, or a memoised equivalent). */
export type Fold = (leaf: Hex, proof: readonly Hex[]) => Hex;

export function rootCheck(receipt: AnchorFields, fold: Fold = processProof): ReceiptCheck {
  try {
    if (typeof receipt.leaf !== 'string' || !HEX32.test(receipt.leaf)) {
      return { name: 'root', ok: false, detail: 'the leaf is not a 32-byte hex value' };
    }
    if (!Array.isArray(receipt.proof) || !receipt.proof.every((node) => HEX32.test(String(node)))) {
      return { name: 'root', ok: false, detail: 'the proof is not a list of 32-byte hex values' };
    }
    if (typeof receipt.root !== 'string')
      return { name: 'root', ok: false, detail: 'the receipt has no root' };
    const folded = fold(receipt.leaf as Hex, receipt.proof as Hex[]);
    const ok = sameHex(folded, receipt.root);
    return {
      name: 'root',
      ok,
      detail: ok
        ? `leaf and ${receipt.proof.length}-node proof fold to ${folded}`
        : `leaf and proof fold to ${folded}, receipt says ${receipt.root}`,
      values: { folded, recorded: receipt.root, nodes: String(receipt.proof.length) },
    };
  } catch (error) {
    return { name: 'root', ok: false, detail: `cannot fold the proof: ${message(error)}` };
  }
}

/** A viem client of the node the options name (null when they name none). */
export function rpcClient(options: VerifyOptions) {
  if (!options.transport && !options.rpcUrl) return null;
  return createClient({
    transport: options.transport ?? http(options.rpcUrl, { retryCount: 1, timeout: 15_000 }),
  });
}
type RpcClient = NonNullable<ReturnType<typeof rpcClient>>;

/**
 * What the node says about one anchoring transaction: read once, then compared with every receipt that
 * names it (a bundle's records share a few transactions: each is read once, see ./bundle.ts).
 */
export type AnchorRead =
  | { found: false; error: string }
  | {
      found: true;
      blockNumber: bigint | null;
      to: string | null;
      status: { ok: true; value: 'success' | 'reverted' } | { ok: false; error: string };
      head?: { ok: true; value: bigint } | { ok: false; error: string };
      /** The node's `finalized` block, read with the head; null when the node has no such tag. */
      finalized?: bigint | null;
      call:
        | { ok: true; functionName: string; blockId: unknown; root: unknown }
        | { ok: false; error: string };
    };

/** Reads the transaction, its receipt, the head block (with confirmations) and decodes its call. */
export async function readAnchor(client: RpcClient, hash: Hex, confirmations: boolean): Promise<AnchorRead> {
  let transaction: Awaited<ReturnType<typeof getTransaction>>;
  try {
    transaction = await getTransaction(client, { hash });
  } catch (error) {
    return { found: false, error: message(error) };
  }
  let status: Extract<AnchorRead, { found: true }>['status'];
  try {
    status = { ok: true, value: (await getTransactionReceipt(client, { hash })).status };
  } catch (error) {
    status = { ok: false, error: message(error) };
  }
  let head: Extract<AnchorRead, { found: true }>['head'];
  let finalized: bigint | null | undefined;
  if (confirmations) {
    try {
      head = { ok: true, value: await getBlockNumber(client, { cacheTime: 0 }) };
    } catch (error) {
      head = { ok: false, error: message(error) };
    }
    // Past this block the transaction can no longer be undone by a reorganisation (docs/integrity.md §8).
    finalized = await getBlock(client, { blockTag: 'finalized' }).then(
      (block) => block.number,
      () => null,
    );
  }
  let call: Extract<AnchorRead, { found: true }>['call'];
  try {
    const decoded = decodeFunctionData({ abi: ANCHOR_ABI, data: transaction.input });
    const [blockId, root] = (decoded.args ?? []) as readonly unknown[];
    call = { ok: true, functionName: decoded.functionName, blockId, root };
  } catch (error) {
    call = { ok: false, error: message(error) };
  }
  return {
    found: true,
    blockNumber: transaction.blockNumber,
    to: transaction.to,
    status,
    head,
    finalized,
    call,
  };
}

/** The chain id check: the node's chain is the receipt's. */
export function chainIdCheck(receipt: Pick<AnchorFields, 'chain_id'>, chainId: number): ReceiptCheck {
  const ok = receipt.chain_id !== null && chainId === Number(receipt.chain_id);
  return {
    name: 'chain_id',
    ok,
    detail: ok
      ? `node is on chain ${chainId}`
      : `node is on chain ${chainId}, receipt says ${receipt.chain_id}`,
    values: { node: String(chainId), recorded: String(receipt.chain_id) },
  };
}

/** The checks of a receipt against what the node said about its transaction (no request made here). */
export function transactionChecks(receipt: AnchorFields, read: AnchorRead): ReceiptCheck[] {
  const hash = String(receipt.transaction_hash);
  if (!read.found) {
    return [{ name: 'transaction', ok: false, detail: `${hash} not found: ${read.error}` }];
  }
  const checks: ReceiptCheck[] = [
    {
      name: 'transaction',
      ok: true,
      detail: `${hash} is in block ${read.blockNumber}`,
      values: { hash, block: String(read.blockNumber) },
    },
  ];
  const contract = receipt.contract_address;
  const contractOk = typeof contract === 'string' && ADDRESS.test(contract) && sameHex(read.to, contract);
  checks.push({
    name: 'contract',
    ok: contractOk,
    detail: contractOk ? `sent to ${read.to}` : `sent to ${read.to}, receipt says ${contract}`,
    values: { to: String(read.to), recorded: String(contract) },
  });
  checks.push(
    read.status.ok
      ? {
          name: 'status',
          ok: read.status.value === 'success',
          detail: `receipt status ${read.status.value}`,
          values: { status: read.status.value },
        }
      : { name: 'status', ok: false, detail: `no transaction receipt: ${read.status.error}` },
  );
  if (read.head) {
    if (read.head.ok) {
      // A transaction in the head block has one confirmation; one still in the mempool has none.
      const head = read.head.value;
      const count = read.blockNumber === null ? 0n : head - read.blockNumber + 1n;
      // Final: its block is at or below the node's finalized block ("unknown" on a node without one).
      const finalized = read.finalized ?? null;
      const final =
        finalized === null
          ? 'unknown'
          : read.blockNumber !== null && read.blockNumber <= finalized
            ? 'yes'
            : 'no';
      checks.push({
        name: 'confirmations',
        ok: count >= 1n,
        detail: `${count} confirmations (head block ${head})${final === 'unknown' ? '' : final === 'yes' ? `, final (finalized block ${finalized})` : `, not final yet (finalized block ${finalized})`}`,
        values: {
          count: String(count),
          head: String(head),
          final,
          finalized: finalized === null ? '' : String(finalized),
        },
      });
    } else {
      checks.push({
        name: 'confirmations',
        ok: false,
        detail: `cannot read the head block: ${read.head.error}`,
      });
    }
  }
  if (!read.call.ok) {
    checks.push({
      name: 'anchor_call',
      ok: false,
      detail: `input is not an Anchor call: ${read.call.error}`,
    });
    return checks;
  }
  const { functionName, blockId, root } = read.call;
  const blockOk =
    typeof blockId === 'bigint' &&
    Number.isSafeInteger(receipt.block_id) &&
    blockId === BigInt(receipt.block_id);
  const rootOk = sameHex(root, receipt.root);
  const ok = functionName === 'anchor' && blockOk && rootOk;
  const called = `${functionName}(${String(blockId)}, ${String(root)})`;
  checks.push({
    name: 'anchor_call',
    ok,
    detail: ok ? called : `${called}, receipt says anchor(${receipt.block_id}, ${receipt.root})`,
    values: {
      function: functionName,
      block: String(blockId),
      root: String(root),
      recordedBlock: String(receipt.block_id),
      recordedRoot: String(receipt.root),
    },
  });
  return checks;
}

/** Names of the chain checks, in order (confirmations only when asked for). */
export function chainCheckNames(confirmations: boolean | undefined): CheckName[] {
  const names: CheckName[] = ['chain_id', 'transaction', 'contract', 'status'];
  if (confirmations) names.push('confirmations');
  names.push('anchor_call');
  return names;
}

/** `checks`, completed with every missing chain check failed with `detail`, in order. */
export function withMissingFailed(
  checks: ReceiptCheck[],
  names: CheckName[],
  detail: string,
): ReceiptCheck[] {
  return names.map((name) => checks.find((check) => check.name === name) ?? { name, ok: false, detail });
}

export async function chainChecks(receipt: AnchorFields, options: VerifyOptions): Promise<ReceiptCheck[]> {
  const names = chainCheckNames(options.confirmations);
  const client = rpcClient(options);
  if (!client) return withMissingFailed([], names, 'no RPC URL (pass --rpc URL)');
  let chainId: number;
  try {
    chainId = await getChainId(client);
  } catch (error) {
    return withMissingFailed([], names, `cannot reach the node: ${message(error)}`);
  }
  const checks = [chainIdCheck(receipt, chainId)];
  const hash = receipt.transaction_hash;
  if (typeof hash !== 'string' || !HEX32.test(hash)) {
    return withMissingFailed(checks, names, 'the receipt has no transaction hash');
  }
  checks.push(
    ...transactionChecks(receipt, await readAnchor(client, hash as Hex, Boolean(options.confirmations))),
  );
  return withMissingFailed(checks, names, 'no transaction');
}

/** The checks made without a node: format, leaf from the record, proof folded into the root. */
export function recordChecks(receipt: ReceiptInput, fold?: Fold): ReceiptCheck[] {
  const format = formatCheck(receipt);
  if (!format.ok && (typeof receipt !== 'object' || receipt === null)) return [format];
  return [format, leafCheck(receipt), rootCheck(receipt as AnchorFields, fold)];
}

/** Every check of a receipt; ok only when all pass (format 2: when every link passes or is unavailable). */
export async function verifyReceipt(
  receipt: ReceiptInput,
  options: VerifyOptions = {},
): Promise<ReceiptVerification> {
  if (isFormat2(receipt)) return verifyFormat2(receipt, options);
  const checks = recordChecks(receipt);
  if (checks.length > 1) checks.push(...(await chainChecks(receipt as ProofReceipt, options)));
  return { ok: checks.every((check) => check.ok), checks };
}

/**
 * Format 2: the record checks and, when the customer anchors, the chain checks of the record's anchor;
 * then the four links. A customer without blockchain has (1) and (2) only: (3) and (4) are unavailable.
 */
async function verifyFormat2(receipt: ProofReceiptV2, options: VerifyOptions): Promise<ReceiptVerification> {
  const format = formatCheck(receipt);
  if (!format.ok) return { ok: false, checks: [format] };
  const leaf = leafCheck(receipt);
  const evidence = receipt.device;
  const links: LinkResult[] = [
    await signatureLink(evidence),
    await signedValuesLink(evidence, receipt.record),
  ];
  const checks = [format, leaf];
  if (receipt.blockchain === false) {
    links.push(...unavailableLinks());
  } else {
    const anchor = receipt as ProofReceiptV2 & AnchorFields;
    checks.push(rootCheck(anchor), ...(await chainChecks(anchor, options)));
    const keyAnchorChecks = (keyAnchor: ReceiptKeyAnchor) =>
      chainChecks(
        {
          leaf: keyEventLeafHash({ ...evidence.key, id: evidence.key.event_id }),
          proof: keyAnchor.proof,
          root: keyAnchor.root,
          block_id: keyAnchor.block_id,
          chain_id: receipt.chain_id,
          contract_address: receipt.contract_address,
          transaction_hash: keyAnchor.transaction_hash,
        },
        options,
      );
    links.push(await keyLink(evidence, receipt.record, receipt.block_id, keyAnchorChecks));
    links.push(anchoredLink(checks.slice(1)));
  }
  const ok = links.every((link) => link.status !== 'fail') && leaf.ok;
  return { ok, checks, links };
}
