/**
 * The Merkle root of one blockchain data block of 100,000 records: target ≤ 2 s, and the
 * server keeps answering while it is made. Not a test: prints figures (docs/benchmarks.md).
 *
 *   node scripts/bench/merkle.ts [--leaves 100000] [--postgres]
 *
 * 1. The computation alone: realistic records (the device simulator's record builder, numbers with the
 *    scale PostgreSQL gives them back with) → leaves with the shared integrity module → root, then root
 *    and every record's proof (what the anchor worker stores), with the server's native keccak256.
 * 2. In the server: the same number of records of a blockchain-enabled clinic in a throwaway database
 *    (embedded PGlite; with --postgres a new database on the local PostgreSQL server, see
 *    throwaway-database.ts), and the anchor worker forming them into ONE block on the server's event
 *    loop, while
 *    GET /api/v1/health is called back to back and the event loop's delay is sampled
 *    (perf_hooks.monitorEventLoopDelay). Then the block is anchored on the devnet and checked: one
 *    block holding every record, the root on chain equal to the stored one, proofs that fold to it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { keccak256 as nativeKeccak256 } from '@nomicfoundation/edr';
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { createPrng } from '#server/db/seed/prng.ts';
import { seedDemoData } from '#server/db/seed.ts';
import {
  createAnchorWorker,
  integrityRecord,
  RECORD_FIELDS_SQL,
} from '#server/modules/integrity/anchor-worker.ts';
import { connectChain } from '#server/modules/integrity/chain.ts';
import {
  type IntegrityRecord,
  leafBytes,
  mapSliced,
  merkleLevelsAsync,
  merkleRoot,
  merkleTree,
  setKeccak256,
  verifyProof,
} from '#shared/integrity/index.ts';
import { initialState, nextRecord } from '../simulate-devices.ts';
import { throwawayDatabase } from './throwaway-database.ts';

const { values } = parseArgs({
  options: { leaves: { type: 'string', default: '100000' }, postgres: { type: 'boolean', default: false } },
});
const N = Number(values.leaves);
if (!Number.isInteger(N) || N < 2) throw new Error('--leaves must be an integer ≥ 2');
setKeccak256((data) => nativeKeccak256(data));

const SERIALS = ['NP000201', 'NP000202', 'SB000203', 'SB000204'];
const START_S = Math.floor(Date.now() / 1000) - N;

/** N records as four devices of one clinic would send them, one a second. */
function deviceRecords(n: number) {
  const random = createPrng(5);
  const states = new Map(SERIALS.map((serial) => [serial, initialState(random, START_S)]));
  return Array.from({ length: n }, (_, i) => {
    const serial = SERIALS[i % SERIALS.length]!;
    const built = nextRecord(serial, states.get(serial)!, random, new Date(START_S * 1000));
    states.set(serial, built.state);
    return {
      serial,
      received: new Date((START_S + i) * 1000 + Math.floor(random() * 1000)),
      ...built.record,
    };
  });
}

