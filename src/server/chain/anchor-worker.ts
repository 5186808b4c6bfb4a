/**
 * The anchor worker: puts unanchored records of blockchain-enabled customers into blockchain data
 * blocks, anchors each block's Merkle root on chain, and follows the transaction until it is MINED.
 *
 * Every step is a state in the database, so a restart (or a second process) picks up where things were:
 *   1. form   — leaves, root and proofs computed in time slices from records read without locks; then
 *               one transaction locks those records (FOR UPDATE SKIP LOCKED) and writes the block row
 *               (PENDING, root) and each record's block id, hashing_version and proof. A record is in
 *               one block. A block of more than writePage records is written in one transaction per
 *               part with its root last; only a block with a root is sent, and one left without (a
 *               crash) is undone after abandonedAfterMs.
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
  createSlicer,
  HASHING_VERSION,
  type IntegrityRecord,
  leafBytes,
  type MerkleLevels,
  mapSliced,
  merkleLevelsAsync,
  type Slicer,
} from '../../shared/integrity/index.ts';
import type { Db, Tx } from '../db/client.ts';
import { describeError } from '../db/error-causes.ts';
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
  /**
   * A block of more records than this is stored in one transaction per this many (default 1024: the
   * largest block of the default settings, 16 × 64, is one transaction).
   */
  writePage?: number;
  /** A block a crashed run left half-stored is undone after this long (default 10 minutes). */
  abandonedAfterMs?: number;
  /** Test hook: runs after a block's leaves and tree are computed, before anything is stored. */
  beforeStore?: () => void | Promise<void>;
  /** Test hook: runs after each part of a block stored in parts (throw to simulate a crash). */
  afterStoredPart?: (blockId: number) => void | Promise<void>;
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
/** Records read per query when forming a block. */
const READ_PAGE = 5000;

/** A computed block: its records' ids and device serials (as hashed) in id order, and its tree. */
type ComputedBlock = { ids: string[]; serials: string[]; tree: MerkleLevels };
/** A waiting record as formBlock keeps it: what the block needs, not the whole row. */
type Candidate = { id: string; serial: string; createdAt: number; leaf: Uint8Array };

