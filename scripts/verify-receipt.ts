/**
 * Verifies a proof receipt (`uvtrace-proof-receipt/1`, the modal's "Download proof") standalone:
 *   npm run verify-receipt -- receipt.json [--rpc URL]
 * Checks, each printed as passed/failed: the receipt's format; the leaf recomputed from its record
 * (with the receipt's hashing_version, 1 or 2: a block keeps the version it was made with) equals its leaf; folding its proof from that leaf gives its root; and over JSON-RPC
 * (--rpc, else the receipt's rpc_url when it has one) the chain id matches, the transaction exists, was
 * sent to the receipt's contract, succeeded, and is the call anchor(block_id, root). Exits 1 when any
 * check fails, 2 on a usage error.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createPublicClient, decodeFunctionData, type Hex, http, type Transport } from 'viem';
import type { ProofReceipt } from '../src/client/features/integrity/verification.ts';
import { ANCHOR_ABI } from '../src/server/chain/artifact.ts';
import {
  HASHING_VERSIONS,
  isHashingVersion,
  leafHash,
  processProof,
  recordFromForm,
} from '../src/shared/integrity/index.ts';

export const RECEIPT_FORMAT = 'uvtrace-proof-receipt/1';

export type CheckName =
  | 'format'
  | 'leaf'
  | 'root'
  | 'chain_id'
  | 'transaction'
  | 'contract'
  | 'status'
  | 'anchor_call';

export type ReceiptCheck = { name: CheckName; ok: boolean; detail: string };
export type ReceiptVerification = { ok: boolean; checks: ReceiptCheck[] };

/** A receipt as read from a file: the browser's shape, possibly with the node's URL. */
export type ReceiptInput = ProofReceipt & { rpc_url?: string | null };

export type VerifyOptions = {
  /** JSON-RPC URL of a node of the receipt's chain; defaults to the receipt's rpc_url. */
  rpcUrl?: string | undefined;
  /** A viem transport to use instead of http(rpcUrl) (tests: an in-process node). */
  transport?: Transport | undefined;
};

const HEX32 = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const sameHex = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

const message = (error: unknown) =>
  error instanceof Error ? (error as { shortMessage?: string }).shortMessage || error.message : String(error);

function formatCheck(receipt: ReceiptInput): ReceiptCheck {
  const problems: string[] = [];
  if (receipt?.format !== RECEIPT_FORMAT) problems.push(`format is ${JSON.stringify(receipt?.format)}`);
  if (!isHashingVersion(receipt?.hashing_version)) {
    problems.push(
      `hashing_version ${JSON.stringify(receipt?.hashing_version)} is not one of ${HASHING_VERSIONS.join(', ')}`,
    );
  }
  if (typeof receipt?.record !== 'object' || receipt.record === null) problems.push('no record');
  if (!Number.isSafeInteger(receipt?.block_id)) problems.push('block_id is not an integer');
  return {
    name: 'format',
    ok: problems.length === 0,
    detail:
      problems.length === 0
        ? `${RECEIPT_FORMAT}, hashing_version ${receipt.hashing_version}`
        : problems.join('; '),
  };
}

function leafCheck(receipt: ReceiptInput): ReceiptCheck {
  try {
    const version = receipt.hashing_version;
    if (!isHashingVersion(version)) {
      return { name: 'leaf', ok: false, detail: `cannot hash with hashing_version ${version}` };
    }
    const computed = leafHash(recordFromForm(receipt.record), version);
    const ok = sameHex(computed, receipt.leaf);
    return {
      name: 'leaf',
      ok,
      detail: ok
        ? `record hashes to ${computed}`
        : `record hashes to ${computed}, receipt says ${receipt.leaf}`,
    };
  } catch (error) {
    return { name: 'leaf', ok: false, detail: `cannot compute the leaf: ${message(error)}` };
  }
}

function rootCheck(receipt: ReceiptInput): ReceiptCheck {
  try {
    if (typeof receipt.leaf !== 'string' || !HEX32.test(receipt.leaf)) {
      return { name: 'root', ok: false, detail: 'the leaf is not a 32-byte hex value' };
    }
    if (!Array.isArray(receipt.proof) || !receipt.proof.every((node) => HEX32.test(String(node)))) {
      return { name: 'root', ok: false, detail: 'the proof is not a list of 32-byte hex values' };
    }
    if (typeof receipt.root !== 'string')
      return { name: 'root', ok: false, detail: 'the receipt has no root' };
    const folded = processProof(receipt.leaf as Hex, receipt.proof as Hex[]);
    const ok = sameHex(folded, receipt.root);
    return {
      name: 'root',
      ok,
      detail: ok
        ? `leaf and ${receipt.proof.length}-node proof fold to ${folded}`
        : `leaf and proof fold to ${folded}, receipt says ${receipt.root}`,
    };
  } catch (error) {
    return { name: 'root', ok: false, detail: `cannot fold the proof: ${message(error)}` };
  }
}

