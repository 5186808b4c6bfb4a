/**
 * Sterilization list and export at scale. Seeds N sterilizations (default 1,000,000) into a
 * throwaway database, starts the server as its own process, and measures with autocannon at 10
 * connections. Not a test: prints a markdown table (figures in docs/benchmarks.md).
 *
 *   node scripts/bench/sterilizations.ts [--rows 1000000] [--duration 10] [--postgres] [--gaps-only]
 *     [--keep | --database NAME] [--export-seconds S]
 *
 * Database: embedded PGlite in a temporary directory by default; with --postgres (or DATABASE_URL set
 * to a server URL) a throwaway database `uvtrace_bench_<random>` is created on that server
 * (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end. At ten million records
 * the seed alone takes minutes: --keep leaves the database in place (its name is printed) and
 * --database NAME runs again on such a kept database without seeding it (implies --postgres).
 * --export-seconds S reads each full export for S seconds only and reports the rate over them.
 *
 * Measured:
 * - GET /api/v1/sterilizations page 1 (default sort), customer + 30-day window, page 1000: p95/p99;
 * - a full CSV export (sterilizations-filtered, no filter): rows/s and server RSS growth;
 * - GET /api/v1/health p99 while a second full export runs;
 * - gaps and order: GET /api/v1/devices/{id}/gaps of the device with the most records, made
 *   to miss every 97th progressive id (a thousand or so ranges), and the list's anomaly filters; also
 *   the gap read's own queries in process, without HTTP (--gaps-only measures only these).
 * The server runs without the anchor worker (ANCHOR_ENABLED=false): anchoring the million freshly
 * seeded records would be a different workload competing for the same two cores.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { embeddedDataDir, openDatabase } from '#server/db/client.ts';
import { seedDemoData } from '#server/db/seed.ts';
import { deviceGaps, visibleOwners } from '#server/modules/devices/gaps.ts';
import { countLines } from './newlines.ts';

/** The part of autocannon's API used here (it ships no types). */
interface AutocannonInstance
  extends PromiseLike<{ requests: { average: number }; errors: number; non2xx: number }> {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  stop(): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => AutocannonInstance;

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    duration: { type: 'string', default: '10' },
    postgres: { type: 'boolean', default: false },
    'gaps-only': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    'export-seconds': { type: 'string' },
    database: { type: 'string' },
  },
});
const rows = Number(values.rows);
const duration = Number(values.duration);
const exportSeconds = values['export-seconds'] ? Number(values['export-seconds']) : undefined;
const CONNECTIONS = 10;
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'uvtrace-bench-sterilizations-'));
const serverUrl =
  process.env.DATABASE_URL ||
  (values.postgres || values.database ? 'postgres://postgres@127.0.0.1:5432/postgres' : undefined);

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let databaseUrl: string | undefined;
let dbName: string | undefined;
const reused = values.database;
if (reused && !/^\w+$/.test(reused)) throw new Error(`--database: not a plain database name: ${reused}`);
if (serverUrl) {
  dbName = reused ?? `uvtrace_bench_${randomBytes(4).toString('hex')}`;
  if (!reused) await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
}
const kind = databaseUrl ? 'PostgreSQL' : 'PGlite';

