/**
 * The anchor worker: puts unanchored records of blockchain-enabled customers into blockchain data
 * blocks, anchors each block's Merkle root on chain, and follows the transaction until it is MINED.
 *
 * Every step is a state in the database, so a restart (or a second process) picks up where things were:
 *   1. form   — records locked with FOR UPDATE SKIP LOCKED; block row (PENDING, root) + each record's
 *               block id, hashing_version and proof written in one transaction. A record is in one block.
 *   2. send   — the transaction is signed locally, so its hash is known first; the hash is stored
 *               (SENT) with a compare-and-set on the PENDING row, and only the winner broadcasts.
 *               Before signing, the contract is asked whether the block id is already anchored (a
 *               transaction of a crashed run): then that transaction is looked up by its event.
 *   3. follow — SENT blocks: receipt found and CHAIN_CONFIRMATIONS reached → MINED. A transaction the
 *               node does not know (crash between storing and broadcasting, or dropped) is re-signed
 *               and re-sent after resendAfterMs, unless the contract already holds the root.
 * The contract refuses a second anchor of a block id, so a block is anchored on chain at most once.
 */
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import {
  HASHING_VERSION,
  type IntegrityRecord,
  leafBytes,
  merkleTree,
} from '../../shared/integrity/index.ts';
import type { Db } from '../db/client.ts';
import type { SterilizationRow } from '../modules/sterilizations/view.ts';
import type { Chain } from './chain.ts';

export interface AnchorWorkerOptions {
  db: Db;
  chain: Chain;
  /** Records per block (ANCHOR_BATCH_SIZE). */
  batchSize: number;
  /** Seconds the oldest waiting record may wait before a smaller block is made (ANCHOR_INTERVAL_SECONDS). */
  intervalSeconds: number;
  /** Confirmations before MINED (CHAIN_CONFIRMATIONS). */
  confirmations: number;
  /** How often the worker looks for work, ms (default 1000). */
  pollMs?: number;
  /** A backlog of at least 2 batches is taken this many batches at a time (default 16). */
  backlogFactor?: number;
  /** A SENT transaction the node does not know is re-sent after this long (default: 0 on the devnet, 60 s otherwise). */
  resendAfterMs?: number;
  log?: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /** Test hook: runs after the SENT row is written and before broadcasting (throw to simulate a crash). */
  beforeBroadcast?: (blockId: number) => void | Promise<void>;
}

export interface AnchorWorker {
  start(): void;
  /** Stops the timer and waits for the running pass. */
  stop(): Promise<void>;
  /** One full pass: follow SENT, send PENDING, form and send new blocks. */
  tick(): Promise<void>;
  /** Forms at most one block; returns its id (or null when nothing is due). */
  formBlock(): Promise<number | null>;
  /** Sends every PENDING block. */
  sendPending(): Promise<void>;
  /** Follows every SENT block. */
  followSent(): Promise<void>;
}

/** The record columns the leaf is made of (the list's row type, so the two never drift apart). */
type RecordRow = Pick<
  SterilizationRow,
  | 'id'
  | 'received_ts'
  | 'device_serial'
  | 'progressive_id'
  | 'supplied_energy'
  | 'nominal_time'
  | 'effective_time'
  | 'residual_lamp_life'
  | 'status_code'
  | 'latitude'
  | 'longitude'
  | 'consumables_lot'
  | 'lot_progressive_id'
  | 'notes'
  | 'created_at'
>;

type BlockRow = {
  id: number;
  status: string;
  merkle_root: Hex;
  transaction_hash: Hex | null;
  sent_at: string | Date | null;
};

/** The 14 integrity fields of records, joined with their device (the one query shape of leaves). */
export const RECORD_FIELDS_SQL = sql`s.id, s.received_ts, d.device_serial, s.progressive_id, s.supplied_energy,
  s.nominal_time, s.effective_time, s.residual_lamp_life, s.status_code, s.latitude, s.longitude,
  s.consumables_lot, s.lot_progressive_id, s.notes`;

export function integrityRecord(row: Omit<RecordRow, 'created_at'>): IntegrityRecord {
  return {
    id: String(row.id),
    received_ts: row.received_ts,
    device_serial: row.device_serial,
    progressive_id: row.progressive_id,
    supplied_energy: row.supplied_energy,
    nominal_time: row.nominal_time,
    effective_time: row.effective_time,
    residual_lamp_life: row.residual_lamp_life,
    status_code: row.status_code,
    latitude: row.latitude,
    longitude: row.longitude,
    consumables_lot: row.consumables_lot,
    lot_progressive_id: row.lot_progressive_id,
    notes: row.notes,
  };
}

