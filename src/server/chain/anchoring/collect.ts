/**
 * Collect: the waiting records a new block is made of. They are read in pages without locks (locking
 * happens when the block is stored, store.ts), each kept as its leaf (computed in time slices) and the
 * little else a block needs; then the batch rule says how many of them make a block now, if any.
 */
import { sql } from 'drizzle-orm';
import { mapSliced, type Slicer } from '../../../shared/integrity/index.ts';
import type { AnchoringContext } from './context.ts';
import { blockLeaf, RECORD_FIELDS_SQL, type RecordRow } from './record-leaf.ts';

/** Records read per query when collecting a block. */
const READ_PAGE = 5000;

/** A waiting record as a block is made of it: what the block needs, not the whole row. */
export type Candidate = { id: string; serial: string; createdAt: number; leaf: Uint8Array };

/** Unanchored records of blockchain-enabled customers in id order, at most maxBlock of them. */
async function readCandidates({ db, maxBlock }: AnchoringContext, slicer: Slicer): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  let after = 0;
  while (candidates.length < maxBlock) {
    const page = await db.execute<RecordRow>(sql`
      select ${RECORD_FIELDS_SQL}, s.created_at
      from sterilizations s
      join devices d on d.id = s.device_id
      join customers c on c.id = s.customer_id
      where s.blockchain_data_block_id is null and c.enable_blockchain and s.id > ${after}
      order by s.id
      limit ${Math.min(READ_PAGE, maxBlock - candidates.length)}`);
    const computed = await mapSliced(
      page.rows,
      (row): Candidate => ({
        id: String(row.id),
        serial: row.device_serial,
        createdAt: new Date(row.created_at).getTime(),
        leaf: blockLeaf(row),
      }),
      slicer,
    );
    for (const candidate of computed) candidates.push(candidate);
    if (page.rows.length < READ_PAGE) break;
    after = Number(page.rows[page.rows.length - 1]!.id);
  }
  return candidates;
}

/**
 * The batch rule: a backlog of at least two batches is taken whole (up to maxBlock), one batch is taken
 * as a batch, and fewer records only once the oldest has waited intervalSeconds. Empty: nothing is due.
 */
function dueForBlock({ batchSize, intervalSeconds }: AnchoringContext, candidates: Candidate[]): Candidate[] {
  if (candidates.length === 0) return [];
  let take: number;
  if (candidates.length >= 2 * batchSize) take = candidates.length;
  else if (candidates.length >= batchSize) take = batchSize;
  else {
    let oldest = Number.POSITIVE_INFINITY;
    for (const candidate of candidates) oldest = Math.min(oldest, candidate.createdAt);
    if (Date.now() - oldest < intervalSeconds * 1000) return [];
    take = candidates.length;
  }
  return candidates.slice(0, take);
}

/** The records of the next block, in id order (empty when no block is due). */
export async function collectBlockRecords(context: AnchoringContext, slicer: Slicer): Promise<Candidate[]> {
  return dueForBlock(context, await readCandidates(context, slicer));
}
