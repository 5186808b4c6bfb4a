/**
 * Store: a built block's records are locked (FOR UPDATE SKIP LOCKED) and, when every one is still
 * free, still eligible and still has the device serial it was hashed with, written into the block
 * (PENDING, with its root) with their block id, hashing_version and proof. A record is in one block.
 *
 * A block of more than writePage records is written in one transaction per part with its root last:
 * only a block with a root is sent, and one left without (a crash) is undone after abandonedAfterMs.
 * The block's report versions (few) are written with its last part, the same way (locked, still free).
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client.ts';
import type { Slicer } from '#shared/integrity/index.ts';
import { type BuiltBlock, proofsLiteral } from './build.ts';
import type { AnchoringContext } from './context.ts';
import { BLOCK_HASHING_VERSION } from './record-leaf.ts';

/** Thrown to roll a transaction back when a block's records changed hands. */
class ChangedHands extends Error {}

/**
 * A PostgreSQL array literal of strings without quotes or backslashes (ids, hex), built as one flat
 * string: pg sends it as it is, where a string built up by concatenation would first be copied flat.
 */
function arrayLiteral(values: readonly string[]): string {
  const pieces = ['{'];
  for (let i = 0; i < values.length; i += 1) pieces.push(i === 0 ? '"' : ',"', values[i]!, '"');
  pieces.push('}');
  return pieces.join('');
}

/**
 * Records [from, to) of a built block: locked (FOR UPDATE SKIP LOCKED) and, when every one is still
 * unassigned, still eligible and still has the device serial it was hashed with, given their block id
 * and proof (proofs: proofsLiteral of the same range). False when any is not: another worker (or an
 * edit) got there first.
 */
async function storePart(
  { log }: AnchoringContext,
  tx: Tx,
  blockId: number,
  block: BuiltBlock,
  from: number,
  to: number,
  proofs: string,
) {
  const ids = arrayLiteral(block.ids.slice(from, to));
  const locked = await tx.execute<{ id: string; device_serial: string }>(sql`
    select s.id, d.device_serial
    from sterilizations s
    join devices d on d.id = s.device_id
    join customers c on c.id = s.customer_id
    where s.id = any(${ids}::bigint[]) and s.blockchain_data_block_id is null and c.enable_blockchain
    for update of s skip locked`);
  const serials = new Map(locked.rows.map((row) => [String(row.id), row.device_serial]));
  let same = serials.size === to - from;
  for (let i = from; same && i < to; i += 1) same = serials.get(block.ids[i]!) === block.serials[i];
  if (!same) {
    log.info(
      `anchor: records of a new block changed hands (${serials.size} of ${to - from} free), not stored`,
    );
    return false;
  }
  await tx.execute(sql`
    update sterilizations s
    set blockchain_data_block_id = ${blockId}, hashing_version = ${BLOCK_HASHING_VERSION},
        merkle_proof = string_to_array(v.proof, ',')
    from (select unnest(${ids}::bigint[]) as id, unnest(${proofs}::text[]) as proof) v
    where s.id = v.id`);
  return true;
}

/**
 * Leaves of a block that are not records (report versions, key events), from leaf `first` of its tree,
 * when each is still without a block; false when any was taken meanwhile.
 */
async function storeSideLeaves(
  tx: Tx,
  blockId: number,
  block: BuiltBlock,
  table: 'report_versions' | 'device_key_events',
  sideIds: string[],
  first: number,
): Promise<boolean> {
  if (sideIds.length === 0) return true;
  const ids = arrayLiteral(sideIds);
  const name = sql.raw(table);
  const locked = await tx.execute(sql`select id from ${name}
    where id = any(${ids}::int[]) and blockchain_data_block_id is null for update skip locked`);
  if (locked.rows.length !== sideIds.length) return false;
  const proofs = sideIds.map((_, i) => block.tree.proof(first + i).join(','));
  await tx.execute(sql`
    update ${name} v set blockchain_data_block_id = ${blockId}, merkle_proof = string_to_array(p.proof, ',')
    from (select unnest(${ids}::int[]) as id, unnest(${arrayLiteral(proofs)}::text[]) as proof) p
    where v.id = p.id`);
  return true;
}

/** The block's report versions and key events (the leaves after its records). */
async function storeReports(tx: Tx, blockId: number, block: BuiltBlock): Promise<boolean> {
  const reportsFrom = block.ids.length;
  const keyEventsFrom = reportsFrom + block.reportVersionIds.length;
  return (
    (await storeSideLeaves(tx, blockId, block, 'report_versions', block.reportVersionIds, reportsFrom)) &&
    (await storeSideLeaves(tx, blockId, block, 'device_key_events', block.keyEventIds, keyEventsFrom))
  );
}

