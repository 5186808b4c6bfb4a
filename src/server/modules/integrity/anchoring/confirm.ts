/**
 * Confirm: SENT blocks are followed until MINED. Every transaction of the block's history is looked up
 * (a replacement or the one it replaced may be the one mined): a successful receipt with
 * CHAIN_CONFIRMATIONS reached → that transaction adopted, MINED, with its gas and the fees paid; a
 * reverted one → the transaction that did anchor the id is adopted, or FAILED.
 *
 * None mined yet:
 * - still in the node's mempool: after ANCHOR_REPLACE_AFTER_BLOCKS chain blocks it is replaced (same
 *   nonce, fees raised by at least 10 %), again each time it waits as long, up to the ceiling; at the
 *   ceiling the block waits with a staff-only alert (fees.ts);
 * - unknown to the node (dropped, or never broadcast: a crash between storing and broadcasting): the
 *   same signed bytes are broadcast again (same hash), unless its nonce was taken by a transaction that
 *   is none of the block's: then, unless the contract already holds the root, a new one is signed.
 * A transaction kept by its hash alone (sent before the signed bytes were kept) is re-signed after
 * resendAfterMs, as before. And on restart, blocks of an earlier embedded devnet go back to PENDING
 * (resetEphemeralBlocks).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Hex, TransactionReceipt } from 'viem';
import type { Db } from '#server/db/client.ts';
import { describeError } from '#server/db/error-causes.ts';
import { publishEvent } from '#server/event-bus/publish.ts';
import type { Chain } from '../chain.ts';
import { isUnreachable } from '../reachability.ts';
import type { AnchoringContext } from './context.ts';
import { clearFeeCeiling, raiseFeeCeiling, replacementFees, settleCosts } from './fees.ts';
import { adoptExisting, type BlockRow, broadcastStored, recordTransaction, signAndSend } from './send.ts';

/** A transaction of a block's history as following reads it. */
type SentTransaction = {
  hash: Hex;
  nonce: number | null;
  gas_limit: string | number | null;
  max_fee_per_gas: string | null;
  max_priority_fee_per_gas: string | null;
  raw: Hex | null;
  sent_height: string | number | null;
};

/** The newest transactions of a block looked at (a block replaced more often than this is unheard of). */
const HISTORY_FOLLOWED = 12;

async function history({ db }: AnchoringContext, block: BlockRow): Promise<SentTransaction[]> {
  const rows = await db.execute<SentTransaction>(sql`
    select hash, nonce, gas_limit, max_fee_per_gas, max_priority_fee_per_gas, raw, sent_height
    from anchor_transactions where block_id = ${block.id} order by id desc limit ${HISTORY_FOLLOWED}`);
  const sent = rows.rows;
  // The block's own hash first, whatever the history holds (a row is written with it, but a block
  // sent before the history existed has only its hash).
  const current = block.transaction_hash?.toLowerCase();
  const own = sent.find((row) => row.hash.toLowerCase() === current);
  if (!own && block.transaction_hash) {
    return [
      {
        hash: block.transaction_hash,
        nonce: null,
        gas_limit: null,
        max_fee_per_gas: null,
        max_priority_fee_per_gas: null,
        raw: null,
        sent_height: null,
      },
      ...sent,
    ];
  }
  return own ? [own, ...sent.filter((row) => row !== own)] : sent;
}

/** A mined receipt's cost, kept on its row of the history. */
async function recordReceipt({ db }: AnchoringContext, receipt: TransactionReceipt): Promise<void> {
  const fee = receipt.gasUsed * receipt.effectiveGasPrice;
  await db.execute(sql`
    update anchor_transactions set mined_height = ${Number(receipt.blockNumber)},
      gas_used = ${Number(receipt.gasUsed)}, fee_paid_wei = ${fee.toString()}
    where hash = ${receipt.transactionHash.toLowerCase()}`);
}

