/**
 * Confirm: SENT blocks are followed until MINED. A receipt with CHAIN_CONFIRMATIONS reached → MINED; a
 * reverted one → the transaction that did anchor the id is adopted, or FAILED. A transaction the node
 * does not know (a crash between storing and broadcasting, or dropped) is re-signed and re-sent after
 * resendAfterMs, unless the contract already holds the root. And on restart, blocks of an earlier
 * embedded devnet go back to PENDING (resetEphemeralBlocks).
 */
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import type { Db } from '#server/db/client.ts';
import { describeError } from '#server/db/error-causes.ts';
import { publishEvent } from '#server/events/publish.ts';
import type { Chain } from '../chain.ts';
import { isUnreachable } from '../reachability.ts';
import type { AnchoringContext } from './context.ts';
import { adoptExisting, type BlockRow, signAndSend } from './send.ts';

async function followOne(context: AnchoringContext, block: BlockRow): Promise<void> {
  const { db, chain, confirmations, resendAfterMs, log } = context;
  const hash = block.transaction_hash as Hex;
  const receipt = await chain.receipt(hash);
  if (receipt) {
    if (receipt.status !== 'success') {
      // Reverted: most likely the id was anchored by another transaction; adopt it or fail.
      if (!(await adoptExisting(context, block))) {
        await db.execute(sql`update blockchain_data_blocks set status = 'FAILED'
          where id = ${block.id} and transaction_hash = ${hash}`);
        log.error(`anchor: block ${block.id} transaction ${hash} reverted: FAILED`);
      }
      return;
    }
    const latest = await chain.blockNumber();
    if (latest - receipt.blockNumber + 1n >= BigInt(confirmations)) {
      const mined = await db.execute<{ customer_ids: number[] }>(sql`
        with mined as (
          update blockchain_data_blocks set status = 'MINED', mined_at = now()
          where id = ${block.id} and status = 'SENT' and transaction_hash = ${hash}
          returning id)
        select array(select distinct customer_id from sterilizations s, mined
          where s.blockchain_data_block_id = mined.id) as customer_ids
        from mined`);
      const owners = mined.rows[0]?.customer_ids;
      if (owners) void publishEvent(db, { type: 'block.mined', blockId: block.id, customerIds: owners });
    }
    return;
  }
  if (await chain.knowsTransaction(hash)) return; // in the mempool: wait
  const sentAt = block.sent_at ? new Date(block.sent_at).getTime() : 0;
  if (Date.now() - sentAt < resendAfterMs) return;
  if (await adoptExisting(context, block)) return;
  log.warn(`anchor: block ${block.id} transaction ${hash} is unknown to the node: re-sending`);
  await signAndSend(context, block);
}

/** Follows every SENT block of this network (at most 200 a call). */
export async function followSent(context: AnchoringContext): Promise<void> {
  const { db, chain, log } = context;
  const sent = await db.execute<BlockRow>(sql`
    select id, status, merkle_root, transaction_hash, sent_at from blockchain_data_blocks
    where status = 'SENT' and network = ${chain.network} order by id limit 200`);
  for (const block of sent.rows) {
    try {
      await followOne(context, block);
    } catch (error) {
      // No node answers: the others would wait as long each; the next pass tries again.
      if (isUnreachable(error)) return;
      log.warn(`anchor: following block ${block.id} failed, will retry: ${describeError(error)}`);
    }
  }
}

/**
 * The embedded devnet starts empty on every start, so the transactions of blocks anchored by an earlier
 * run are gone. Those blocks go back to PENDING (same id, same root, same proofs) and are anchored again
 * on the new chain; only their transaction hash changes.
 */
export async function resetEphemeralBlocks(db: Db, chain: Chain): Promise<number> {
  if (!chain.embedded) return 0;
  const reset = await db.execute(sql`
    update blockchain_data_blocks
    set status = 'PENDING', transaction_hash = null, sent_at = null, mined_at = null
    where network = ${chain.network} and status in ('SENT', 'MINED')`);
  return reset.rowCount ?? 0;
}
