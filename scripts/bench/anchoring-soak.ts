/**
 * Does anchoring keep up with ingestion? (Target: 300 records/s.) Not a test: prints figures
 * (docs/benchmarks.md).
 *
 *   node scripts/bench/anchoring-soak.ts [--rate 300] [--duration 300] [--sample 5] [--postgres]
 *
 * The server runs here as `npm start` builds it (buildApp on a throwaway embedded PGlite, or with
 * --postgres a throwaway database on the local PostgreSQL server; demo data; the embedded devnet;
 * the anchor worker on with its default settings). A worker thread plays the devices of the
 * blockchain-enabled clinics: it signs each record with its device's key exactly as
 * `npm run simulate-devices` does (scripts/simulate-devices.ts) and posts one record per request at
 * --rate per second for --duration seconds, so signing does not run on the server's event loop.
 * Every --sample seconds the records not yet anchored are counted: not in a block yet, and in a block
 * not MINED yet. After the load the worker is given time to drain, then every acknowledged record is
 * checked: in exactly one MINED or FINAL block, its proof folding to that block's root, the root anchored on
 * chain once; and the database holds exactly the acknowledged records.
 */
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { loadDeviceKeys } from '#server/db/seed/device-key-files.ts';
import { type DeviceState, initialState, nextRecord, signRecords } from '../simulate-devices.ts';

interface LoadPlan {
  url: string;
  dataDir: string;
  serials: string[];
  rate: number;
  durationS: number;
}
type LoadMessage =
  | { type: 'progress'; acknowledged: number }
  | {
      type: 'done';
      ids: number[];
      latencies: number[];
      failures: Record<string, number>;
      seconds: number;
      lateSends: number;
      /** Records due in the time (rate × duration) that were never sent: the server was too slow. */
      unsent: number;
    };

/** Most requests in flight at once: past this the generator falls behind (counted as late sends). */
const MAX_IN_FLIGHT = 64;

/**
 * The devices: open-loop, record k is due at k / rate seconds whatever the answers take, for
 * durationS seconds; a server slower than the rate holds up to MAX_IN_FLIGHT requests, then the rest
 * wait (counted as late), and what is not sent when the time is up is not sent.
 */
async function generateLoad(plan: LoadPlan): Promise<void> {
  const keys = await loadDeviceKeys(plan.dataDir, plan.serials);
  const states = new Map<string, DeviceState>(
    plan.serials.map((serial) => [serial, initialState(Math.random, Math.floor(Date.now() / 1000))]),
  );
  const endpoint = `${plan.url}/api/v1/ingest/sterilizations`;
  const total = Math.round(plan.rate * plan.durationS);
  const ids: number[] = [];
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let inFlight = 0;
  let lateSends = 0;
  let freed: (() => void) | undefined;
  const progress = setInterval(
    () => parentPort?.postMessage({ type: 'progress', acknowledged: ids.length }),
    1000,
  );

  async function send(index: number): Promise<void> {
    const serial = plan.serials[index % plan.serials.length]!;
    const built = nextRecord(serial, states.get(serial)!, Math.random, new Date());
    states.set(serial, built.state);
    const token = await signRecords(serial, [built.record], keys.get(serial)!);
    const sent = performance.now();
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token }),
      });
      const body = (await response.json().catch(() => ({}))) as {
        message?: string;
        data?: Array<{ id: number }>;
      };
      if (response.ok && body.data?.length === 1) {
        ids.push(Number(body.data[0]!.id));
        latencies.push(performance.now() - sent);
      } else {
        const key = `${response.status} ${body.message ?? ''}`.trim();
        failures[key] = (failures[key] ?? 0) + 1;
      }
    } catch (error) {
      const key = (error as Error).message;
      failures[key] = (failures[key] ?? 0) + 1;
    }
  }

  const started = performance.now();
  const running = new Set<Promise<void>>();
  const ends = started + plan.durationS * 1000;
  let sent = 0;
  for (let index = 0; index < total; index += 1) {
    const wait = started + (index * 1000) / plan.rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    else if (wait < -1000) lateSends += 1;
    while (inFlight >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => (freed = resolve));
    if (performance.now() >= ends) break;
    sent += 1;
    inFlight += 1;
    const request = send(index).finally(() => {
      inFlight -= 1;
      running.delete(request);
      freed?.();
    });
    running.add(request);
  }
  await Promise.all(running);
  clearInterval(progress);
  const seconds = (performance.now() - started) / 1000;
  parentPort?.postMessage({
    type: 'done',
    ids,
    latencies,
    failures,
    seconds,
    lateSends,
    unsent: total - sent,
  } satisfies LoadMessage);
}

