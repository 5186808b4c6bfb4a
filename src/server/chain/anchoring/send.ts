/**
 * Send: a stored block's root goes to the contract. The transaction is signed locally, so its hash is
 * known first; the hash is stored (SENT) with a compare-and-set on the expected row, and only the
 * winner broadcasts. Before signing, the contract is asked whether the block id is already anchored
 * (a transaction of a crashed run): then that transaction is adopted, found by its event.
 * The contract refuses a second anchor of a block id, so a block is anchored on chain at most once.
 */
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { describeError } from '#server/db/error-causes.ts';
import { isUnreachable } from '../reachability.ts';
import type { AnchoringContext } from './context.ts';

/** A block row as sending and confirming read it. */
export type BlockRow = {
  id: number;
  status: string;
  merkle_root: Hex;
  transaction_hash: Hex | null;
  sent_at: string | Date | null;
};

/** Stores the hash first (compare-and-set on the expected state), then broadcasts. */
export async function signAndSend(context: AnchoringContext, block: BlockRow): Promise<void> {
  const { db, chain, log } = context;
  const prepared = await chain.prepareAnchor(block.id, block.merkle_root);
  const claimed = await db.execute(
    block.transaction_hash === null
      ? sql`update blockchain_data_blocks
            set status = 'SENT', transaction_hash = ${prepared.hash}, network = ${chain.network}, sent_at = now()
            where id = ${block.id} and status = 'PENDING' and transaction_hash is null`
      : sql`update blockchain_data_blocks set transaction_hash = ${prepared.hash}, sent_at = now()
            where id = ${block.id} and status = 'SENT' and transaction_hash = ${block.transaction_hash}`,
  );
  if ((claimed.rowCount ?? 0) === 0) return; // another worker got there first
  await context.beforeBroadcast?.(block.id);
  try {
    await chain.broadcast(prepared.serialized);
    log.info(`anchor: block ${block.id} sent in ${prepared.hash}`);
  } catch (error) {
    // E.g. a nonce taken by another process: the stored hash stays unknown and is re-sent later.
    log.warn(`anchor: broadcasting block ${block.id} failed: ${describeError(error)}`);
    // No node took it: re-sent as soon as a node answers and does not know it (not resendAfterMs later).
    if (isUnreachable(error)) {
      await db.execute(sql`update blockchain_data_blocks set sent_at = null
        where id = ${block.id} and status = 'SENT' and transaction_hash = ${prepared.hash}`);
      throw error;
    }
  }
}

/** When the contract already holds this block id: adopt the transaction that put it there. */
export async function adoptExisting({ db, chain, log }: AnchoringContext, block: BlockRow): Promise<boolean> {
  const anchored = await chain.anchoredRoot(block.id);
  if (anchored === null) return false;
  if (anchored.toLowerCase() !== block.merkle_root.toLowerCase()) {
    log.error(`anchor: block ${block.id} is anchored on chain with another root (${anchored}): FAILED`);
    await db.execute(sql`update blockchain_data_blocks set status = 'FAILED' where id = ${block.id}`);
    return true;
  }
  const hash = await chain.findAnchorTransaction(block.id);
  if (!hash) return false;
  await db.execute(
    block.transaction_hash === null
      ? sql`update blockchain_data_blocks
            set status = 'SENT', transaction_hash = ${hash}, network = ${chain.network}, sent_at = coalesce(sent_at, now())
            where id = ${block.id} and status = 'PENDING'`
      : sql`update blockchain_data_blocks set transaction_hash = ${hash}
            where id = ${block.id} and status = 'SENT' and transaction_hash = ${block.transaction_hash}`,
  );
  return true;
}

/** Sends every PENDING block that has its root (at most 50 a call); stops early when halting() says so. */
export async function sendPending(context: AnchoringContext, halting: () => boolean): Promise<void> {
  const { db, log } = context;
  const pending = await db.execute<BlockRow>(sql`
    select id, status, merkle_root, transaction_hash, sent_at from blockchain_data_blocks
    where status = 'PENDING' and merkle_root is not null order by id limit 50`);
  for (const block of pending.rows) {
    if (halting()) break;
    try {
      if (!(await adoptExisting(context, block))) await signAndSend(context, block);
    } catch (error) {
      if (isUnreachable(error)) return;
      log.warn(`anchor: sending block ${block.id} failed, will retry: ${describeError(error)}`);
    }
  }
}
