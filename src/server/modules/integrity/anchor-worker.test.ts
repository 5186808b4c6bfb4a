// The anchor worker against the embedded devnet, on PGlite or (TEST_DATABASE_URL) PostgreSQL:
// every eligible record ends in exactly one MINED block whose root is on chain, whatever step a run
// stops at, and two workers at once never anchor a record twice.
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { startEventBus } from '#server/event-bus/event-bus.ts';
import type { PublishedEvent } from '#server/event-bus/published-event.ts';
import { openTestDatabase, seedMinimal } from '#server/test/test-database.ts';
import { leafBytes, merkleRoot, verifyProof } from '#shared/integrity/index.ts';
import {
  blockSideLeaves,
  createAnchorWorker,
  integrityRecord,
  RECORD_FIELDS_SQL,
  resetEphemeralBlocks,
} from './anchor-worker.ts';
import { ANCHORED_EVENT } from './artifact.ts';
import { type Chain, connectChain } from './chain.ts';

let database: Database;
let chain: Chain;

const chainConfig = loadConfig({}).chain;

beforeAll(async () => {
  database = await openTestDatabase();
  await seedMinimal(database);
  chain = await connectChain(chainConfig);
});
afterAll(() => database?.close());

afterEach(async () => {
  // Every test starts from records without blocks (blocks stay; their ids only grow).
  await database.db.execute(
    sql`update sterilizations set blockchain_data_block_id = null, hashing_version = null, merkle_proof = null`,
  );
  await database.db.execute(
    sql`update blockchain_data_blocks set status = 'FAILED' where status not in ('MINED', 'FINAL')`,
  );
});

const worker = (overrides: Partial<Parameters<typeof createAnchorWorker>[0]> = {}) =>
  createAnchorWorker({
    db: database.db,
    chain,
    batchSize: 8,
    intervalSeconds: 0,
    confirmations: 1,
    pollMs: 10,
    ...overrides,
  });

async function eligibleIds(): Promise<number[]> {
  const rows = await database.db.execute<{ id: string }>(sql`
    select s.id from sterilizations s join devices d on d.id = s.device_id join customers c on c.id = d.customer_id
    where c.enable_blockchain order by s.id`);
  return rows.rows.map((row) => Number(row.id));
}

type Anchored = {
  id: string;
  block_id: number;
  status: string;
  merkle_root: Hex;
  transaction_hash: Hex | null;
};

/** Checks the end state: each eligible record in one MINED block, roots right and on chain, proofs valid. */
async function expectAllAnchored(expectedIds: number[]) {
  const rows = await database.db.execute<Anchored & { merkle_proof: string[] }>(sql`
    select s.id, b.id as block_id, b.status, b.merkle_root, b.transaction_hash, s.merkle_proof
    from sterilizations s join blockchain_data_blocks b on b.id = s.blockchain_data_block_id order by s.id`);
  expect(rows.rows.map((row) => Number(row.id))).toEqual(expectedIds);
  const blocks = new Map<number, Anchored>();
  for (const row of rows.rows) blocks.set(row.block_id, row);
  for (const block of blocks.values()) {
    expect(['MINED', 'FINAL'], `block ${block.block_id}`).toContain(block.status);
    expect(await chain.anchoredRoot(block.block_id)).toBe(block.merkle_root);
    const receipt = await chain.receipt(block.transaction_hash as Hex);
    expect(receipt?.status).toBe('success');
    const records = await database.db.execute<Parameters<typeof integrityRecord>[0]>(sql`
      select ${RECORD_FIELDS_SQL} from sterilizations s join devices d on d.id = s.device_id
      where s.blockchain_data_block_id = ${block.block_id} order by s.id`);
    // After the records, the block's report versions and key events (the seed's keys ride in the first).
    const leaves = [
      ...records.rows.map((record) => leafBytes(integrityRecord(record))),
      ...(await blockSideLeaves(database.db, block.block_id)),
    ];
    expect(merkleRoot(leaves)).toBe(block.merkle_root);
  }
  for (const row of rows.rows) {
    const record = await database.db.execute<Parameters<typeof integrityRecord>[0]>(sql`
      select ${RECORD_FIELDS_SQL} from sterilizations s join devices d on d.id = s.device_id where s.id = ${row.id}`);
    const leaf = `0x${Buffer.from(leafBytes(integrityRecord(record.rows[0]!))).toString('hex')}` as Hex;
    expect(verifyProof(leaf, row.merkle_proof as Hex[], row.merkle_root)).toBe(true);
  }
  // One Anchored event per block id on chain: nothing anchored twice.
  const logs = await chain.client.getLogs({
    address: chain.contractAddress,
    event: ANCHORED_EVENT,
    fromBlock: 'earliest',
    toBlock: 'latest',
  });
  const perBlock = new Map<bigint, number>();
  for (const log of logs) perBlock.set(log.args.blockId!, (perBlock.get(log.args.blockId!) ?? 0) + 1);
  expect([...perBlock.values()].every((count) => count === 1)).toBe(true);
  for (const id of blocks.keys()) expect(perBlock.get(BigInt(id))).toBe(1);
  return blocks;
}

