/**
 * The integrity sweep at scale (docs/backups.md): how many records a second it re-proves, and what its
 * background pass costs the sterilization list meanwhile. Not a test: prints a markdown table
 * (docs/benchmarks.md, "bench:sweep").
 *
 *   node scripts/bench/integrity-sweep.ts [--records 20000] [--duration 10] [--pass-limit SECONDS]
 *     [--keep | --database NAME]
 *
 * 1. Seeds N records (the demo seed, by COPY) into a throwaway PostgreSQL database
 *    (`uvtrace_bench_<random>` on DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432/postgres),
 *    and anchors the blockchain clinics' records with the anchor worker on a devnet run here and served
 *    on a loopback port (so the server started below reads the same chain, as it would a real one).
 * 2. The whole sweep in this process, as `npm run integrity:sweep` runs it: records/s.
 * 3. The server started as production starts it, its background pass due at once
 *    (INTEGRITY_SWEEP_INTERVAL_HOURS=24, the last pass dated a day ago), while 10 clients page the list
 *    (GET /api/v1/sterilizations, page 1) back to back: the pass's records/s and the list's p95; then
 *    the list alone for as long, for comparison. With --pass-limit the list is paged for at most that
 *    long into the pass (a background pass over ten million records takes more than an hour): the rate is
 *    then the checks the pass had saved by that moment (leaves and signed records) over its span, and the
 *    time a whole pass would take follows from the in-process sweep's count of them.
 * --keep leaves the database (its name is printed); --database NAME runs again on such a kept database
 * without seeding or anchoring it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed.ts';
import { createAnchorWorker } from '#server/modules/integrity/anchor-worker.ts';
import { connectChain } from '#server/modules/integrity/chain.ts';
import { DEVNET_PRIVATE_KEY } from '#server/modules/integrity/devnet.ts';
import { serveDevnet } from '#server/modules/integrity/devnet-server.ts';
import { runIntegritySweep } from '#server/modules/integrity/sweep/run.ts';
import {
  adminQuery,
  DEFAULT_POSTGRES_URL,
  freePort,
  login,
  ms,
  Recorder,
  sleep,
  startServer,
} from './harness.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '20000' },
    duration: { type: 'string', default: '10' },
    'pass-limit': { type: 'string' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const records = Number(values.records);
const durationMs = Number(values.duration) * 1000;
const passLimitMs =
  values['pass-limit'] === undefined ? Number.POSITIVE_INFINITY : Number(values['pass-limit']) * 1000;
if (!(passLimitMs > 0)) throw new Error('--pass-limit must be a positive number of seconds');
if (!Number.isInteger(records) || records < 1) throw new Error('--records must be a positive integer');
const CLIENTS = 10;
const serverUrl = process.env.DATABASE_URL || DEFAULT_POSTGRES_URL;
const reused = values.database;
if (reused && !/^\w+$/.test(reused)) throw new Error(`--database: not a plain database name: ${reused}`);
const name = reused ?? `uvtrace_bench_${randomBytes(4).toString('hex')}`;
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const databaseUrl = url.toString();
const dataDir = mkdtempSync(path.join(tmpdir(), 'uvtrace-bench-sweep-'));
const load = () => loadavg()[0]!.toFixed(2);

if (!reused) await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
const chain = await connectChain(loadConfig({}).chain);
const devnet = await serveDevnet(chain.request);
let server: Awaited<ReturnType<typeof startServer>> | undefined;

try {
  console.error(`load average before the run: ${load()}`);
  const database = await openDatabase({ databaseUrl });
  if (!reused) {
    const seeding = performance.now();
    await seedDemoData(database, { sterilizations: records, keysDir: dataDir });
    console.error(`seeded ${records} records in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  }
  // The blockchain clinics' records into MINED (FINAL) blocks (a kept database's, again on this run's devnet).
  await database.pool.query(`update blockchain_data_blocks set status = 'PENDING', transaction_hash = null
    where status in ('SENT', 'MINED', 'FINAL')`);
  const anchoring = performance.now();
  const worker = createAnchorWorker({
    db: database.db,
    chain,
    batchSize: 1024,
    intervalSeconds: 0,
    confirmations: 1,
    pollMs: 20,
  });
  worker.start();
  // Blocks still to anchor are few rows to count; the records still outside a MINED block are
  // counted (a scan of every record: seconds at ten million) only once the blocks are done.
  const blocksLeft = async () =>
    Number(
      (
        await database.pool.query<{ n: string }>(
          `select count(*) as n from blockchain_data_blocks where status in ('PENDING', 'SENT')`,
        )
      ).rows[0]!.n,
    );
  const recordsLeft = async () =>
    Number(
      (
        await database.pool.query<{ n: string }>(`
          select count(*) as n from sterilizations s join customers c on c.id = s.customer_id
            left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
            where c.enable_blockchain and (b.id is null or b.status not in ('MINED', 'FINAL'))`)
      ).rows[0]!.n,
    );
  // The count of records is a scan that competes with the worker for the two cores: at most every 15 s.
  let counted = 0;
  for (;;) {
    if ((await blocksLeft()) === 0 && performance.now() - counted > 15_000) {
      counted = performance.now();
      if ((await recordsLeft()) === 0) break;
    }
    await sleep(500);
  }
  await worker.stop();
  const anchored = await database.pool.query<{ records: string; blocks: string }>(`
    select (select count(*) from sterilizations where blockchain_data_block_id is not null) as records,
      (select count(*) from blockchain_data_blocks where status in ('MINED', 'FINAL')) as blocks`);
  console.error(
    `anchored ${anchored.rows[0]!.records} records in ${anchored.rows[0]!.blocks} blocks in ${((performance.now() - anchoring) / 1000).toFixed(1)} s`,
  );
  await database.pool.query('VACUUM ANALYZE');

  // ---- the whole sweep in this process (the command line's run) ------------------------------------
  let mismatches = 0;
  const whole = await runIntegritySweep({ db: database.db, chain }, () => {
    mismatches += 1;
  });
  // Every stored record is re-proved at least once (its leaf in its block, or what its device signed):
  // the rate is over all of them.
  const stored = Number(
    (await database.pool.query<{ n: string }>('select count(*) as n from sterilizations')).rows[0]!.n,
  );
  const wholeRate = stored / (whole.milliseconds / 1000);
  console.error(
    `whole sweep: ${whole.counts.records} records in ${whole.counts.blocks} blocks, ${whole.counts.signedRecords} signed records, ${whole.counts.tokens} tokens, ${whole.counts.auditEntries} audit entries in ${(whole.milliseconds / 1000).toFixed(1)} s; ${mismatches} mismatches`,
  );
  // The server's first look makes the row; a pass is due when the last one is a day old.
  await database.pool.query(`insert into integrity_sweep_state (id, last_completed_at) values (1, now() - interval '25 hours')
    on conflict (id) do update set cycle_started_at = null, phase = 'blocks', cursor = 0,
      last_completed_at = now() - interval '25 hours'`);
  await database.close();

  // ---- the background pass in the server, under the list's load ------------------------------------
  const port = await freePort();
  /** The server as production starts it; `sweeping` false: no background pass (the list alone). */
  const startProductServer = (sweeping: boolean) =>
    startServer(
      {
        kind: 'PostgreSQL',
        dataDir,
        databaseUrl,
        open: () => openDatabase({ databaseUrl }),
        dispose: async () => {},
      },
      {
        port,
        env: {
          CHAIN_RPC_URL: devnet.url,
          ANCHOR_PRIVATE_KEY: DEVNET_PRIVATE_KEY,
          ANCHOR_CONTRACT_ADDRESS: chain.contractAddress,
          ANCHOR_ENABLED: 'false',
          INTEGRITY_SWEEP_INTERVAL_HOURS: sweeping ? '24' : '0',
        },
      },
    );
  server = await startProductServer(true);
  let token = await login(server.base, 'admin@example.com');
  const state = new pg.Client({ connectionString: databaseUrl });
  await state.connect();
  const passState = async () =>
    (
      await state.query<{
        running: boolean;
        last_summary: {
          counts: { records: number };
          mismatches: number;
          started_at: string;
          ended_at: string;
        } | null;
        cycle_started_at: Date | null;
        counts: { records?: number; signedRecords?: number };
      }>(
        'select cycle_started_at is not null as running, cycle_started_at, counts, last_summary from integrity_sweep_state',
      )
    ).rows[0];

  /** Pages the list with CLIENTS clients until `until` answers true; answers the p95 and count. */
  async function pageList(kind: string, recorder: Recorder, until: () => Promise<boolean>): Promise<void> {
    let done = false;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!done) {
        const started = performance.now();
        const response = await fetch(`${server!.base}/api/v1/sterilizations?page=1`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await response.arrayBuffer();
        recorder.add(kind, performance.now() - started, response.status);
      }
    });
    while (!(await until())) await sleep(100);
    done = true;
    await Promise.all(clients);
  }

  const recorder = new Recorder();
  const passStarted = performance.now();
  let sawRunningAt: number | undefined;
  await pageList('during the pass', recorder, async () => {
    const now = await passState();
    if (now?.running) sawRunningAt ??= performance.now();
    if (sawRunningAt === undefined) return false;
    return !now?.running || performance.now() - sawRunningAt >= passLimitMs;
  });
  const finished = await passState();
  const cutShort = finished?.running === true;
  const summary = cutShort ? undefined : finished?.last_summary;
  // The pass's own span (its first slice to its end, or to now when cut short), not counting the wait
  // for its first slice.
  const passSeconds = summary
    ? (Date.parse(summary.ended_at) - Date.parse(summary.started_at)) / 1000
    : cutShort && finished?.cycle_started_at
      ? (Date.now() - new Date(finished.cycle_started_at).getTime()) / 1000
      : (performance.now() - passStarted) / 1000;
  const checksSoFar = (finished?.counts.records ?? 0) + (finished?.counts.signedRecords ?? 0);
  const checksInAPass = whole.counts.records + whole.counts.signedRecords;
  if (cutShort) {
    // A pass cut short goes on in the server: the list alone is measured on a server without it.
    await server.stop();
    server = await startProductServer(false);
    token = await login(server.base, 'admin@example.com');
  }
  const started = performance.now();
  await pageList(
    'alone',
    recorder,
    async () => performance.now() - started >= Math.max(durationMs, passSeconds * 1000),
  );
  await state.end();

  const during = recorder.stats('during the pass');
  const alone = recorder.stats('alone');
  console.log(
    `\n### bench:sweep, PostgreSQL, ${records.toLocaleString('en-US')} records seeded (load average ${load()} after)\n`,
  );
  console.log('| | figure |');
  console.log('|---|---|');
  console.log(
    `| whole sweep in one process (\`npm run integrity:sweep\`) | ${Math.round(wholeRate).toLocaleString('en-US')} records/s: ${stored.toLocaleString('en-US')} records in ${(whole.milliseconds / 1000).toFixed(1)} s (${whole.counts.records.toLocaleString('en-US')} as leaves of ${whole.counts.blocks} blocks, ${whole.counts.signedRecords.toLocaleString('en-US')} against their ${whole.counts.tokens.toLocaleString('en-US')} tokens), ${mismatches} mismatches |`,
  );
  if (cutShort) {
    const checkRate = checksSoFar / passSeconds;
    console.log(
      `| background pass in the server (slices of 2,000, 250 ms apart), its first ${passSeconds.toFixed(0)} s | ${Math.round(checkRate).toLocaleString('en-US')} checks/s (${checksSoFar.toLocaleString('en-US')} leaves and signed records saved as checked); a whole pass (${checksInAPass.toLocaleString('en-US')} checks) about ${(checksInAPass / checkRate / 60).toFixed(0)} min |`,
    );
  } else {
    console.log(
      `| background pass in the server (slices of 2,000, 250 ms apart) | ${Math.round(stored / passSeconds).toLocaleString('en-US')} records/s: ${stored.toLocaleString('en-US')} records in ${passSeconds.toFixed(1)} s, ${finished?.last_summary?.mismatches ?? '?'} mismatches |`,
    );
  }
  console.log(
    `| list page 1, ${CLIENTS} clients, p50 / p95 / p99 during the pass | ${ms(during.p50)} / ${ms(during.p95)} / ${ms(during.p99)} ms (${during.count} requests, ${during.errors} errors) |`,
  );
  console.log(
    `| the same without a pass | ${ms(alone.p50)} / ${ms(alone.p95)} / ${ms(alone.p99)} ms (${alone.count} requests, ${alone.errors} errors) |`,
  );
  if (mismatches > 0 || during.errors > 0 || alone.errors > 0) process.exitCode = 1;
} finally {
  await server?.stop();
  await devnet.close();
  if (!reused && !values.keep)
    await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  if (values.keep && !reused) console.error(`database kept: --database ${name}`);
  rmSync(dataDir, { recursive: true, force: true });
}
