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
import {
  type ReceiptInput,
  type ReceiptVerification,
  type VerifyOptions,
  verifyReceipt as verifyWithNode,
} from '../src/shared/integrity/receipt.ts';

// The checks live in src/shared/integrity/receipt.ts, shared with the public /verify page.
export {
  type CheckName,
  RECEIPT_FORMAT,
  type ReceiptCheck,
  type ReceiptInput,
  type ReceiptVerification,
} from '../src/shared/integrity/receipt.ts';

const message = (error: unknown) =>
  error instanceof Error ? (error as { shortMessage?: string }).shortMessage || error.message : String(error);

/** Every check of a receipt; the node is --rpc, else the receipt's own rpc_url when it has one. */
export function verifyReceipt(
  receipt: ReceiptInput,
  options: Omit<VerifyOptions, 'confirmations'> = {},
): Promise<ReceiptVerification> {
  const rpcUrl = options.rpcUrl ?? (typeof receipt?.rpc_url === 'string' ? receipt.rpc_url : undefined);
  return verifyWithNode(receipt, { ...options, rpcUrl });
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
