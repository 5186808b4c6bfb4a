/**
 * Verifies a proof receipt (`uvtrace-proof-receipt/1`, the modal's "Download proof") or a proof bundle
 * (`uvtrace-proof-bundle/1`, the sterilization list's "Download proofs") standalone:
 *   npm run verify-receipt -- receipt.json|bundle.json [--rpc URL]
 * Checks, each printed as passed/failed: the receipt's format; the leaf recomputed from its record
 * (with the receipt's hashing_version, 1 or 2: a block keeps the version it was made with) equals its leaf; folding its proof from that leaf gives its root; and over JSON-RPC
 * (--rpc, else the receipt's rpc_url when it has one) the chain id matches, the transaction exists, was
 * sent to the receipt's contract, succeeded, and is the call anchor(block_id, root). Exits 1 when any
 * check fails, 2 on a usage error.
 * A bundle: every anchored record gets the same checks (each distinct transaction read once); the
 * records that fail are named with the checks they failed, records not anchored are listed; exits 1
 * when any record fails.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { type BundleVerification, isProofBundle, verifyBundle } from '#shared/integrity/bundle.ts';
import {
  type ReceiptInput,
  type ReceiptVerification,
  type VerifyOptions,
  verifyReceipt as verifyWithNode,
} from '#shared/integrity/receipt.ts';

// The checks live in src/shared/integrity/receipt.ts, shared with the public /verify page.
export {
  type CheckName,
  type ProofReceipt,
  RECEIPT_FORMAT,
  type ReceiptCheck,
  type ReceiptInput,
  type ReceiptVerification,
} from '#shared/integrity/receipt.ts';

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

/** A bundle's outcome: the failing records by id with each failed check, then the unanchored ones. */
export function printBundle(result: BundleVerification, log: (line: string) => void = console.log): void {
  for (const failure of result.failed) {
    const name = failure.index < 0 ? 'bundle' : `record ${failure.id ?? '?'} (#${failure.index + 1})`;
    for (const check of failure.checks) {
      log(`FAILED  ${name}  ${check.name.padEnd(11)} ${check.detail}`);
    }
  }
  for (const record of result.notAnchored) {
    log(`not anchored  record ${record.id ?? '?'} (#${record.index + 1})  ${record.status}`);
  }
  log(
    `${result.passed} of ${result.total} records verified, ${result.failed.length} failed, ` +
      `${result.notAnchored.length} not anchored (${result.transactions} transactions read)`,
  );
  if (result.failed.length > 0) {
    log(
      `bundle NOT verified: failing records ${result.failed.map((failure) => failure.id ?? '?').join(', ')}`,
    );
  } else log('bundle verified');
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
    console.error('usage: npm run verify-receipt -- receipt.json|bundle.json [--rpc URL]');
    return 2;
  }
  let receipt: ReceiptInput;
  try {
    receipt = JSON.parse(await readFile(file, 'utf8')) as ReceiptInput;
  } catch (error) {
    console.error(`cannot read ${file}: ${message(error)}`);
    return 2;
  }
  const parsed: unknown = receipt;
  if (isProofBundle(parsed)) {
    const result = await verifyBundle(parsed, { rpcUrl: values.rpc });
    printBundle(result);
    return result.ok ? 0 : 1;
  }
  const result = await verifyReceipt(receipt, { rpcUrl: values.rpc });
  for (const check of result.checks) {
    console.log(`${check.ok ? 'passed' : 'FAILED'}  ${check.name.padEnd(11)} ${check.detail}`);
  }
  // A receipt of format 2: the four links from the device's key to the chain, each on its own.
  for (const [i, link] of (result.links ?? []).entries()) {
    const status = { pass: 'passed', fail: 'FAILED', unavailable: 'n/a' }[link.status];
    console.log(`${status.padEnd(6)}  (${i + 1}) ${link.link.padEnd(16)} ${link.detail}`);
  }
  console.log(result.ok ? 'receipt verified' : 'receipt NOT verified');
  return result.ok ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();