let server: ReturnType<typeof spawn> | undefined;
async function cleanup(): Promise<void> {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dbName && !reused && !values.keep) {
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
  }
  if (dbName && values.keep && !reused) console.error(`${kind}: database kept: --database ${dbName}`);
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  // ---- seed --------------------------------------------------------------------------------------
  const seedStarted = performance.now();
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir: embeddedDataDir(dataDir) });
  // Certificates before the records, as in use: of the seed's lot codes (L2026-000…999), one in ten has
  // none and one in ten only an expired one, so about a fifth of the records are flagged and the lot
  // filter reads the minority it is for. The records' lot status is then set as they are stored.
  if (!reused) {
    await database.pool.query(`
    insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name)
    select 'L2026-' || lpad(n::text, 3, '0'), 'VT-' || n,
      case when n % 10 = 5 then date '2000-01-01' else date '2099-12-31' end, 'bench.pdf'
    from generate_series(0, 999) n where n % 10 <> 0`);
  }
  // A kept database is seeded already (the seed sees it and writes nothing): its admin password works.
  const seeded = await seedDemoData(database, { sterilizations: rows, keysDir: dataDir });
  if (seeded.loadPhases) {
    const { tokensMs, copyMs, indexesMs, foreignKeysMs, bookkeepingMs } = seeded.loadPhases;
    console.error(
      `${kind}: COPY load: tokens ${(tokensMs / 1000).toFixed(1)} s, records ${(copyMs / 1000).toFixed(1)} s, indexes ${(indexesMs / 1000).toFixed(1)} s, foreign keys ${(foreignKeysMs / 1000).toFixed(1)} s, counts and progress ${(bookkeepingMs / 1000).toFixed(1)} s`,
    );
  }
  // The busiest device loses every 97th record: its gap read has a thousand or so ranges to count
  // and page (the delete's trigger rebuilds that device's progress once). Records are immutable
  // (sterilizations_immutable): only the table owner, here, can take that trigger off for the delete.
  const gapDevice = Number(
    (
      await database.pool.query<{ device_id: number }>(
        'select device_id from device_progress order by max_progressive_id - min_progressive_id desc limit 1',
      )
    ).rows[0]?.device_id,
  );
  await database.pool.query('alter table sterilizations disable trigger sterilizations_immutable');
  await database.pool.query('delete from sterilizations where device_id = $1 and progressive_id % 97 = 0', [
    gapDevice,
  ]);
  await database.pool.query('alter table sterilizations enable trigger sterilizations_immutable');
  const gapRanges = Number(
    (
      await database.pool.query<{ n: string }>(
        'select count(*) as n from device_progress_gaps where device_id = $1',
        [gapDevice],
      )
    ).rows[0]?.n,
  );
  await database.pool.query('VACUUM ANALYZE');
  // The gap read's queries alone (staff's view: every owner), one after the other: the database's share
  // of the request, apart from HTTP, session and JSON.
  const owners = (await visibleOwners(database.db, gapDevice, null)) ?? [];
  const queryTimes: number[] = [];
  for (let i = 0; i < 300; i++) {
    const started = performance.now();
    await deviceGaps(database.db, gapDevice, owners, 100);
    if (i >= 50) queryTimes.push(performance.now() - started);
  }
  queryTimes.sort((a, b) => a - b);
  const gapQueryP95 = queryTimes[Math.floor(queryTimes.length * 0.95)] ?? Number.NaN;
  console.error(
    `${kind}: gap read in process (device ${gapDevice}, ${gapRanges} ranges): p50 ${queryTimes[Math.floor(queryTimes.length / 2)]?.toFixed(1)} ms, p95 ${gapQueryP95.toFixed(1)} ms`,
  );
  const window = (
    await database.pool.query<{ from: string; to: string }>(
      `select to_char(max(received_ts) - interval '30 days', 'YYYY-MM-DD') as from,
              to_char(max(received_ts), 'YYYY-MM-DD') as to from sterilizations`,
    )
  ).rows[0];
  await database.close();
  console.error(
    `${kind}: seeded ${rows} sterilizations in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s (${seeded.sterilizationRowsPerSecond} rows/s)`,
  );

  // ---- server ------------------------------------------------------------------------------------
  const port = 40_000 + Math.floor(Math.random() * 10_000);
  const base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [path.join(root, 'src/server/main.ts')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      LOG_LEVEL: 'warn',
      CLIENT_DIST: '/nonexistent',
      SEED_DEMO_DATA: 'false',
      // The seeded records are not anchored yet; anchoring a million of them is another workload.
      ANCHOR_ENABLED: 'false',
      // So is the integrity sweep, whose pass a kept database (bench:sweep's) may have left half done.
      INTEGRITY_SWEEP_INTERVAL_HOURS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const serverPid = server.pid as number;
  for (let i = 0; ; i++) {
    const up = await fetch(`${base}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (i > 600 || server.exitCode !== null) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const login = new FormData();
  login.append('email', 'admin@example.com');
  login.append('password', 'demo-password');
  const token = (
    (await (await fetch(`${base}/api/v1/auth/login`, { method: 'POST', body: login })).json()) as {
      data: { token: string };
    }
  ).data.token;
  const headers = { authorization: `Bearer ${token}` };

  const rssMb = () => {
    const status = readFileSync(`/proc/${serverPid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  };

  interface Latency {
    p95: number;
    p99: number;
    rps: number;
    requests: number;
    errors: number;
  }
  /** autocannon at 10 connections; p95/p99 from every response time (autocannon itself has no p95). */
  async function load(
    url: string,
    options: { seconds?: number; until?: Promise<unknown> } = {},
  ): Promise<Latency> {
    const times: number[] = [];
    const instance = autocannon({
      url,
      connections: CONNECTIONS,
      duration: options.until ? 3600 : (options.seconds ?? duration),
      headers,
    });
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
    });
    options.until?.then(() => instance.stop());
    const result = await instance;
    times.sort((a, b) => a - b);
    const at = (p: number) =>
      times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? Number.NaN;
    return {
      p95: at(95),
      p99: at(99),
      rps: result.requests.average,
      requests: times.length,
      errors: result.errors + result.non2xx,
    };
  }

  async function exportAll(): Promise<{ rows: number; seconds: number; peakRssGrowthMb: number }> {
    const ticketResponse = await fetch(`${base}/api/v1/export-tickets`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ export: 'sterilizations-filtered' }),
    });
    const { ticket } = ((await ticketResponse.json()) as { data: { ticket: string } }).data;
    const before = rssMb();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb());
    }, 100);
    const started = performance.now();
    // With --export-seconds the rate so far is the figure; the server sees the client go and stops its cursor.
    const lines = await countLines(
      await fetch(`${base}/export/sterilizations-filtered?ticket=${ticket}`),
      () =>
        exportSeconds !== undefined &&
        exportSeconds > 0 &&
        performance.now() - started >= exportSeconds * 1000,
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb());
    return { rows: lines - 1, seconds, peakRssGrowthMb: peak - before };
  }

  const api = `${base}/api/v1/sterilizations`;
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const listTarget = kind === 'PostgreSQL' ? 25 : 60;
  // Warm-up: JIT and the database's caches, as a server that has been running would have them.
  await load(`${base}/api/v1/devices/${gapDevice}/gaps`, { seconds: 2 });
  const gaps = await load(`${base}/api/v1/devices/${gapDevice}/gaps`);
  const outOfOrder = await load(`${api}?anomaly=out_of_order`);
  const withGaps = await load(`${api}?anomaly=gaps`);
  const dashboard = await load(`${base}/api/v1/dashboard`);
  const gapRows = `| device gaps (${gapRanges.toLocaleString('en')} ranges) | ${ms(gaps.p95)} | ${ms(gaps.p99)} | ${gaps.rps.toFixed(0)} | p95 ≤ 25 ms (PostgreSQL) | ${kind === 'PostgreSQL' ? verdict(gaps.p95 <= 25) : ''} |
| device gaps, its queries in process (no HTTP) | ${ms(gapQueryP95)} | | | | |
| list anomaly=out_of_order | ${ms(outOfOrder.p95)} | ${ms(outOfOrder.p99)} | ${outOfOrder.rps.toFixed(0)} | p95 ≤ ${listTarget} ms | ${verdict(outOfOrder.p95 <= listTarget)} |
| list anomaly=gaps | ${ms(withGaps.p95)} | ${ms(withGaps.p99)} | ${withGaps.rps.toFixed(0)} | p95 ≤ ${listTarget} ms | ${verdict(withGaps.p95 <= listTarget)} |
| dashboard (with devices_with_gaps) | ${ms(dashboard.p95)} | ${ms(dashboard.p99)} | ${dashboard.rps.toFixed(0)} | | |`;
  const gapErrors = gaps.errors + outOfOrder.errors + withGaps.errors + dashboard.errors;
  if (values['gaps-only']) {
    console.log(`
### Gaps and order at ${rows.toLocaleString('en')} records — ${kind}, ${CONNECTIONS} connections, ${duration} s per run

| Measure | p95 | p99 | req/s | Target | |
|---|---|---|---|---|---|
${gapRows}

Errors or non-2xx answers: ${gapErrors}.
`);
  } else {
    for (const query of ['page=1', `customerId=2&from=${window?.from}&to=${window?.to}`, 'page=1000']) {
      await load(`${api}?${query}`, { seconds: 2 });
    }
    const page1 = await load(`${api}?page=1`);
    const filtered = await load(`${api}?customerId=2&from=${window?.from}&to=${window?.to}`);
    const page1000 = await load(`${api}?page=1000`);
    const lot = (
      (await (await fetch(`${api}?page=1`, { headers })).json()) as {
        data: { data: { consumables_lot: string }[] };
      }
    ).data.data[0]?.consumables_lot;
    const lotQueries = {
      flagged: `${api}?lotStatus=flagged`,
      customerFlagged: `${api}?customerId=2&lotStatus=flagged`,
      dashboard: `${base}/api/v1/dashboard`,
      recall: `${base}/api/v1/recall/records?lot=${lot}`,
      recallSummary: `${base}/api/v1/recall/summary?lot=${lot}`,
    };
    for (const url of Object.values(lotQueries)) await load(url, { seconds: 2 });
    const lotFigures: [string, Latency][] = [];
    for (const [name, url] of Object.entries(lotQueries)) lotFigures.push([name, await load(url)]);
    const exported = await exportAll();
    const during = exportAll();
    const health = await load(`${base}/api/v1/health`, { until: during });
    const exportedUnderLoad = await during;

    const rowsPerSecond = exported.rows / exported.seconds;
    console.log(`
### Sterilizations at ${rows.toLocaleString('en')} records — ${kind}, ${CONNECTIONS} connections, ${duration} s per run

| Measure | p95 | p99 | req/s | Target | |
|---|---|---|---|---|---|
| list page 1, default sort | ${ms(page1.p95)} | ${ms(page1.p99)} | ${page1.rps.toFixed(0)} | p95 ≤ ${listTarget} ms | ${verdict(page1.p95 <= listTarget)} |
| list customer 2 + ${window?.from}..${window?.to} | ${ms(filtered.p95)} | ${ms(filtered.p99)} | ${filtered.rps.toFixed(0)} | p95 ≤ ${listTarget} ms | ${verdict(filtered.p95 <= listTarget)} |
| list page 1000 | ${ms(page1000.p95)} | ${ms(page1000.p99)} | ${page1000.rps.toFixed(0)} | p95 ≤ 50 ms | ${verdict(page1000.p95 <= 50)} |
${lotFigures.map(([name, figures]) => `| ${name} (${lot}) | ${ms(figures.p95)} | ${ms(figures.p99)} | ${figures.rps.toFixed(0)} | | |`).join('\n')}
| health during a full export | ${ms(health.p95)} | ${ms(health.p99)} | ${health.rps.toFixed(0)} | p99 ≤ 50 ms | ${verdict(health.p99 <= 50)} |
${gapRows}

| Export (CSV, all records) | Value | Target | |
|---|---|---|---|
| rows | ${exported.rows.toLocaleString('en')} in ${exported.seconds.toFixed(1)} s${exportSeconds ? ' (read for --export-seconds only)' : ''} | | |
| rows/s | ${rowsPerSecond.toFixed(0)} | ≥ 50,000 | ${verdict(rowsPerSecond >= 50_000)} |
| server RSS growth | ${exported.peakRssGrowthMb.toFixed(0)} MB | ≤ 150 MB | ${verdict(exported.peakRssGrowthMb <= 150)} |
| rows/s with health under load | ${(exportedUnderLoad.rows / exportedUnderLoad.seconds).toFixed(0)} | | |

Errors or non-2xx answers: ${page1.errors + filtered.errors + page1000.errors + health.errors + gapErrors + lotFigures.reduce((sum, [, figures]) => sum + figures.errors, 0)}.
`);
  }
} finally {
  await cleanup();
}
