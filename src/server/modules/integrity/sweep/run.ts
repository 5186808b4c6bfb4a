/**
 * A whole integrity sweep in one go (`npm run integrity:sweep`, and the server's answer to it through
 * its control socket), and the lines its report is printed in (docs/backups.md, "Reading the sweep").
 */
import {
  addCounts,
  type Mismatch,
  NO_COUNTS,
  START_POSITION,
  type SweepContext,
  type SweepCounts,
  type SweepPosition,
  sweepSlice,
} from './checks.ts';

export interface SweepSummary {
  counts: SweepCounts;
  mismatches: number;
  milliseconds: number;
}

/** Work per slice of a sweep run in one go: large, nothing else waits for it. */
const WHOLE_SWEEP_SLICE = 5_000;

/** Runs every phase to its end; each mismatch is handed to `onMismatch` as it is found. */
export async function runIntegritySweep(
  context: SweepContext,
  onMismatch: (mismatch: Mismatch) => void = () => {},
  sliceSize = WHOLE_SWEEP_SLICE,
): Promise<SweepSummary> {
  const started = performance.now();
  let counts = NO_COUNTS;
  let mismatches = 0;
  for (let position: SweepPosition | null = START_POSITION; position; ) {
    const slice = await sweepSlice(context, position, sliceSize);
    counts = addCounts(counts, slice.counts);
    mismatches += slice.mismatches.length;
    for (const mismatch of slice.mismatches) onMismatch(mismatch);
    position = slice.next;
  }
  return { counts, mismatches, milliseconds: performance.now() - started };
}

/** One mismatch as a report line: what failed, then the sentence naming the record, block or token. */
export function mismatchLine(mismatch: Mismatch): string {
  const subject = [
    mismatch.recordId !== undefined ? `record=${mismatch.recordId}` : undefined,
    mismatch.blockId !== undefined ? `block=${mismatch.blockId}` : undefined,
    mismatch.tokenId !== undefined ? `token=${mismatch.tokenId}` : undefined,
    mismatch.field ? `field=${mismatch.field}` : undefined,
  ].filter(Boolean);
  return `MISMATCH ${mismatch.check} ${subject.join(' ')}${subject.length ? ' ' : ''}— ${mismatch.message}`;
}

const count = (value: number) => value.toLocaleString('en-US');

/** The summary lines printed after the mismatches. */
export function summaryLines(summary: SweepSummary): string[] {
  const { counts } = summary;
  const seconds = summary.milliseconds / 1000;
  const recordsPerSecond = seconds > 0 ? Math.round(counts.records / seconds) : counts.records;
  return [
    `records recomputed in their blocks: ${count(counts.records)} in ${count(counts.blocks)} blocks (${count(recordsPerSecond)} records/s)`,
    `blocks compared with their anchor transaction: ${count(counts.blocksOnChain)}` +
      (counts.blocksNotOnChain > 0
        ? ` (${count(counts.blocksNotOnChain)} MINED or FINAL blocks not compared: no chain of their network to ask)`
        : ''),
    `records compared with what their device signed: ${count(counts.signedRecords)}`,
    `device tokens (SHA-256 and RS256 signature): ${count(counts.tokens)}`,
    `signed report versions (PDF SHA-256): ${count(counts.reportVersions)}`,
    `audit trail entries (hash chain): ${count(counts.auditEntries)}`,
    summary.mismatches === 0
      ? `integrity sweep passed in ${seconds.toFixed(1)} s: no mismatch`
      : `integrity sweep FAILED in ${seconds.toFixed(1)} s: ${count(summary.mismatches)} mismatch${summary.mismatches === 1 ? '' : 'es'} (listed above)`,
  ];
}
