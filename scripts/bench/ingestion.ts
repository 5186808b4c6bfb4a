/**
 * The ingestion limit: the most signed records per second the server takes on PostgreSQL,
 * one record per token and in batches, with the anchor worker on. Not a test: prints figures
 * (docs/benchmarks.md).
 *
 *   npm run bench:ingestion -- [--single 12000] [--batches 600] [--batch-size 50] [--concurrency 16] [--devices 32] [--workers 1]
 *
 * The server runs as production starts it (`node src/server/main.ts [--workers N]`, anchoring on with
 * its defaults) on a throwaway database of the local PostgreSQL server (or DATABASE_URL's server).
 * The devices of the blockchain clinics post (the demo seed gives them 6; `--devices` adds devices with
 * keys of their own to those clinics until they have that many, as a fleet of thousands has far more
 * devices than requests in flight): every token is signed before the clock starts, so the
 * figure is the server's (signing is the device's work), and `--concurrency` requests are kept in
 * flight (closed loop: the next goes when one is answered), at most one per device. The per-address ingestion rate limit is
 * off: it limits one device, not the server. After each phase: records acknowledged per second,
 * latency, CPU (server, PostgreSQL, this client) and the server + PostgreSQL CPU per record, which
 * says what two idle cores would take when the machine is shared; and how many records wait to be anchored; at the end, the time anchoring
 * needed to catch up, and checks that every acknowledged record is stored once and in one MINED or FINAL block.
 */
import { parseArgs } from 'node:util';
import { createDeviceKeysDir, deviceKeyPair } from '#server/db/seed/device-key-files.ts';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import {
  type Acknowledged,
  acknowledge,
  type BenchTarget,
  checkIngestion,
  createTarget,
  DEFAULT_POSTGRES_URL,
  type Fleet,
  freePort,
  loadFleet,
  type PostResult,
  postToken,
  recordKey,
  seedTarget,
  sleep,
  startServer,
  treeCpuSeconds,
  withDatabase,
} from './harness.ts';