/** A mined transaction of the block: MINED once confirmed (adopting it), or the revert handled. */
async function settle(
  context: AnchoringContext,
  block: BlockRow,
  receipt: TransactionReceipt,
): Promise<void> {
  const { db, chain, confirmations, log } = context;
  const hash = receipt.transactionHash;
  await recordReceipt(context, receipt);
  if (receipt.status !== 'success') {
    // Reverted: most likely the id was anchored by another transaction; adopt it or fail.
    if (!(await adoptExisting(context, block))) {
      await db.execute(sql`update blockchain_data_blocks set status = 'FAILED'
        where id = ${block.id} and status = 'SENT'`);
      await clearFeeCeiling(db, block.id);
      log.error(`anchor: block ${block.id} transaction ${hash} reverted: FAILED`);
    }
    return;
  }
  const latest = await chain.blockNumber();
  if (latest - receipt.blockNumber + 1n < BigInt(confirmations)) {
    // Mined, not yet confirmed: this is the transaction in force from now on.
    if (block.transaction_hash?.toLowerCase() !== hash.toLowerCase()) {
      await db.execute(sql`update blockchain_data_blocks set transaction_hash = ${hash}
        where id = ${block.id} and status = 'SENT'`);
    }
    return;
  }
  const owners = await db.transaction(async (tx) => {
    const mined = await tx.execute<{ customer_ids: number[] }>(sql`
      with mined as (
        update blockchain_data_blocks set status = 'MINED', mined_at = now(), transaction_hash = ${hash},
          mined_block_number = ${Number(receipt.blockNumber)}, mined_block_hash = ${receipt.blockHash}
        where id = ${block.id} and status = 'SENT'
        returning id)
      select array(${blockOwners(sql`mined.id`)}) as customer_ids
      from mined`);
    if (mined.rows.length === 0) return undefined;
    await settleCosts(tx, block.id, hash);
    await clearFeeCeiling(tx, block.id);
    return mined.rows[0]!.customer_ids;
  });
  if (owners) {
    if (block.transaction_hash?.toLowerCase() !== hash.toLowerCase()) {
      log.info(`anchor: block ${block.id} mined in ${hash}, which it adopts`);
    }
    void publishEvent(db, { type: 'block.mined', blockId: block.id, customerIds: owners });
  }
}

/**
 * The customers whose evidence a block anchors, the audience of its block.mined event: the owners of
 * its records and of its signed report versions (a report's block holds no records), so a clinic's
 * reports list follows its signatures' anchoring live as its records list does.
 */
const blockOwners = (blockId: SQL) => sql`
  select customer_id from sterilizations s where s.blockchain_data_block_id = ${blockId}
  union
  select r.customer_id from report_versions v join reports r on r.id = v.report_id
  where v.blockchain_data_block_id = ${blockId}`;

/** Replaces the block's transaction in force with higher fees (same nonce), or waits at the ceiling. */
async function replace(context: AnchoringContext, block: BlockRow, current: SentTransaction): Promise<void> {
  const { db, chain, log, maxFeePerGas } = context;
  const suggested = await chain.suggestFees();
  const fees = replacementFees(
    {
      maxFeePerGas: BigInt(current.max_fee_per_gas ?? 0),
      maxPriorityFeePerGas: BigInt(current.max_priority_fee_per_gas ?? 0),
    },
    suggested,
    maxFeePerGas,
  );
  if (!fees) {
    await raiseFeeCeiling(context, block, suggested.baseFeePerGas);
    return;
  }
  const replacement = await chain.prepareAnchor(block.id, block.merkle_root, fees, {
    nonce: current.nonce!,
    gas: BigInt(current.gas_limit!),
  });
  const height = await chain.blockNumber();
  const claimed = await db.transaction(async (tx) => {
    const updated =
      await tx.execute(sql`update blockchain_data_blocks set transaction_hash = ${replacement.hash}
      where id = ${block.id} and status = 'SENT' and transaction_hash = ${block.transaction_hash}`);
    if ((updated.rowCount ?? 0) === 0) return false;
    await recordTransaction(tx, block.id, replacement, height);
    return true;
  });
  if (!claimed) return;
  if (await broadcastStored(context, block.id, replacement)) {
    log.info(
      `anchor: block ${block.id} not mined after ${context.replaceAfterBlocks} blocks: ${current.hash} replaced by ${replacement.hash} (max fee ${fees.maxFeePerGas} wei)`,
    );
  }
}