describe('anchor worker', () => {
  it('anchors every record of blockchain-enabled customers, and only those', async () => {
    const ids = await eligibleIds();
    expect(ids.length).toBeGreaterThan(8);
    await worker({ backlogFactor: 1 }).tick();
    const blocks = await expectAllAnchored(ids);
    expect(blocks.size).toBeGreaterThanOrEqual(2);
  });

  it('announces each block it mines to the owners of its records (live updates)', async () => {
    const bus = startEventBus(database, { info() {}, warn() {} });
    const mined: PublishedEvent[] = [];
    const unsubscribe = bus.subscribe({ onEvent: (event) => mined.push(event), onGap() {} });
    try {
      await bus.ready();
      await worker({ backlogFactor: 1 }).tick();
      const owners = await database.db.execute<{ block_id: number; customer_id: number }>(sql`
        select distinct blockchain_data_block_id as block_id, customer_id from sterilizations
        where blockchain_data_block_id is not null order by 1, 2`);
      const expected = new Map<number, number[]>();
      for (const row of owners.rows)
        expected.set(row.block_id, [...(expected.get(row.block_id) ?? []), row.customer_id]);
      expect(expected.size).toBeGreaterThanOrEqual(2);
      // Delivery is asynchronous (a NOTIFY on PostgreSQL): wait until every block has been announced,
      // once when MINED and once when FINAL (at once on the devnet, whose finalized block is its latest).
      await vi.waitFor(() => expect(mined).toHaveLength(2 * expected.size), { timeout: 10_000 });
      const announced = new Map(
        mined.map((event) => [
          event.type === 'block.mined' ? event.blockId : 0,
          event.type === 'block.mined' ? [...event.customerIds].sort((a, b) => a - b) : [],
        ]),
      );
      expect(announced).toEqual(expected);
    } finally {
      unsubscribe();
      await bus.close();
    }
  });

  it('waits for a full batch or the interval', async () => {
    const ids = await eligibleIds();
    await database.db.execute(sql`update sterilizations set created_at = now()`);
    const patient = worker({ batchSize: ids.length + 1, intervalSeconds: 3600 });
    expect(await patient.formBlock()).toBeNull();
    const impatient = worker({ batchSize: ids.length + 1, intervalSeconds: 0 });
    expect(await impatient.formBlock()).not.toBeNull();
    await impatient.tick();
    const blocks = await expectAllAnchored(ids);
    expect(blocks.size).toBe(1);
  });

  it('takes a backlog in larger blocks', async () => {
    const ids = await eligibleIds();
    await worker({ batchSize: 2, backlogFactor: 1000 }).tick();
    expect((await expectAllAnchored(ids)).size).toBe(1);
  });

  it('restart after the block is stored (PENDING): the next run sends it', async () => {
    const ids = await eligibleIds();
    const first = worker();
    expect(await first.formBlock()).not.toBeNull();
    await worker().tick();
    await expectAllAnchored(ids);
  });

  it('restart after the hash is stored but before the broadcast: the same transaction is sent, once', async () => {
    const ids = await eligibleIds();
    const crashing = worker({
      beforeBroadcast: () => {
        throw new Error('crash');
      },
    });
    await crashing.formBlock();
    await crashing.sendPending();
    const sent = await database.db.execute<{ id: number; transaction_hash: Hex }>(
      sql`select id, transaction_hash from blockchain_data_blocks where status = 'SENT'`,
    );
    expect(sent.rows.length).toBeGreaterThan(0);
    expect(await chain.knowsTransaction(sent.rows[0]!.transaction_hash)).toBe(false);
    await worker().tick();
    const blocks = await expectAllAnchored(ids);
    // Broadcast as it was signed before the crash: the hash stored then is the one mined.
    expect(blocks.get(Number(sent.rows[0]!.id))?.transaction_hash).toBe(sent.rows[0]!.transaction_hash);
  });

  it('restart after the transaction is sent, before it is mined (confirmations)', async () => {
    const ids = await eligibleIds();
    await worker({ confirmations: 2 }).tick();
    const sent = await database.db.execute<{ n: string }>(
      sql`select count(*) as n from blockchain_data_blocks where status = 'SENT'`,
    );
    expect(Number(sent.rows[0]!.n)).toBeGreaterThan(0);
    await chain.request({ method: 'evm_mine' } as never);
    await worker({ confirmations: 2 }).tick();
    await expectAllAnchored(ids);
  });

  it('a block anchored on chain but still PENDING in the database adopts that transaction', async () => {
    const ids = await eligibleIds();
    const w = worker({ batchSize: 1000 });
    const blockId = (await w.formBlock())!;
    const block = await database.db.execute<{ merkle_root: Hex }>(
      sql`select merkle_root from blockchain_data_blocks where id = ${blockId}`,
    );
    const prepared = await chain.prepareAnchor(blockId, block.rows[0]!.merkle_root);
    await chain.broadcast(prepared.serialized); // "crashed" before recording the hash
    await w.tick();
    await expectAllAnchored(ids);
    const stored = await database.db.execute<{ transaction_hash: Hex }>(
      sql`select transaction_hash from blockchain_data_blocks where id = ${blockId}`,
    );
    expect(stored.rows[0]!.transaction_hash).toBe(prepared.hash);
  });

  it('a fresh devnet re-anchors the blocks of the previous one', async () => {
    const ids = await eligibleIds();
    await worker().tick();
    await expectAllAnchored(ids);
    const previous = chain;
    chain = await connectChain(chainConfig);
    try {
      expect(await resetEphemeralBlocks(database.db, chain)).toBeGreaterThan(0);
      await worker().tick();
      await expectAllAnchored(ids);
    } finally {
      chain = previous;
      await resetEphemeralBlocks(database.db, chain);
      await worker().tick();
    }
  });

  it('records taken or changed between reading and locking: no block, the next pass forms the right one', async () => {
    const ids = await eligibleIds();
    // Another worker forms a block of the same records while this one computes.
    const other = worker({ batchSize: 1000 });
    const overtaken = worker({ batchSize: 1000, beforeStore: () => other.formBlock().then(() => {}) });
    expect(await overtaken.formBlock()).toBeNull();
    await overtaken.tick();
    await expectAllAnchored(ids);
    await database.db.execute(
      sql`update sterilizations set blockchain_data_block_id = null, hashing_version = null, merkle_proof = null`,
    );

    // A device's serial (part of every leaf) changes while the block is computed.
    const device = await database.db.execute<{ id: number; device_serial: string }>(sql`
      select d.id, d.device_serial from devices d join customers c on c.id = d.customer_id
      where c.enable_blockchain order by d.id limit 1`);
    const { id: deviceId, device_serial: serial } = device.rows[0]!;
    const renamed = `${serial.slice(0, -1)}${serial.endsWith('Z') ? 'Y' : 'Z'}`; // still 8 characters
    const renaming = worker({
      batchSize: 1000,
      beforeStore: async () => {
        await database.db.execute(sql`update devices set device_serial = ${renamed} where id = ${deviceId}`);
      },
    });
    try {
      expect(await renaming.formBlock()).toBeNull();
      await worker({ batchSize: 1000 }).tick();
      await expectAllAnchored(ids);
    } finally {
      await database.db.execute(sql`update devices set device_serial = ${serial} where id = ${deviceId}`);
    }
  });

  it('a block of more than writePage records is stored in parts, its root last, and anchored once', async () => {
    const ids = await eligibleIds();
    const rootsSeen: Array<string | null> = [];
    const parted = worker({
      batchSize: 1000,
      writePage: 3,
      afterStoredPart: async (blockId) => {
        const block = await database.db.execute<{ merkle_root: string | null }>(
          sql`select merkle_root from blockchain_data_blocks where id = ${blockId}`,
        );
        rootsSeen.push(block.rows[0]!.merkle_root);
        // Not sendable yet: a block without its root is left alone.
        await worker().sendPending();
      },
    });
    await parted.tick();
    expect(rootsSeen).toEqual(Array.from({ length: Math.ceil(ids.length / 3) }, () => null));
    expect((await expectAllAnchored(ids)).size).toBe(1);
  });

  it('a run that crashed while storing a block in parts: the block is not sent, and is undone later', async () => {
    const ids = await eligibleIds();
    let parts = 0;
    const crashing = worker({
      batchSize: 1000,
      writePage: 3,
      afterStoredPart: () => {
        parts += 1;
        if (parts === 2) throw new Error('crash');
      },
    });
    await expect(crashing.formBlock()).rejects.toThrow('crash');
    const halfStored = async () =>
      (
        await database.db.execute<{ id: number; status: string; records: string }>(sql`
          select b.id, b.status, (select count(*) from sterilizations s where s.blockchain_data_block_id = b.id) as records
          from blockchain_data_blocks b where b.merkle_root is null and b.status <> 'FAILED'`)
      ).rows;
    const [half] = await halfStored();
    expect(half).toMatchObject({ status: 'PENDING', records: '6' });

    // Within abandonedAfterMs the half-stored block is left as it is (its run may still be going).
    await worker({ batchSize: 1000 }).tick();
    expect(await halfStored()).toEqual([half]);
    expect(await chain.anchoredRoot(half!.id)).toBeNull();

    // After it, the block is FAILED and its records are anchored in another block.
    await worker({ batchSize: 1000, abandonedAfterMs: 0 }).tick();
    const failed = await database.db.execute<{ status: string }>(
      sql`select status from blockchain_data_blocks where id = ${half!.id}`,
    );
    expect(failed.rows[0]!.status).toBe('FAILED');
    await expectAllAnchored(ids);
  });

  it('records taken by another worker while a block is stored in parts: that block is undone', async () => {
    const ids = await eligibleIds();
    const other = worker({ batchSize: 1000 });
    let parts = 0;
    const overtaken = worker({
      batchSize: 1000,
      writePage: 3,
      afterStoredPart: async () => {
        parts += 1;
        if (parts === 1) await other.formBlock(); // takes every record not stored yet
      },
    });
    expect(await overtaken.formBlock()).toBeNull();
    const undone = await database.db.execute<{ n: string }>(sql`
      select count(*) as n from sterilizations s join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where b.status = 'FAILED'`);
    expect(Number(undone.rows[0]!.n)).toBe(0);
    await worker({ batchSize: 1000 }).tick();
    await expectAllAnchored(ids);
  });

  it('two workers at once never put a record in two blocks nor anchor a block twice', async () => {
    // More work: 400 extra records for a blockchain-enabled customer's device.
    const device = await database.db.execute<{ id: number }>(sql`
      select d.id from devices d join customers c on c.id = d.customer_id where c.enable_blockchain order by d.id limit 1`);
    await database.db.execute(sql`
      insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
        effective_time, residual_lamp_life, status_code, notes, created_at)
      select d.id, d.customer_id, now(), 900000 + g, 12.5, 15, 14.75, 8000, 0, 'race ' || g, now() - interval '1 hour'
      from generate_series(1, 400) g, devices d where d.id = ${device.rows[0]!.id}`);
    const ids = await eligibleIds();
    const a = worker({ batchSize: 16, backlogFactor: 1 });
    const b = worker({ batchSize: 16, backlogFactor: 1 });
    for (let round = 0; round < 20; round += 1) {
      await Promise.all([a.tick(), b.tick()]);
      const left = await database.db.execute<{ n: string }>(sql`
        select count(*) as n from sterilizations s join devices d on d.id = s.device_id
        join customers c on c.id = d.customer_id
        left join blockchain_data_blocks bl on bl.id = s.blockchain_data_block_id
        where c.enable_blockchain and (s.blockchain_data_block_id is null or bl.status not in ('MINED', 'FINAL'))`);
      if (Number(left.rows[0]!.n) === 0) break;
    }
    const blocks = await expectAllAnchored(ids);
    expect(blocks.size).toBeGreaterThanOrEqual(Math.floor(ids.length / 16));
  }, 60_000);
});
