/**
 * Send: a stored block's root goes to the contract. The transaction is signed locally, so its hash is
 * known first; the hash is stored (SENT, and in the block's anchor_transactions with the signed bytes,
 * nonce and fees) with a compare-and-set on the expected row, and only the winner broadcasts. Before
 * signing, the contract is asked whether the block id is already anchored (a transaction of a crashed
 * run): then that transaction is adopted, found by its event. The contract refuses a second anchor of a
 * block id, so a block is anchored on chain at most once.
 *
 * Fees come from the node's fee history and never exceed the ceiling (ANCHOR_MAX_FEE_GWEI). A block
 * whose transaction cannot be mined under it now (the next base fee is above it) waits, unsent, with a
 * staff-only anchor_fee_ceiling alert; a stuck transaction is replaced (fees.ts, from confirm.ts).
 */
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Db, Tx } from '#server/db/client.ts';
import { describeError } from '#server/db/error-causes.ts';
import type { FeeSuggestion, PreparedAnchor } from '../chain.ts';
import { isUnreachable } from '../reachability.ts';
import type { AnchoringContext } from './context.ts';
import { feesUnderCeiling, raiseFeeCeiling } from './fees.ts';

/** A block row as sending and confirming read it. */
export type BlockRow = {
  id: number;
  status: string;
  merkle_root: Hex;
  transaction_hash: Hex | null;
  sent_at: string | Date | null;
};

/** Keeps a signed transaction in the block's history (the same bytes again: the same row). */
export async function recordTransaction(
  db: Db | Tx,
  blockId: number,
  signed: PreparedAnchor,
  sentHeight: bigint,
): Promise<void> {
  await db.execute(sql`
    insert into anchor_transactions
      (block_id, hash, nonce, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, raw, sent_height)
    values (${blockId}, ${signed.hash}, ${signed.nonce}, ${Number(signed.gas)}, ${signed.maxFeePerGas.toString()},
      ${signed.maxPriorityFeePerGas.toString()}, ${signed.serialized}, ${Number(sentHeight)})
    on conflict (hash) do update set sent_at = now(), sent_height = excluded.sent_height,
      mined_height = null, gas_used = null, fee_paid_wei = null`);
}

/**
 * Broadcasts a stored transaction. A broadcast no node took is sent again as soon as a node answers and
 * does not know it (rethrown: the pass stops calling the node); a refusal is logged and left to confirm.
 */
export async function broadcastStored(
  context: AnchoringContext,
  blockId: number,
  signed: Pick<PreparedAnchor, 'hash' | 'serialized'>,
): Promise<boolean> {
  const { chain, log } = context;
  try {
    await chain.broadcast(signed.serialized);
    return true;
  } catch (error) {
    log.warn(`anchor: broadcasting block ${blockId}'s ${signed.hash} failed: ${describeError(error)}`);
    if (isUnreachable(error)) throw error;
    return false;
  }
}

/**
 * Signs with fees under the ceiling, stores the hash first (compare-and-set on the expected state),
 * then broadcasts. Answers false, and waits instead (alert raised), while nothing under the ceiling can
 * be mined. `suggested`: the fee suggestion of this pass, when the caller has one.
 */
export async function signAndSend(
  context: AnchoringContext,
  block: BlockRow,
  suggested?: FeeSuggestion,
): Promise<boolean> {
  const { db, chain, log } = context;
  const suggestion = suggested ?? (await chain.suggestFees());
  const fees = feesUnderCeiling(suggestion, context.maxFeePerGas);
  if (!fees) {
    await raiseFeeCeiling(context, block, suggestion.baseFeePerGas);
    return false;
  }
  const prepared = await chain.prepareAnchor(block.id, block.merkle_root, fees);
  const height = await chain.blockNumber();
  const claimed = await db.transaction(async (tx) => {
    const updated = await tx.execute(
      block.transaction_hash === null
        ? sql`update blockchain_data_blocks
              set status = 'SENT', transaction_hash = ${prepared.hash}, network = ${chain.network}, sent_at = now()
              where id = ${block.id} and status = 'PENDING' and transaction_hash is null`
        : sql`update blockchain_data_blocks set transaction_hash = ${prepared.hash}, sent_at = now()
              where id = ${block.id} and status = 'SENT' and transaction_hash = ${block.transaction_hash}`,
    );
    if ((updated.rowCount ?? 0) === 0) return false; // another worker got there first
    await recordTransaction(tx, block.id, prepared, height);
    return true;
  });
  if (!claimed) return true;
  await context.beforeBroadcast?.(block.id);
  if (await broadcastStored(context, block.id, prepared)) {
    log.info(`anchor: block ${block.id} sent in ${prepared.hash}`);
  }
  return true;
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
  await db.transaction(async (tx) => {
    const adopted = await tx.execute(
      block.transaction_hash === null
        ? sql`update blockchain_data_blocks
              set status = 'SENT', transaction_hash = ${hash}, network = ${chain.network}, sent_at = coalesce(sent_at, now())
              where id = ${block.id} and status = 'PENDING'`
        : sql`update blockchain_data_blocks set transaction_hash = ${hash}
              where id = ${block.id} and status = 'SENT' and transaction_hash = ${block.transaction_hash}`,
    );
    if ((adopted.rowCount ?? 0) > 0) {
      await tx.execute(sql`insert into anchor_transactions (block_id, hash)
        values (${block.id}, ${hash.toLowerCase()}) on conflict (hash) do nothing`);
    }
  });
  return true;
}

/** Sends every PENDING block that has its root (at most 50 a call); stops early when halting() says so. */
export async function sendPending(context: AnchoringContext, halting: () => boolean): Promise<void> {
  const { db, log } = context;
  const pending = await db.execute<BlockRow>(sql`
    select id, status, merkle_root, transaction_hash, sent_at from blockchain_data_blocks
    where status = 'PENDING' and merkle_root is not null order by id limit 50`);
  // One fee suggestion for the whole call: the blocks are sent one after the other, within moments.
  let suggested: FeeSuggestion | undefined;
  for (const block of pending.rows) {
    if (halting()) break;
    try {
      if (await adoptExisting(context, block)) continue;
      suggested ??= await context.chain.suggestFees();
      // At the ceiling: the blocks after it would wait as well (and one alert says it).
      if (!(await signAndSend(context, block, suggested))) return;
    } catch (error) {
      if (isUnreachable(error)) return;
      log.warn(`anchor: sending block ${block.id} failed, will retry: ${describeError(error)}`);
    }
  }
}