const arrayLiteral = (values: string[]) => `{${values.map((value) => `"${value}"`).join(',')}}`;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createAnchorWorker(options: AnchorWorkerOptions): AnchorWorker {
  const { db, chain, batchSize, intervalSeconds, confirmations } = options;
  const pollMs = options.pollMs ?? 1000;
  const maxBlock = batchSize * (options.backlogFactor ?? 16);
  const resendAfterMs = options.resendAfterMs ?? (chain.embedded ? 0 : 60_000);
  const log = options.log ?? { info() {}, warn() {}, error() {} };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  /** Set by stop(): a running pass ends after its current step. */
  let halting = false;

  async function formBlock(): Promise<number | null> {
    return db.transaction(async (tx) => {
      const candidates = await tx.execute<RecordRow>(sql`
        select ${RECORD_FIELDS_SQL}, s.created_at
        from sterilizations s
        join devices d on d.id = s.device_id
        join customers c on c.id = d.customer_id
        where s.blockchain_data_block_id is null and c.enable_blockchain
        order by s.id
        limit ${maxBlock}
        for update of s skip locked`);
      const rows = candidates.rows;
      if (rows.length === 0) return null;
      let take: number;
      if (rows.length >= 2 * batchSize) take = rows.length;
      else if (rows.length >= batchSize) take = batchSize;
      else {
        const oldest = Math.min(...rows.map((row) => new Date(row.created_at).getTime()));
        if (Date.now() - oldest < intervalSeconds * 1000) return null;
        take = rows.length;
      }
      const records = rows.slice(0, take);
      const { root, proofs } = merkleTree(records.map((row) => leafBytes(integrityRecord(row))));
      const inserted = await tx.execute<{ id: number }>(sql`
        insert into blockchain_data_blocks (status, network, merkle_root, hashing_version)
        values ('PENDING', ${chain.network}, ${root}, ${HASHING_VERSION})
        returning id`);
      const blockId = Number(inserted.rows[0]!.id);
      await tx.execute(sql`
        update sterilizations s
        set blockchain_data_block_id = ${blockId}, hashing_version = ${HASHING_VERSION},
            merkle_proof = string_to_array(v.proof, ',')
        from (
          select unnest(${arrayLiteral(records.map((row) => String(row.id)))}::bigint[]) as id,
                 unnest(${arrayLiteral(proofs.map((proof) => proof.join(',')))}::text[]) as proof
        ) v
        where s.id = v.id`);
      log.info(`anchor: block ${blockId} formed with ${records.length} records`);
      return blockId;
    });
  }

  /** Stores the hash first (compare-and-set on the expected state), then broadcasts. */
  async function signAndSend(block: BlockRow): Promise<void> {
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
    await options.beforeBroadcast?.(block.id);
    try {
      await chain.broadcast(prepared.serialized);
      log.info(`anchor: block ${block.id} sent in ${prepared.hash}`);
    } catch (error) {
      // E.g. a nonce taken by another process: the stored hash stays unknown and is re-sent later.
      log.warn(`anchor: broadcasting block ${block.id} failed: ${(error as Error).message}`);
    }
  }

  /** When the contract already holds this block id: adopt the transaction that put it there. */
  async function adoptExisting(block: BlockRow): Promise<boolean> {
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

  async function sendPending(): Promise<void> {
    const pending = await db.execute<BlockRow>(sql`
      select id, status, merkle_root, transaction_hash, sent_at from blockchain_data_blocks
      where status = 'PENDING' order by id limit 50`);
    for (const block of pending.rows) {
      if (halting) break;
      try {
        if (!(await adoptExisting(block))) await signAndSend(block);
      } catch (error) {
        log.warn(`anchor: sending block ${block.id} failed, will retry: ${(error as Error).message}`);
      }
    }
  }

  async function followOne(block: BlockRow): Promise<void> {
    const hash = block.transaction_hash as Hex;
    const receipt = await chain.receipt(hash);
    if (receipt) {
      if (receipt.status !== 'success') {
        // Reverted: most likely the id was anchored by another transaction; adopt it or fail.
        if (!(await adoptExisting(block))) {
          await db.execute(sql`update blockchain_data_blocks set status = 'FAILED'
            where id = ${block.id} and transaction_hash = ${hash}`);
          log.error(`anchor: block ${block.id} transaction ${hash} reverted: FAILED`);
        }
        return;
      }
      const latest = await chain.blockNumber();
      if (latest - receipt.blockNumber + 1n >= BigInt(confirmations)) {
        await db.execute(sql`update blockchain_data_blocks set status = 'MINED', mined_at = now()
          where id = ${block.id} and status = 'SENT' and transaction_hash = ${hash}`);
      }
      return;
    }
    if (await chain.knowsTransaction(hash)) return; // in the mempool: wait
    const sentAt = block.sent_at ? new Date(block.sent_at).getTime() : 0;
    if (Date.now() - sentAt < resendAfterMs) return;
    if (await adoptExisting(block)) return;
    log.warn(`anchor: block ${block.id} transaction ${hash} is unknown to the node: re-sending`);
    await signAndSend(block);
  }

  async function followSent(): Promise<void> {
    const sent = await db.execute<BlockRow>(sql`
      select id, status, merkle_root, transaction_hash, sent_at from blockchain_data_blocks
      where status = 'SENT' and network = ${chain.network} order by id limit 200`);
    for (const block of sent.rows) {
      try {
        await followOne(block);
      } catch (error) {
        log.warn(`anchor: following block ${block.id} failed, will retry: ${(error as Error).message}`);
      }
    }
  }

  async function tick(): Promise<void> {
    await followSent();
    await sendPending();
    // A backlog (the seeded demo, or a burst) becomes several blocks, one transaction each, with the
    // event loop free between them.
    for (let formed = 0; formed < 50; formed += 1) {
      if (halting) break;
      const blockId = await formBlock();
      if (blockId === null) break;
      await sendPending();
      await yieldToEventLoop();
    }
    await followSent();
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = tick()
        .catch((error: unknown) => log.error(`anchor: pass failed: ${(error as Error).message}`))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, pollMs);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      halting = false;
      schedule();
    },
    async stop() {
      stopped = true;
      halting = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
    tick,
    formBlock,
    sendPending,
    followSent,
  };
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
