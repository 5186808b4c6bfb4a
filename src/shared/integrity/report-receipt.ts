/**
 * Report receipts (`uvtrace-report-receipt/1`, docs/integrity.md §10): what proves a signed report's PDF
 * was not changed after signing. The PDF's SHA-256 must be the receipt's; the report leaf made of it must
 * be the receipt's leaf; the leaf and proof must fold to the root that the receipt's transaction anchored
 * on chain (the same chain checks as a record's receipt, ./receipt.ts).
 * Not re-exported from ./index.ts, for the same reason as ./receipt.ts (viem's RPC client).
 */
import {
  type AnchorFields,
  chainChecks,
  type ReceiptCheck,
  type ReceiptVerification,
  rootCheck,
  type VerifyOptions,
} from './receipt.ts';
import { reportLeafHash, sha256Hex } from './report-leaf.ts';

export const REPORT_RECEIPT_FORMAT = 'uvtrace-report-receipt/1';

export type ReportReceipt = AnchorFields & {
  format: 'uvtrace-report-receipt/1';
  report_id: string;
  version: string;
  sha256: string;
  network: string | null;
};

const SHA256 = /^[0-9a-f]{64}$/;
const DIGITS = /^[1-9]\d*$/;

export function isReportReceipt(value: unknown): value is ReportReceipt {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { format?: unknown }).format === REPORT_RECEIPT_FORMAT
  );
}

function formatCheck(receipt: ReportReceipt): ReceiptCheck {
  const problems: string[] = [];
  if (receipt?.format !== REPORT_RECEIPT_FORMAT)
    problems.push(`format is ${JSON.stringify(receipt?.format)}`);
  if (typeof receipt?.report_id !== 'string' || !DIGITS.test(receipt.report_id))
    problems.push('report_id is not a number');
  if (typeof receipt?.version !== 'string' || !DIGITS.test(receipt.version))
    problems.push('version is not a number');
  if (typeof receipt?.sha256 !== 'string' || !SHA256.test(receipt.sha256))
    problems.push('sha256 is not 64 hex digits');
  if (!Number.isSafeInteger(receipt?.block_id)) problems.push('block_id is not an integer');
  return {
    name: 'format',
    ok: problems.length === 0,
    detail:
      problems.length === 0
        ? `${REPORT_RECEIPT_FORMAT}, report ${receipt.report_id} version ${receipt.version}`
        : problems.join('; '),
    values: { version: String(receipt?.version) },
  };
}

async function documentCheck(document: Uint8Array, receipt: ReportReceipt): Promise<ReceiptCheck> {
  const computed = await sha256Hex(document);
  const ok = computed === String(receipt.sha256).toLowerCase();
  return {
    name: 'document',
    ok,
    detail: ok
      ? `the PDF's SHA-256 is ${computed}`
      : `the PDF's SHA-256 is ${computed}, receipt says ${receipt.sha256}`,
    values: { computed, recorded: String(receipt.sha256) },
  };
}

function leafCheck(receipt: ReportReceipt): ReceiptCheck {
  try {
    const computed = reportLeafHash(receipt.report_id, receipt.version, receipt.sha256);
    const ok = computed.toLowerCase() === String(receipt.leaf).toLowerCase();
    return {
      name: 'leaf',
      ok,
      detail: ok ? `report leaf is ${computed}` : `report leaf is ${computed}, receipt says ${receipt.leaf}`,
      values: { computed, recorded: String(receipt.leaf), fields: '' },
    };
  } catch (error) {
    return { name: 'leaf', ok: false, detail: `cannot compute the leaf: ${String(error)}` };
  }
}

/** Every check of a signed report's PDF against its receipt and the chain; ok only when all pass. */
export async function verifyReportReceipt(
  document: Uint8Array,
  receipt: ReportReceipt,
  options: VerifyOptions = {},
): Promise<ReceiptVerification> {
  const format = formatCheck(receipt);
  const checks: ReceiptCheck[] = [format];
  if (format.ok) {
    checks.push(
      await documentCheck(document, receipt),
      leafCheck(receipt),
      rootCheck(receipt),
      ...(await chainChecks(receipt, options)),
    );
  }
  return { ok: checks.every((check) => check.ok), checks };
}