if (!isMainThread) {
  await generateLoad(workerData as LoadPlan);
} else {
  await main();
}

async function main(): Promise<void> {
  const { buildApp } = await import('#server/app.ts');
  const { ANCHORED_EVENT } = await import('#server/modules/integrity/artifact.ts');
  const { integrityRecord, RECORD_FIELDS_SQL } = await import('#server/modules/integrity/anchor-worker.ts');
  const { connectChain } = await import('#server/modules/integrity/chain.ts');
  const { loadConfig } = await import('#server/config.ts');
  const { throwawayDatabase } = await import('./throwaway-database.ts');
  const { seedDemoData } = await import('#server/db/seed.ts');
  const { leafHash, verifyProof } = await import('#shared/integrity/index.ts');

  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '300' },
      duration: { type: 'string', default: '300' },
      sample: { type: 'string', default: '5' },
      postgres: { type: 'boolean', default: false },
    },
  });
  const rate = Number(values.rate);
  const durationS = Number(values.duration);
  const sampleS = Number(values.sample);
  if (![rate, durationS, sampleS].every((value) => Number.isFinite(value) && value > 0)) {
    throw new Error('--rate, --duration and --sample must be positive numbers');
  }

  const { database, dataDir, label, dispose } = await throwawayDatabase('anchoring', values.postgres);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  try {
    await seedDemoData(database, { sterilizations: 500, keysDir: dataDir });
    const config = loadConfig({
      LOG_LEVEL: 'warn',
      CLIENT_DIST: '/none',
      SEED_DEMO_DATA: 'false',
      // Devices reach a real server from many addresses; here they all come from one.
      INGEST_RATE_LIMIT_PER_MINUTE: '0',
      // Alerts on, their time rules swept more often than the default 60 s so sweeps run during the load.
      ALERT_SWEEP_INTERVAL_SECONDS: '10',
    });
    const chain = await connectChain(config.chain);
    app = await buildApp(config, { database, chain });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { db } = database;

    const devices = await db.execute<{ device_serial: string }>(sql`
      select d.device_serial from devices d join customers c on c.id = d.customer_id
      where c.enable_blockchain and c.deleted_at is null and d.deleted_at is null order by d.id`);
    const serials = devices.rows.map((row) => row.device_serial);
    const before = await db.execute<{ max: string | null }>(sql`select max(id) as max from sterilizations`);
    const firstNewId = Number(before.rows[0]?.max ?? 0) + 1;
    // Alert evaluation runs as it does in production (after each ingestion, in the background; the
    // time rules swept every ALERT_SWEEP_INTERVAL_SECONDS): what the load raised is counted after it.
    const alertsBefore = await db.execute<{ max: string | null }>(sql`select max(id) as max from alerts`);
    const firstAlertId = Number(alertsBefore.rows[0]?.max ?? 0) + 1;

    const waiting = async () => {
      const counts = await db.execute<{ unassigned: string; unmined: string }>(sql`
        select count(*) filter (where s.blockchain_data_block_id is null) as unassigned,
               count(*) filter (where b.status is null or b.status not in ('MINED', 'FINAL')) as unmined
        from sterilizations s
        join devices d on d.id = s.device_id
        join customers c on c.id = d.customer_id
        left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
        where c.enable_blockchain`);
      const row = counts.rows[0]!;
      return { unassigned: Number(row.unassigned), unmined: Number(row.unmined) };
    };
    const drain = async (timeoutS: number) => {
      const started = performance.now();
      for (;;) {
        const counts = await waiting();
        if (counts.unmined === 0) return (performance.now() - started) / 1000;
        if (performance.now() - started > timeoutS * 1000) return Number.NaN;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    // The seeded demo records are a backlog of their own: anchored before the load starts.
    const seedDrainS = await drain(180);
    console.error(
      `server on ${database.kind}, devices ${serials.join(', ')}; demo backlog anchored in ${seedDrainS.toFixed(1)} s`,
    );

    type Sample = { t: number; acknowledged: number; unassigned: number; unmined: number };
    const samples: Sample[] = [];
    let acknowledged = 0;
    const loadStarted = performance.now();
    const generator = new Worker(new URL(import.meta.url), {
      workerData: { url: address, dataDir, serials, rate, durationS } satisfies LoadPlan,
    });
    const done = new Promise<Extract<LoadMessage, { type: 'done' }>>((resolve, reject) => {
      generator.on('message', (message: LoadMessage) => {
        if (message.type === 'progress') acknowledged = message.acknowledged;
        else resolve(message);
      });
      generator.on('error', reject);
    });
    let loading = true;
    const sampler = (async () => {
      while (loading) {
        await new Promise((resolve) => setTimeout(resolve, sampleS * 1000));
        if (!loading) break;
        const sample = { t: (performance.now() - loadStarted) / 1000, acknowledged, ...(await waiting()) };
        samples.push(sample);
        console.error(
          `t=${sample.t.toFixed(0).padStart(4)} s  acknowledged ${String(sample.acknowledged).padStart(6)}  not in a block ${String(sample.unassigned).padStart(5)}  not mined ${String(sample.unmined).padStart(5)}`,
        );
      }
    })();
    const load = await done;
    loading = false;
    await sampler;
    await generator.terminate();
    // The records acknowledged last may still wait for their alert evaluation: how long it trails.
    const evaluationStarted = performance.now();
    await app.alerts.idle();
    const evaluationLagS = (performance.now() - evaluationStarted) / 1000;
    const drainS = await drain(300);
    const raisedAlerts = await db.execute<{ kind: string; count: string }>(sql`
      select kind, count(*) as count from alerts where id >= ${firstAlertId} group by kind order by kind`);
    const queuedMails = await db.execute<{ count: string }>(sql`
      select count(*) as count from mail_outbox
      where dedupe_key like 'alert:%' and split_part(dedupe_key, ':', 2)::bigint >= ${firstAlertId}`);
    const alertSummary =
      raisedAlerts.rows.map((row) => `${row.kind} ${Number(row.count).toLocaleString('en')}`).join(', ') ||
      'none';

    // ---- checks -----------------------------------------------------------------------------------
    const acknowledgedIds = new Set(load.ids);
    const stored = await db.execute<
      Parameters<typeof integrityRecord>[0] & {
        block_id: number | null;
        status: string | null;
        merkle_root: Hex | null;
        merkle_proof: Hex[] | null;
      }
    >(sql`
      select ${RECORD_FIELDS_SQL}, s.blockchain_data_block_id as block_id, b.status, b.merkle_root, s.merkle_proof
      from sterilizations s
      join devices d on d.id = s.device_id
      left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where s.id >= ${firstNewId}
      order by s.id`);
    const problems: string[] = [];
    const blocks = new Map<number, Hex>();
    for (const row of stored.rows) {
      if (!acknowledgedIds.has(Number(row.id))) problems.push(`record ${row.id} stored but not acknowledged`);
      if (
        row.block_id === null ||
        !['MINED', 'FINAL'].includes(row.status ?? '') ||
        !row.merkle_root ||
        !row.merkle_proof
      ) {
        problems.push(`record ${row.id} not in a MINED or FINAL block (${row.status ?? 'no block'})`);
        continue;
      }
      blocks.set(row.block_id, row.merkle_root);
      if (!verifyProof(leafHash(integrityRecord(row)), row.merkle_proof, row.merkle_root)) {
        problems.push(`record ${row.id}: proof does not fold to block ${row.block_id}'s root`);
      }
    }
    if (stored.rows.length !== acknowledgedIds.size || acknowledgedIds.size !== load.ids.length) {
      problems.push(
        `${load.ids.length} acknowledgements (${acknowledgedIds.size} distinct ids), ${stored.rows.length} records stored`,
      );
    }
    const logs = await chain.client.getLogs({
      address: chain.contractAddress,
      event: ANCHORED_EVENT,
      fromBlock: 'earliest',
      toBlock: 'latest',
    });
    const anchors = new Map<number, Hex[]>();
    for (const log of logs) {
      const id = Number(log.args.blockId);
      anchors.set(id, [...(anchors.get(id) ?? []), log.args.root as Hex]);
    }
    for (const [blockId, root] of blocks) {
      const onChain = anchors.get(blockId) ?? [];
      if (onChain.length !== 1 || onChain[0] !== root) {
        problems.push(
          `block ${blockId}: ${onChain.length} anchors on chain, root ${onChain[0] === root ? 'equal' : 'differs'}`,
        );
      }
    }
    await app.close();
    app = undefined;

    // ---- report -----------------------------------------------------------------------------------
    const achieved = load.ids.length / load.seconds;
    load.latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      load.latencies[Math.min(load.latencies.length - 1, Math.floor((p / 100) * load.latencies.length))] ??
      Number.NaN;
    // Samples are taken while the load runs: the first, the one halfway, the last.
    const first = samples[0];
    const middle = samples[Math.floor((samples.length - 1) / 2)];
    const last = samples.at(-1);
    const max = (key: 'unassigned' | 'unmined') => Math.max(0, ...samples.map((sample) => sample[key]));
    const pair = (sample: Sample | undefined) =>
      sample ? `${sample.unassigned} / ${sample.unmined} (t=${sample.t.toFixed(0)} s)` : '—';
    // Keeping up: what waits at the end of the load is no more than ~10 s of ingestion (the worker makes
    // a block every pass, ANCHOR_INTERVAL_SECONDS is 10), and it drains within a minute.
    const bound = rate * 10;
    const keptUp = (last?.unmined ?? Number.POSITIVE_INFINITY) <= bound && drainS <= 60;
    const sizes = [...blocks.keys()].length;
    const failed = Object.entries(load.failures)
      .map(([key, count]) => `${count} × ${key}`)
      .join(', ');
    console.log(`
### Anchoring at ${rate} records/s for ${durationS} s — ${label}, embedded devnet, ANCHOR_BATCH_SIZE ${config.chain.batchSize}, ANCHOR_INTERVAL_SECONDS ${config.chain.intervalSeconds}

| measure | value | target | |
|---|---|---|---|
| records acknowledged (${serials.length} devices, one record per request) | ${load.ids.length.toLocaleString('en')} in ${load.seconds.toFixed(1)} s = **${achieved.toFixed(0)}/s** | ${rate}/s | ${achieved >= rate * 0.98 ? 'met' : '**missed**'} |
| failed requests; sends over 1 s late; due but never sent | ${failed || 'none'}; ${load.lateSends}; ${load.unsent} | none | ${failed === '' ? 'met' : '**missed**'} |
| ingest latency p50 / p95 / p99 | ${pct(50).toFixed(0)} / ${pct(95).toFixed(0)} / ${pct(99).toFixed(0)} ms | | |
| waiting records (not in a block / not mined), start | ${pair(first)} | | |
| … middle | ${pair(middle)} | | |
| … end of load | ${pair(last)} | not mined ≤ ${bound} | ${keptUp ? 'met' : '**missed**'} |
| … max | ${max('unassigned')} / ${max('unmined')} | | |
| all anchored after the load in | ${Number.isNaN(drainS) ? '**not within 300 s**' : `${drainS.toFixed(1)} s`} | ≤ 60 s | ${drainS <= 60 ? 'met' : '**missed**'} |
| alerts raised by the load (evaluated after each ingestion, swept every ${config.alerts.sweepIntervalSeconds} s); e-mails queued | ${alertSummary}; ${Number(queuedMails.rows[0]?.count ?? 0).toLocaleString('en')} | | |
| alert evaluation still to do when the load ended, done in | ${evaluationLagS.toFixed(1)} s | | |
| blocks made | ${sizes} (${(stored.rows.length / Math.max(1, sizes)).toFixed(0)} records on average) | | |
| every acknowledged record stored once, in one MINED or FINAL block, proof → root anchored once on chain | ${problems.length === 0 ? 'yes' : `**no**: ${problems.length} problems, e.g. ${problems.slice(0, 3).join('; ')}`} | yes | ${problems.length === 0 ? 'met' : '**missed**'} |

Samples every ${sampleS} s (t, acknowledged, not in a block, not mined): ${samples
      .map((sample) => `${sample.t.toFixed(0)} ${sample.acknowledged} ${sample.unassigned} ${sample.unmined}`)
      .join(' · ')}
`);
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await app?.close();
    await dispose();
  }
}
