/**
 * Collect: the waiting records a new block is made of. They are read in pages without locks (locking
 * happens when the block is stored, store.ts), each kept as its leaf (computed in time slices) and the
 * little else a block needs; then the batch rule says how many of them make a block now, if any.
 * Signed report versions waiting for an anchor ride along in the next block, or make one of their own
 * once the oldest has waited as long as a record would (docs/integrity.md §10).
 */
import { sql } from 'drizzle-orm';
import { type KeyEventFields, mapSliced, type Slicer } from '#shared/integrity/index.ts';
import type { AnchoringContext } from './context.ts';
import { blockLeaf, RECORD_FIELDS_SQL, type RecordRow } from './record-leaf.ts';
import { KEY_EVENT_FIELDS_SQL, keyEventLeaf, type ReportLeafRow, reportLeaf } from './side-leaves.ts';

/** Records read per query when collecting a block. */
const READ_PAGE = 5000;

/** A waiting record as a block is made of it: what the block needs, not the whole row. */
export type Candidate = { id: string; serial: string; createdAt: number; leaf: Uint8Array };
/** A signed report version waiting for its anchor (report_versions.id), as its leaf. */
export type ReportCandidate = { versionId: string; createdAt: number; leaf: Uint8Array };
/** A device key event waiting for its anchor (device_key_events.id), as its leaf. */
export type KeyEventCandidate = { eventId: string; createdAt: number; leaf: Uint8Array };
/** What one block is made of: records (in id order), then report versions, then key events (in id order). */
export type BlockContents = {
  records: Candidate[];
  reports: ReportCandidate[];
  keyEvents: KeyEventCandidate[];
};

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

/** Signed report versions without a block, oldest first (a batch at most: signatures are rare). */
async function readReportCandidates({ db, batchSize }: AnchoringContext): Promise<ReportCandidate[]> {
  const rows = await db.execute<ReportLeafRow & { id: number; signed_at: Date }>(sql`
    select id, report_id, version, sha256, signed_at from report_versions
    where blockchain_data_block_id is null order by id limit ${batchSize}`);
  return rows.rows.map((row) => ({
    versionId: String(row.id),
    createdAt: new Date(row.signed_at).getTime(),
    leaf: reportLeaf(row),
  }));
}

/**
 * Key events in one block at most: every one waiting, in practice (keys change rarely). A record's key
 * event exists before the record does, so taking them all puts it in the record's block or an earlier
 * one: a receipt's key is never anchored after its record (docs/integrity.md §14, link 3).
 */
const MAX_KEY_EVENTS_PER_BLOCK = 10_000;

/**
 * Key events without a block, oldest first: every device's, whatever its customer (a key's history is
 * anchored even for a clinic without blockchain, since every record's evidence starts there).
 */
async function readKeyEventCandidates({ db }: AnchoringContext): Promise<KeyEventCandidate[]> {
  const rows = await db.execute<KeyEventFields>(sql`
    select ${KEY_EVENT_FIELDS_SQL} from device_key_events
    where blockchain_data_block_id is null order by id limit ${MAX_KEY_EVENTS_PER_BLOCK}`);
  return rows.rows.map((row) => ({
    eventId: String(row.id),
    createdAt: new Date(row.effective_at).getTime(),
    leaf: keyEventLeaf(row),
  }));
}

/** The records, report versions and key events of the next block (all empty when no block is due). */
export async function collectBlockContents(
  context: AnchoringContext,
  slicer: Slicer,
): Promise<BlockContents> {
  const records = dueForBlock(context, await readCandidates(context, slicer));
  const reports = await readReportCandidates(context);
  const keyEvents = await readKeyEventCandidates(context);
  if (records.length > 0) return { records, reports, keyEvents };
  // Without records, the others make a block of their own once the oldest has waited as a record would.
  const oldest = Math.min(...[...reports, ...keyEvents].map((side) => side.createdAt));
  if (Date.now() - oldest >= context.intervalSeconds * 1000) return { records, reports, keyEvents };
  return { records: [], reports: [], keyEvents: [] };
}