/** As the database gives a record back: bigint id and numerics as text with their column's scale. */
function asStored(record: ReturnType<typeof deviceRecords>[number], id: number): IntegrityRecord {
  const fixed = (value: number | null | undefined, digits: number) =>
    value === null || value === undefined ? null : value.toFixed(digits);
  return {
    id: String(id),
    received_ts: record.received,
    device_serial: record.serial,
    progressive_id: record.progressive_id,
    supplied_energy: fixed(record.supplied_energy, 2),
    nominal_time: fixed(record.nominal_time, 2),
    effective_time: fixed(record.effective_time, 2),
    residual_lamp_life: fixed(record.residual_lamp_life, 2),
    status_code: record.status_code,
    latitude: fixed(record.latitude, 6),
    longitude: fixed(record.longitude, 6),
    consumables_lot: record.consumables_lot ?? null,
    lot_progressive_id: record.lot_progressive_id ?? null,
    notes: record.notes ?? null,
  };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

// ---- 1. the computation alone --------------------------------------------------------------------
/** In a function of its own, so that its hundreds of MB are garbage before the server part starts. */
async function computationAlone() {
  const stored = deviceRecords(N).map((record, i) => asStored(record, i + 1));
  let started = performance.now();
  const leaves = stored.map((record) => leafBytes(record));
  const leavesMs = performance.now() - started;
  started = performance.now();
  const root = merkleRoot(leaves);
  const rootMs = performance.now() - started;
  started = performance.now();
  const tree = merkleTree(leaves);
  const treeMs = performance.now() - started;
  started = performance.now();
  const sliced = await merkleLevelsAsync(leaves);
  const slicedProofs = await mapSliced(leaves, (_, i) => sliced.proof(i));
  const slicedMs = performance.now() - started;
  const sameProofs = tree.proofs.every((proof, i) => proof.join() === slicedProofs[i]!.join());
  if (tree.root !== root || sliced.root !== root || !sameProofs) {
    throw new Error('merkleRoot, merkleTree and merkleLevelsAsync disagree');
  }
  return { leavesMs, rootMs, treeMs, slicedMs };
}
const alone = await computationAlone();

// ---- 2. in the server ----------------------------------------------------------------------------
/** The records into the database as the four devices' rows (a function, so they are garbage after). */
async function insertRecords(database: Database) {
  await seedDemoData(database, { sterilizations: 0, deviceKeys: 'shared' });
  const devices = await database.pool.query<{ id: number; device_serial: string }>(
    `select d.id, d.device_serial from devices d join customers c on c.id = d.customer_id
     where c.enable_blockchain and d.device_serial = any($1) order by d.id`,
    [SERIALS],
  );
  const deviceId = new Map(devices.rows.map((row) => [row.device_serial, row.id]));
  if (deviceId.size !== SERIALS.length) throw new Error('the seeded blockchain clinic has other devices');
  const records = deviceRecords(N);
  for (let from = 0; from < N; from += 10_000) {
    const chunk = records.slice(from, from + 10_000);
    const column = <T>(pick: (record: (typeof records)[number]) => T) => chunk.map(pick);
    await database.pool.query(
      `insert into sterilizations (device_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot,
         lot_progressive_id, notes, created_at, customer_id)
       select u.*, now() - interval '1 hour', d.customer_id from unnest($1::int[], $2::timestamptz[], $3::int[],
         $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::int[], $9::numeric[], $10::numeric[],
         $11::text[], $12::int[], $13::text[]) as u(device_id, received_ts, progressive_id, supplied_energy,
           nominal_time, effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot,
           lot_progressive_id, notes)
         join devices d on d.id = u.device_id`,
      [
        column((record) => deviceId.get(record.serial)),
        column((record) => record.received.toISOString()),
        column((record) => record.progressive_id),
        column((record) => record.supplied_energy),
        column((record) => record.nominal_time),
        column((record) => record.effective_time),
        column((record) => record.residual_lamp_life),
        column((record) => record.status_code),
        column((record) => record.latitude ?? null),
        column((record) => record.longitude ?? null),
        column((record) => record.consumables_lot ?? null),
        column((record) => record.lot_progressive_id ?? null),
        column((record) => record.notes ?? null),
      ],
    );
  }
}

const { database, label, dispose } = await throwawayDatabase('merkle', values.postgres);
try {
  await insertRecords(database);
  await database.pool.query('VACUUM ANALYZE sterilizations');

  const config = loadConfig({
    LOG_LEVEL: 'warn',
    CLIENT_DIST: '/none',
    SEED_DEMO_DATA: 'false',
    ANCHOR_ENABLED: 'false',
  });
  const chain = await connectChain(config.chain);
  const app = await buildApp(config, { database, chain });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const worker = createAnchorWorker({
    db: database.db,
    chain,
    batchSize: N,
    backlogFactor: 1,
    intervalSeconds: 0,
    confirmations: 1,
  });

  // A running server would have collected the garbage of part 1 and of the insert long ago; so does this
  // one before it is measured (a full collection now, instead of during the measured block).
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();

  // Warm-up: the health route, JIT.
  for (let i = 0; i < 200; i += 1) await (await fetch(`${address}/api/v1/health`)).arrayBuffer();

  /** GET /api/v1/health back to back, and the event loop's delay, while `work` runs. */
  async function whileCalling<T>(work: () => Promise<T>) {
    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const sent = performance.now();
        const response = await fetch(`${address}/api/v1/health`);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`health answered ${response.status}`);
        health.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const started = performance.now();
    const result = await work();
    const ms = performance.now() - started;
    loop.disable();
    polling = false;
    await poller;
    health.sort((a, b) => a - b);
    return {
      result,
      ms,
      loopMaxMs: loop.max / 1e6,
      loopP99Ms: loop.percentile(99) / 1e6,
      health,
      healthP99: percentile(health, 99),
    };
  }
  // The same calls with nothing else going on: what this machine gives at the moment, for comparison.
  const idle = await whileCalling(() => new Promise((resolve) => setTimeout(resolve, 5000)));
  const formed = await whileCalling(() => worker.formBlock());
  const blockId = formed.result;
  if (blockId === null) throw new Error('no block formed');

  await worker.sendPending();
  for (let i = 0; i < 50; i += 1) {
    await worker.followSent();
    const status = await database.pool.query<{ status: string }>(
      'select status from blockchain_data_blocks where id = $1',
      [blockId],
    );
    if (status.rows[0]?.status === 'MINED' || status.rows[0]?.status === 'FINAL') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const block = await database.pool.query<{ status: string; merkle_root: Hex; records: string }>(
    `select b.status, b.merkle_root, (select count(*) from sterilizations s where s.blockchain_data_block_id = b.id) as records
     from blockchain_data_blocks b where b.id = $1`,
    [blockId],
  );
  const { status, merkle_root: storedRoot, records: inBlock } = block.rows[0]!;
  const onChain = await chain.anchoredRoot(blockId);
  const sample = await database.db.execute<
    Parameters<typeof integrityRecord>[0] & { merkle_proof: Hex[] }
  >(sql`
    select ${RECORD_FIELDS_SQL}, s.merkle_proof from sterilizations s join devices d on d.id = s.device_id
    where s.blockchain_data_block_id = ${blockId} and s.id % 9973 = 1`);
  const proofsOk = sample.rows.every((row) =>
    verifyProof(
      `0x${Buffer.from(leafBytes(integrityRecord(row))).toString('hex')}`,
      row.merkle_proof,
      storedRoot,
    ),
  );
  await app.close();

  const { leavesMs, rootMs, treeMs, slicedMs } = alone;
  const total = leavesMs + rootMs;
  console.log(`
### Merkle root over ${N.toLocaleString('en')} records (native keccak256)

| computation | time | target | |
|---|---|---|---|
| leaves (canonical form + keccak256) | ${ms(leavesMs)} | | |
| root | ${ms(rootMs)} | | |
| leaves + root | ${ms(total)} | ≤ 2000 ms | ${verdict(total <= 2000)} |
| root + every proof (sync) | ${ms(treeMs)} | | |
| root + every proof, time-sliced | ${ms(slicedMs)} | | |

| in the server on ${label} (anchor worker forms one ${N.toLocaleString('en')}-record block) | value | target | |
|---|---|---|---|
| block formed (read, leaves, tree, proofs stored) | ${ms(formed.ms)} | | |
| event-loop delay during it, max / p99 | ${ms(formed.loopMaxMs)} / ${ms(formed.loopP99Ms)} | max ≤ 50 ms | ${verdict(formed.loopMaxMs <= 50)} |
| GET /api/v1/health meanwhile, p99 / max (${formed.health.length} calls) | ${ms(formed.healthP99)} / ${ms(formed.health.at(-1) ?? Number.NaN)} | p99 ≤ 50 ms | ${verdict(formed.healthP99 <= 50)} |
| the same 5 s before, server idle: event-loop max / p99, health p99 / max | ${ms(idle.loopMaxMs)} / ${ms(idle.loopP99Ms)}, ${ms(idle.healthP99)} / ${ms(idle.health.at(-1) ?? Number.NaN)} | | |
| block ${blockId}: status, records, root on chain | ${status}, ${inBlock}, ${onChain === storedRoot ? 'equal' : `**differs** (${onChain})`} | MINED or FINAL, ${N}, equal | ${verdict((status === 'MINED' || status === 'FINAL') && Number(inBlock) === N && onChain === storedRoot)} |
| sampled proofs (${sample.rows.length}) fold to the root | ${proofsOk ? 'yes' : '**no**'} | yes | ${verdict(proofsOk)} |
`);
} finally {
  await dispose();
}