/** Thrown to roll a transaction back when a block's records changed hands. */
class ChangedHands extends Error {}
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createAnchorWorker(options: AnchorWorkerOptions): AnchorWorker {
  const { db, chain, batchSize, intervalSeconds, confirmations } = options;
  const pollMs = options.pollMs ?? 1000;
  const maxBlock = batchSize * (options.backlogFactor ?? 16);
  const resendAfterMs = options.resendAfterMs ?? (chain.embedded ? 0 : 60_000);
  const writePage = options.writePage ?? 1024;
  const abandonedAfterMs = options.abandonedAfterMs ?? 10 * 60_000;
  const log = options.log ?? { info() {}, warn() {}, error() {} };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  /** Set by stop(): a running pass ends after its current step. */
  let halting = false;

  /**
   * Unanchored records of blockchain-enabled customers in id order, read in pages without locks, each
   * kept as its leaf (computed in time slices) and the little else a block needs.
   */
  async function readCandidates(slicer: Slicer): Promise<Candidate[]> {
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
          leaf: leafBytes(integrityRecord(row), HASHING_VERSION),
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
   * Records [from, to) of a computed block: locked (FOR UPDATE SKIP LOCKED) and, when every one is still
   * unassigned, still eligible and still has the device serial it was hashed with, given their block id
   * and proof (proofs: proofsLiteral of the same range). False when any is not: another worker (or an
   * edit) got there first.
   */
  async function storePart(
    tx: Tx,
    blockId: number,
    block: ComputedBlock,
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
      set blockchain_data_block_id = ${blockId}, hashing_version = ${HASHING_VERSION},
          merkle_proof = string_to_array(v.proof, ',')
      from (select unnest(${ids}::bigint[]) as id, unnest(${proofs}::text[]) as proof) v
      where s.id = v.id`);
    return true;
  }

  /**
   * The proofs of records [from, to) as one array literal of comma-joined hex, made in one go from the
   * tree's shared hex nodes: a part's worth takes milliseconds, and building it without pauses lets its
   * pieces die young instead of being copied around by the garbage collector.
   */
  function proofsLiteral(block: ComputedBlock, from: number, to: number): string {
    const pieces = ['{'];
    for (let i = from; i < to; i += 1) {
      pieces.push(i === from ? '"' : ',"');
      const proof = block.tree.proof(i);
      for (let j = 0; j < proof.length; j += 1) pieces.push(j === 0 ? proof[j]! : `,${proof[j]}`);
      pieces.push('"');
    }
    pieces.push('}');
    return pieces.join('');
  }

  /** A block of at most writePage records: the block row and every record in one transaction. */
  async function storeWhole(block: ComputedBlock): Promise<number | null> {
    const proofs = proofsLiteral(block, 0, block.ids.length);
    try {
      return await db.transaction(async (tx) => {
        const inserted = await tx.execute<{ id: number }>(sql`
          insert into blockchain_data_blocks (status, network, merkle_root, hashing_version)
          values ('PENDING', ${chain.network}, ${block.tree.root}, ${HASHING_VERSION})
          returning id`);
        const blockId = Number(inserted.rows[0]!.id);
        if (!(await storePart(tx, blockId, block, 0, block.ids.length, proofs))) throw new ChangedHands();
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
  async function storeInParts(block: ComputedBlock, slicer: Slicer): Promise<number | null> {
    const inserted = await db.execute<{ id: number }>(sql`
      insert into blockchain_data_blocks (status, network, merkle_root, hashing_version)
      values ('PENDING', ${chain.network}, null, ${HASHING_VERSION})
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
        return storePart(tx, blockId, block, from, to, proofs);
      });
      if (!stored) {
        await releaseBlock(blockId);
        return null;
      }
      await options.afterStoredPart?.(blockId);
    }
    const completed = await db.execute(sql`update blockchain_data_blocks set merkle_root = ${block.tree.root}
      where id = ${blockId} and status = 'PENDING' and merkle_root is null`);
    if ((completed.rowCount ?? 0) === 0) return null;
    log.info(`anchor: block ${blockId} stored in parts`);
    return blockId;
  }

  /** Marks a root-less block FAILED and gives its records back, writePage records per statement. */
  async function releaseBlock(blockId: number): Promise<void> {
    await db.execute(sql`update blockchain_data_blocks set status = 'FAILED'
      where id = ${blockId} and merkle_root is null and status = 'PENDING'`);
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
  async function releaseAbandoned(): Promise<void> {
    const abandoned = await db.execute<{ id: number }>(sql`
      select b.id from blockchain_data_blocks b
      where b.merkle_root is null and (
        (b.status = 'PENDING' and b.created_at < now() - make_interval(secs => ${abandonedAfterMs / 1000}))
        or (b.status = 'FAILED' and exists (select 1 from sterilizations s where s.blockchain_data_block_id = b.id)))`);
    for (const { id } of abandoned.rows) {
      log.warn(`anchor: block ${id} was left half-stored: its records go back to waiting`);
      await releaseBlock(Number(id));
    }
  }

  /**
   * A block is made so that neither the event loop nor (on the embedded database, one connection) the
   * database is held while a large block's leaves, tree and proofs are computed: the candidates are
   * read without locks, the computation runs in time slices, and only then are the records locked and
   * written (storeWhole, or storeInParts for a block of more than writePage records). When any record
   * was taken meanwhile, nothing is kept and the next pass reads again.
   */
  async function formBlock(): Promise<number | null> {
    const slicer = createSlicer();
    const candidates = await readCandidates(slicer);
    if (candidates.length === 0) return null;
    let take: number;
    if (candidates.length >= 2 * batchSize) take = candidates.length;
    else if (candidates.length >= batchSize) take = batchSize;
    else {
      let oldest = Number.POSITIVE_INFINITY;
      for (const candidate of candidates) oldest = Math.min(oldest, candidate.createdAt);
      if (Date.now() - oldest < intervalSeconds * 1000) return null;
      take = candidates.length;
    }
    const records = candidates.slice(0, take);
    const block: ComputedBlock = {
      ids: records.map((record) => record.id),
      serials: records.map((record) => record.serial),
      tree: await merkleLevelsAsync(
        records.map((record) => record.leaf),
        slicer,
      ),
    };
    await options.beforeStore?.();
    const blockId = records.length <= writePage ? await storeWhole(block) : await storeInParts(block, slicer);
    if (blockId !== null) log.info(`anchor: block ${blockId} formed with ${records.length} records`);
    return blockId;
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
      log.warn(`anchor: broadcasting block ${block.id} failed: ${describeError(error)}`);
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
      where status = 'PENDING' and merkle_root is not null order by id limit 50`);
    for (const block of pending.rows) {
      if (halting) break;
      try {
        if (!(await adoptExisting(block))) await signAndSend(block);
      } catch (error) {
        log.warn(`anchor: sending block ${block.id} failed, will retry: ${describeError(error)}`);
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
        log.warn(`anchor: following block ${block.id} failed, will retry: ${describeError(error)}`);
      }
    }
  }

  async function tick(): Promise<void> {
    await releaseAbandoned();
    await followSent();
    let followed = performance.now();
    await sendPending();
    // A backlog (the seeded demo, or a burst) becomes several blocks, one transaction each, with the
    // event loop free between them; under steady ingestion this goes on for a while, so the sent
    // blocks are followed every pollMs meanwhile (else they would be MINED only at the end).
    for (let formed = 0; formed < 50; formed += 1) {
      if (halting) break;
      const blockId = await formBlock();
      if (blockId === null) break;
      await sendPending();
      if (performance.now() - followed >= pollMs) {
        await followSent();
        followed = performance.now();
      }
      await yieldToEventLoop();
    }
    await followSent();
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = tick()
        .catch((error: unknown) => log.error(`anchor: pass failed: ${describeError(error)}`))
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