const CHAIN_CHECKS: CheckName[] = ['chain_id', 'transaction', 'contract', 'status', 'anchor_call'];

async function chainChecks(receipt: ReceiptInput, options: VerifyOptions): Promise<ReceiptCheck[]> {
  const checks: ReceiptCheck[] = [];
  const failRest = (detail: string) => {
    for (const name of CHAIN_CHECKS) {
      if (!checks.some((check) => check.name === name)) checks.push({ name, ok: false, detail });
    }
    return checks;
  };
  const rpcUrl = options.rpcUrl ?? (typeof receipt.rpc_url === 'string' ? receipt.rpc_url : undefined);
  if (!options.transport && !rpcUrl) return failRest('no RPC URL (pass --rpc URL)');
  const client = createPublicClient({ transport: options.transport ?? http(rpcUrl, { retryCount: 1 }) });

  try {
    const chainId = await client.getChainId();
    const ok = receipt.chain_id !== null && chainId === Number(receipt.chain_id);
    checks.push({
      name: 'chain_id',
      ok,
      detail: ok
        ? `node is on chain ${chainId}`
        : `node is on chain ${chainId}, receipt says ${receipt.chain_id}`,
    });
  } catch (error) {
    return failRest(`cannot reach the node: ${message(error)}`);
  }

  const hash = receipt.transaction_hash;
  if (typeof hash !== 'string' || !HEX32.test(hash)) return failRest('the receipt has no transaction hash');
  let transaction: Awaited<ReturnType<typeof client.getTransaction>>;
  try {
    transaction = await client.getTransaction({ hash: hash as Hex });
    checks.push({ name: 'transaction', ok: true, detail: `${hash} is in block ${transaction.blockNumber}` });
  } catch (error) {
    checks.push({ name: 'transaction', ok: false, detail: `${hash} not found: ${message(error)}` });
    return failRest('no transaction');
  }

  const contract = receipt.contract_address;
  const contractOk =
    typeof contract === 'string' && ADDRESS.test(contract) && sameHex(transaction.to, contract);
  checks.push({
    name: 'contract',
    ok: contractOk,
    detail: contractOk ? `sent to ${transaction.to}` : `sent to ${transaction.to}, receipt says ${contract}`,
  });

  try {
    const mined = await client.getTransactionReceipt({ hash: hash as Hex });
    checks.push({
      name: 'status',
      ok: mined.status === 'success',
      detail: `receipt status ${mined.status}`,
    });
  } catch (error) {
    checks.push({ name: 'status', ok: false, detail: `no transaction receipt: ${message(error)}` });
  }

  try {
    const call = decodeFunctionData({ abi: ANCHOR_ABI, data: transaction.input });
    const [blockId, root] = (call.args ?? []) as readonly unknown[];
    const blockOk = typeof blockId === 'bigint' && blockId === BigInt(receipt.block_id);
    const rootOk = sameHex(root, receipt.root);
    const ok = call.functionName === 'anchor' && blockOk && rootOk;
    const called = `${call.functionName}(${String(blockId)}, ${String(root)})`;
    checks.push({
      name: 'anchor_call',
      ok,
      detail: ok ? called : `${called}, receipt says anchor(${receipt.block_id}, ${receipt.root})`,
    });
  } catch (error) {
    checks.push({ name: 'anchor_call', ok: false, detail: `input is not an Anchor call: ${message(error)}` });
  }
  return checks;
}

/** Every check of a receipt; ok only when all pass. */
export async function verifyReceipt(
  receipt: ReceiptInput,
  options: VerifyOptions = {},
): Promise<ReceiptVerification> {
  const format = formatCheck(receipt);
  const checks: ReceiptCheck[] = [format];
  if (format.ok || (typeof receipt === 'object' && receipt !== null)) {
    checks.push(leafCheck(receipt), rootCheck(receipt), ...(await chainChecks(receipt, options)));
  }
  return { ok: checks.every((check) => check.ok), checks };
}

async function main(): Promise<number> {
  let values: { rpc?: string | undefined; help?: boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      allowPositionals: true,
      options: { rpc: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    console.error(message(error));
    return 2;
  }
  const file = positionals[0];
  if (values.help || !file || positionals.length > 1) {
    console.error('usage: npm run verify-receipt -- receipt.json [--rpc URL]');
    return 2;
  }
  let receipt: ReceiptInput;
  try {
    receipt = JSON.parse(await readFile(file, 'utf8')) as ReceiptInput;
  } catch (error) {
    console.error(`cannot read ${file}: ${message(error)}`);
    return 2;
  }
  const result = await verifyReceipt(receipt, { rpcUrl: values.rpc });
  for (const check of result.checks) {
    console.log(`${check.ok ? 'passed' : 'FAILED'}  ${check.name.padEnd(11)} ${check.detail}`);
  }
  console.log(result.ok ? 'receipt verified' : 'receipt NOT verified');
  return result.ok ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();