const { values } = parseArgs({
  options: {
    single: { type: 'string', default: '12000' },
    batches: { type: 'string', default: '600' },
    'batch-size': { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '16' },
    devices: { type: 'string', default: '32' },
    workers: { type: 'string', default: '1' },
  },
});
const positive = (name: string, raw: string) => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number`);
  return value;
};
const singleTokens = positive('single', values.single);
const batchTokens = positive('batches', values.batches);
const batchSize = positive('batch-size', values['batch-size']);
const concurrency = positive('concurrency', values.concurrency);
const deviceCount = positive('devices', values.devices);
const workers = positive('workers', values.workers);

type Signed = { serial: string; records: SterilizationClaim[]; token: string };

/** Tokens of `perToken` records each, spread over the devices, signed now (before timing). */
async function signAll(fleet: Fleet, tokens: number, perToken: number): Promise<Signed[]> {
  const signed: Signed[] = [];
  for (let from = 0; from < tokens; from += 200) {
    const chunk = Array.from({ length: Math.min(200, tokens - from) }, (_, i) => {
      const serial = fleet.serials[(from + i) % fleet.serials.length]!;
      return { serial, records: fleet.next(serial, perToken) };
    });
    signed.push(
      ...(await Promise.all(
        chunk.map(async (item) => ({ ...item, token: await fleet.sign(item.serial, item.records) })),
      )),
    );
  }
  return signed;
}

/**
 * Adds devices to the blockchain clinics, in turn, until they have `total` active devices; each gets a
 * key pair of its own, its private key in the target's key directory as the seed writes them.
 */
async function addBlockchainDevices(bench: BenchTarget, total: number): Promise<void> {
  const keysDir = await createDeviceKeysDir(bench.dataDir);
  await withDatabase(bench, async (database) => {
    const { rows: models } = await database.pool.query<{
      customer_id: number;
      product_id: number;
      device_serial: string;
      active: string;
    }>(
      `select distinct on (d.customer_id) d.customer_id, d.product_id, d.device_serial,
              count(*) over () as active
         from devices d join customers c on c.id = d.customer_id
        where c.enable_blockchain and d.deleted_at is null and c.deleted_at is null and d.public_key is not null
        order by d.customer_id, d.id`,
    );
    const active = Number(models[0]?.active ?? 0);
    for (let added = 0; active + added < total && models.length > 0; added++) {
      const model = models[added % models.length]!;
      // Serials are 8 characters: the product's two letters, then 9 and a number the seed never uses.
      const serial = `${model.device_serial.slice(0, 2)}9${String(added + 1).padStart(5, '0')}`;
      const { publicKeyPem } = await deviceKeyPair(serial, keysDir);
      await database.pool.query(
        `insert into devices (customer_id, product_id, device_serial, label, public_key)
         values ($1, $2, $3, $4, $5)`,
        [model.customer_id, model.product_id, serial, `Bench device ${serial}`, publicKeyPem],
      );
    }
  });
}

const post = (base: string, item: Signed): Promise<PostResult> => postToken(base, item.token);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const serverUrl = process.env.DATABASE_URL || DEFAULT_POSTGRES_URL;
const target = await createTarget('ingestion', serverUrl);
try {
  console.log(`seeding a throwaway database on ${new URL(serverUrl).host}…`);
  await seedTarget(target, 2000);
  await addBlockchainDevices(target, deviceCount);
  const serials = await withDatabase(target, async (database) => {
    const { rows } = await database.pool.query<{ device_serial: string }>(
      `select d.device_serial from devices d join customers c on c.id = d.customer_id
        where c.enable_blockchain and d.deleted_at is null and c.deleted_at is null and d.public_key is not null
        order by d.device_serial`,
    );
    return rows.map((row) => row.device_serial);
  });
  const fleet = await loadFleet(target.dataDir, serials);
  // A device sends one token at a time, as a real one does: two of its tokens at once would wait on
  // each other's consumable-batch row, a contention no fleet produces. So each lane has its own devices.
  const laneCount = Math.min(concurrency, serials.length);
  const lanes = Array.from(
    { length: laneCount },
    (_, lane) => new Set(serials.filter((_serial, i) => i % laneCount === lane)),
  );
  console.log(`${serials.length} devices of blockchain clinics, ${laneCount} requests in flight`);
  console.log(`signing ${singleTokens} single-record tokens and ${batchTokens} of ${batchSize} records…`);
  // Signed first, so that its records come before the timed ones: each device's records arrive in the
  // order it numbered them, as a device online sends them (records signed later but sent earlier would
  // make every timed record a late one, with the gap bookkeeping and alerts that a late record costs).
  const warmup = await signAll(fleet, 200, 1);
  const phases = [
    { name: `1 record per token`, items: await signAll(fleet, singleTokens, 1) },
    { name: `${batchSize} records per token`, items: await signAll(fleet, batchTokens, batchSize) },
  ];

  const databaseName = new URL(target.databaseUrl as string).pathname.slice(1);
  const server = await startServer(target, {
    port: await freePort(),
    args: workers > 1 ? ['--workers', String(workers)] : [],
    env: { INGEST_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn' },
  });
  const acknowledged = new Map<string, Acknowledged>();
  const sent = new Set<string>();
  const problems: string[] = [];
  const waiting = () =>
    withDatabase(target, async (database) => {
      const { rows } = await database.pool.query<{ n: string }>(
        `select count(*) as n from sterilizations s join customers c on c.id = s.customer_id
          left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
          where c.enable_blockchain and (b.id is null or b.status not in ('MINED', 'FINAL'))`,
      );
      return Number(rows[0]!.n);
    });

  try {
    // A short warm-up (JIT, connections, the first blocks), not counted.
    for (const item of warmup)
      for (const record of item.records) sent.add(recordKey(item.serial, record.progressive_id));
    await Promise.all(
      lanes.map(async (lane) => {
        for (const item of warmup.filter((one) => lane.has(one.serial)))
          acknowledge(item.serial, item.records, await post(server.base, item), acknowledged, problems);
      }),
    );

    // What keeping the devices' tokens costs on disk (table, TOAST and index), per record stored.
    const tokenBytes = () =>
      withDatabase(target, async (database) => {
        const { rows } = await database.pool.query<{ n: string }>(
          `select pg_total_relation_size('device_tokens')::text as n`,
        );
        return Number(rows[0]!.n);
      });
    const report: string[] = [];
    for (const phase of phases) {
      const bytesBefore = await tokenBytes();
      const latencies: number[] = [];
      const failures = new Map<string, number>();
      let records = 0;
      const cpuBefore = treeCpuSeconds(server.pid, databaseName);
      const clientBefore = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        lanes.map(async (lane) => {
          for (const item of phase.items.filter((one) => lane.has(one.serial))) {
            for (const record of item.records) sent.add(recordKey(item.serial, record.progressive_id));
            const result = await post(server.base, item);
            latencies.push(result.ms);
            if (acknowledge(item.serial, item.records, result, acknowledged, problems))
              records += item.records.length;
            else {
              const key = `${result.status} ${result.message ?? ''}`.trim();
              failures.set(key, (failures.get(key) ?? 0) + 1);
            }
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpuAfter = treeCpuSeconds(server.pid, databaseName);
      const client = process.cpuUsage(clientBefore);
      const cores = (used: number) => (used / seconds).toFixed(2);
      // What the figure would be with the machine to itself: the CPU the server and the database spent
      // per record (the devices' side, here this client, runs elsewhere in real life).
      const perRecordMs =
        ((cpuAfter.server - cpuBefore.server + cpuAfter.postgres - cpuBefore.postgres) * 1000) /
        Math.max(1, records);
      latencies.sort((a, b) => a - b);
      const tokenBytesAdded = (await tokenBytes()) - bytesBefore;
      const line =
        `${phase.name}: ${records} records in ${seconds.toFixed(1)} s = ${Math.round(records / seconds)} records/s ` +
        `(${Math.round(phase.items.length / seconds)} requests/s; p50 / p95 / p99 ${percentile(latencies, 50).toFixed(1)} / ` +
        `${percentile(latencies, 95).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} ms; ` +
        `CPU in cores: server ${cores(cpuAfter.server - cpuBefore.server)}, PostgreSQL ${cores(cpuAfter.postgres - cpuBefore.postgres)}, ` +
        `this client ${cores((client.user + client.system) / 1e6)}; ` +
        `server + PostgreSQL CPU per record ${perRecordMs.toFixed(2)} ms, so about ${Math.round((2 * 1000) / perRecordMs)} records/s on 2 idle cores; ` +
        `stored tokens ${Math.round(tokenBytesAdded / Math.max(1, records))} bytes per record; ` +
        `waiting to be anchored at the end: ${await waiting()}` +
        `${failures.size > 0 ? `; failed: ${[...failures].map(([k, n]) => `${n}× ${k}`).join(', ')}` : ''})`;
      console.log(line);
      report.push(line);
    }

    const drainStarted = performance.now();
    let left = await waiting();
    while (left > 0 && performance.now() - drainStarted < 300_000) {
      await sleep(250);
      left = await waiting();
    }
    const drained = `anchoring caught up ${((performance.now() - drainStarted) / 1000).toFixed(1)} s after the load (${left} still waiting)`;
    console.log(drained);

    await server.stop();
    const check = await withDatabase(target, (database) => checkIngestion(database, acknowledged, sent));
    const blocks = await withDatabase(target, async (database) => {
      const { rows } = await database.pool.query<{ blocks: string; records: string; outside: string }>(
        `select count(distinct b.id) as blocks, count(s.id) as records,
                count(*) filter (where b.status is null or b.status not in ('MINED', 'FINAL')) as outside
           from sterilizations s join customers c on c.id = s.customer_id
           left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
          where c.enable_blockchain`,
      );
      return rows[0]!;
    });
    console.log(
      `checks: ${check.acknowledged} acknowledged, ${check.stored} stored, ${check.missing} missing; ` +
        `${blocks.records} blockchain records in ${blocks.blocks} blocks, ${blocks.outside} not in a MINED or FINAL block`,
    );
    for (const problem of [...problems, ...check.problems].slice(0, 20)) console.log(`  problem: ${problem}`);
    if (problems.length + check.problems.length > 0 || Number(blocks.outside) > 0) process.exitCode = 1;
  } finally {
    if (server.running()) await server.stop();
  }
} finally {
  await target.dispose();
}