/** A block of at most writePage records: the block row, every record and report version in one transaction. */
async function storeWhole(context: AnchoringContext, block: BuiltBlock): Promise<number | null> {
  const { db, chain } = context;
  const proofs = proofsLiteral(block, 0, block.ids.length);
  try {
    return await db.transaction(async (tx) => {
      const inserted = await tx.execute<{ id: number }>(sql`
        insert into blockchain_data_blocks (status, network, merkle_root, hashing_version)
        values ('PENDING', ${chain.network}, ${block.tree.root}, ${BLOCK_HASHING_VERSION})
        returning id`);
      const blockId = Number(inserted.rows[0]!.id);
      if (!(await storePart(context, tx, blockId, block, 0, block.ids.length, proofs))) {
        throw new ChangedHands();
      }
      if (!(await storeReports(tx, blockId, block))) throw new ChangedHands();
      return blockId;
    });
  } catch (error) {
    if (error instanceof ChangedHands) return null;
    throw error;
  }
}

/**
 * A larger block in one transaction per writePage records, so that other queries get the database in
 * between (the embedded one has a single connection). Its root is written last: until then the block
 * is not sent (sendPending skips a block without a root), and a block a crashed run left that way is
 * undone after abandonedAfterMs (releaseAbandoned).
 */
async function storeInParts(
  context: AnchoringContext,
  block: BuiltBlock,
  slicer: Slicer,
): Promise<number | null> {
  const { db, chain, writePage, log } = context;
  const inserted = await db.execute<{ id: number }>(sql`
    insert into blockchain_data_blocks (status, network, merkle_root, hashing_version)
    values ('PENDING', ${chain.network}, null, ${BLOCK_HASHING_VERSION})
    returning id`);
  const blockId = Number(inserted.rows[0]!.id);
  for (let from = 0; from < block.ids.length; from += writePage) {
    const to = Math.min(from + writePage, block.ids.length);
    if (slicer.due()) await slicer.pause();
    const proofs = proofsLiteral(block, from, to);
    const stored = await db.transaction(async (tx) => {
      // The block row's lock orders this part against releaseAbandoned.
      const mine = await tx.execute(sql`select id from blockchain_data_blocks
        where id = ${blockId} and status = 'PENDING' and merkle_root is null for update`);
      if (mine.rows.length === 0) return false;
      return storePart(context, tx, blockId, block, from, to, proofs);
    });
    if (!stored) {
      await releaseBlock(context, blockId);
      return null;
    }
    await context.afterStoredPart?.(blockId);
  }
  let completed: boolean;
  try {
    completed = await db.transaction(async (tx) => {
      const root = await tx.execute(sql`update blockchain_data_blocks set merkle_root = ${block.tree.root}
        where id = ${blockId} and status = 'PENDING' and merkle_root is null`);
      if ((root.rowCount ?? 0) === 0) return false;
      if (!(await storeReports(tx, blockId, block))) throw new ChangedHands();
      return true;
    });
  } catch (error) {
    if (!(error instanceof ChangedHands)) throw error;
    await releaseBlock(context, blockId);
    return null;
  }
  if (!completed) return null;
  log.info(`anchor: block ${blockId} stored in parts`);
  return blockId;
}

/**
 * Stores a built block (whole, or in parts when it has more than writePage records); returns its id,
 * or null when any of its records changed hands meanwhile (nothing is kept then).
 */
export function storeBlock(
  context: AnchoringContext,
  block: BuiltBlock,
  slicer: Slicer,
): Promise<number | null> {
  return block.ids.length <= context.writePage
    ? storeWhole(context, block)
    : storeInParts(context, block, slicer);
}

/** Marks a root-less block FAILED and gives its records (and report versions) back, writePage records per statement. */
async function releaseBlock({ db, writePage }: AnchoringContext, blockId: number): Promise<void> {
  await db.execute(sql`update blockchain_data_blocks set status = 'FAILED'
    where id = ${blockId} and merkle_root is null and status = 'PENDING'`);
  await db.execute(sql`update report_versions set blockchain_data_block_id = null, merkle_proof = null
    where blockchain_data_block_id = ${blockId}`);
  await db.execute(sql`update device_key_events set blockchain_data_block_id = null, merkle_proof = null
    where blockchain_data_block_id = ${blockId}`);
  for (;;) {
    // The block id is checked on the row itself too: a row another releaser freed and a worker put in
    // a new block meanwhile is re-checked after the lock wait, and left alone.
    const released = await db.execute(sql`
      update sterilizations set blockchain_data_block_id = null, hashing_version = null, merkle_proof = null
      where blockchain_data_block_id = ${blockId}
        and id in (select id from sterilizations where blockchain_data_block_id = ${blockId} limit ${writePage})`);
    if ((released.rowCount ?? 0) === 0) return;
  }
}

/** Blocks a crashed run left half-stored (no root) for longer than abandonedAfterMs are undone. */
export async function releaseAbandoned(context: AnchoringContext): Promise<void> {
  const { db, abandonedAfterMs, log } = context;
  const abandoned = await db.execute<{ id: number }>(sql`
    select b.id from blockchain_data_blocks b
    where b.merkle_root is null and (
      (b.status = 'PENDING' and b.created_at < now() - make_interval(secs => ${abandonedAfterMs / 1000}))
      or (b.status = 'FAILED' and exists (select 1 from sterilizations s where s.blockchain_data_block_id = b.id)))`);
  for (const { id } of abandoned.rows) {
    log.warn(`anchor: block ${id} was left half-stored: its records go back to waiting`);
    await releaseBlock(context, Number(id));
  }
}