async function followOne(context: AnchoringContext, block: BlockRow): Promise<void> {
  const { chain, resendAfterMs, replaceAfterBlocks, log } = context;
  const sent = await history(context, block);
  for (const transaction of sent) {
    const receipt = await chain.receipt(transaction.hash);
    if (receipt) return settle(context, block, receipt);
  }
  const current = sent[0];
  if (!current) return;

  if (current.raw === null || current.nonce === null) {
    // Known by its hash alone: followed as before the history kept signed bytes.
    if (await chain.knowsTransaction(current.hash)) return; // in the mempool: wait
    const sentAt = block.sent_at ? new Date(block.sent_at).getTime() : 0;
    if (Date.now() - sentAt < resendAfterMs) return;
    if (await adoptExisting(context, block)) return;
    log.warn(`anchor: block ${block.id} transaction ${current.hash} is unknown to the node: re-sending`);
    await signAndSend(context, block);
    return;
  }

  // Those of the same nonce: only one of them can ever be mined, and any one in the mempool may be.
  const siblings = sent.filter((transaction) => transaction.nonce === current.nonce);
  let inMempool = false;
  for (const transaction of siblings) {
    if (await chain.knowsTransaction(transaction.hash)) {
      inMempool = true;
      break;
    }
  }
  if (!inMempool) {
    if ((await chain.minedNonce()) > current.nonce) {
      // The nonce went to a transaction that is none of this block's: none of them can be mined now.
      if (await adoptExisting(context, block)) return;
      log.warn(
        `anchor: block ${block.id}'s nonce ${current.nonce} was taken by another transaction: re-sending`,
      );
      await signAndSend(context, block);
      return;
    }
    // Dropped by the node, never broadcast (a crash), or undone by a reorganisation: the same
    // transaction again, same hash; its wait for a replacement counts from now.
    if (await broadcastStored(context, block.id, { hash: current.hash, serialized: current.raw })) {
      await context.db.execute(sql`update anchor_transactions set sent_height = ${Number(await chain.blockNumber())}
        where hash = ${current.hash.toLowerCase()}`);
    }
    return;
  }
  const waited = (await chain.blockNumber()) - BigInt(current.sent_height ?? 0);
  if (waited >= BigInt(replaceAfterBlocks)) await replace(context, block, current);
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

/** Blocks on top of an anchor after which it is final on a node without a `finalized` tag. */
const FINALITY_DEPTH_WITHOUT_TAG = 64;

/** The highest chain block that is final now: CHAIN_FINALITY_DEPTH below the head, else the node's tag. */
async function finalizedHeight({ chain, finalityDepth }: AnchoringContext, head: bigint): Promise<bigint> {
  if (finalityDepth !== null) return head - BigInt(finalityDepth);
  return (await chain.finalizedBlockNumber()) ?? head - BigInt(FINALITY_DEPTH_WITHOUT_TAG);
}

type MinedRow = BlockRow & { mined_block_number: string | number | null; mined_block_hash: string | null };

/**
 * MINED blocks are looked at again until FINAL (once per new chain head): their transaction's receipt,
 * read again, may have moved to another chain block or be gone. Gone (a reorganisation dropped it): the
 * block goes back to SENT, and is anchored again with the same root and id (following SENT blocks
 * broadcasts the same transaction again, or signs a new one when its nonce was taken). Moved: the block
 * keeps MINED if still confirmed enough, else goes back to SENT. Once its chain block is final, FINAL:
 * no step ever reads or changes it again.
 */
export async function followMined(context: AnchoringContext, state: { head?: Hex }): Promise<void> {
  const { db, chain, confirmations, log } = context;
  const mined = await db.execute<MinedRow>(sql`
    select id, status, merkle_root, transaction_hash, sent_at, mined_block_number, mined_block_hash
    from blockchain_data_blocks where status = 'MINED' and network = ${chain.network} order by id limit 200`);
  if (mined.rows.length === 0) return;
  // Nothing can have changed while the chain's head is the same block.
  const latest = await chain.client.getBlock({ blockTag: 'latest' });
  if (latest.hash === null || state.head === latest.hash) return;
  const head = latest.number;
  const finalized = await finalizedHeight(context, head);
  for (const block of mined.rows) {
    const hash = block.transaction_hash as Hex;
    const receipt = await chain.receipt(hash);
    if (receipt?.status !== 'success') {
      const undone = await db.transaction(async (tx) => {
        const back = await tx.execute(sql`update blockchain_data_blocks set status = 'SENT', mined_at = null,
            mined_block_number = null, mined_block_hash = null, gas_used = null, fee_paid_wei = null
          where id = ${block.id} and status = 'MINED' and transaction_hash = ${hash}`);
        if ((back.rowCount ?? 0) === 0) return false;
        // Not on the chain any more: not paid either.
        await tx.execute(sql`update anchor_transactions set mined_height = null, gas_used = null, fee_paid_wei = null
          where hash = ${hash.toLowerCase()}`);
        return true;
      });
      if (undone) {
        log.warn(
          `anchor: block ${block.id}'s transaction ${hash} is no longer on chain (a reorganisation): it is anchored again`,
        );
      }
      continue;
    }
    if (receipt.blockHash !== block.mined_block_hash) {
      // Included again elsewhere (or first seen since MINED blocks kept their chain block).
      const confirmed = head - receipt.blockNumber + 1n >= BigInt(confirmations);
      await db.execute(sql`update blockchain_data_blocks set mined_block_number = ${Number(receipt.blockNumber)},
          mined_block_hash = ${receipt.blockHash}, status = ${confirmed ? 'MINED' : 'SENT'},
          mined_at = ${confirmed ? sql`mined_at` : sql`null`}
        where id = ${block.id} and status = 'MINED' and transaction_hash = ${hash}`);
      if (!confirmed) continue;
    }
    if (receipt.blockNumber > finalized) continue;
    const final = await db.execute<{ customer_ids: number[] }>(sql`
      with final as (
        update blockchain_data_blocks set status = 'FINAL', final_at = now()
        where id = ${block.id} and status = 'MINED' and transaction_hash = ${hash}
          and mined_block_hash = ${receipt.blockHash}
        returning id)
      select array(${blockOwners(sql`final.id`)}) as customer_ids
      from final`);
    const owners = final.rows[0]?.customer_ids;
    if (owners) void publishEvent(db, { type: 'block.mined', blockId: block.id, customerIds: owners });
  }
  state.head = latest.hash;
}

/**
 * The embedded devnet starts empty on every start, so the transactions of blocks anchored by an earlier
 * run are gone. Those blocks go back to PENDING (same id, same root, same proofs) and are anchored again
 * on the new chain; only their transaction hash changes. FINAL ones too: their finality was that of a
 * chain that no longer exists (on a real network nothing is reset and FINAL is for ever).
 */
export async function resetEphemeralBlocks(db: Db, chain: Chain): Promise<number> {
  if (!chain.embedded) return 0;
  return db.transaction(async (tx) => {
    const reset = await tx.execute<{ id: number }>(sql`
      update blockchain_data_blocks
      set status = 'PENDING', transaction_hash = null, sent_at = null, mined_at = null, gas_used = null,
        fee_paid_wei = null, mined_block_number = null, mined_block_hash = null, final_at = null
      where network = ${chain.network} and status in ('SENT', 'MINED', 'FINAL')
      returning id`);
    // Their transactions stay in the history, but what they cost was on a chain that is gone.
    await tx.execute(sql`update anchor_transactions set mined_height = null, gas_used = null, fee_paid_wei = null
      where block_id in (select b.id from blockchain_data_blocks b where b.network = ${chain.network}
        and b.status = 'PENDING')`);
    return reset.rows.length;
  });
}
