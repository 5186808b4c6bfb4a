/**
 * What the load and fault benchmarks share: a throwaway database (embedded PGlite in a temporary
 * directory, or a throwaway database on a PostgreSQL server), the real server started as a child
 * process the way production starts it (`node src/server/main.ts`), a fleet of demo devices signing
 * records with their seeded keys, latency statistics, and the SQL checks that every acknowledged
 * record is stored exactly once with its consumable batch usage counted once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, embeddedDataDir, openDatabase } from '#server/db/client.ts';
import { loadDeviceKeys } from '#server/db/seed/device-key-files.ts';
import { type SeedSummary, seedDemoData } from '#server/db/seed.ts';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { type DeviceState, initialState, nextRecord, signRecords } from '../simulate-devices.ts';
import { headerValue, lightRequest } from './light-http.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
/** Every lot code the fleet below writes starts with this (simulate-devices.ts); seeded lots never do. */
export const FLEET_LOT_PREFIX = 'SIM-';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** A request unanswered this long counts as no answer (a hung server must not hang the benchmark). */
export const REQUEST_TIMEOUT_MS = 60_000;

/** One statement on a server's maintenance database (CREATE/DROP DATABASE). */
export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

// ---- databases -------------------------------------------------------------------------------------

export interface BenchTarget {
  kind: 'PGlite' | 'PostgreSQL';
  /** The server's DATA_DIR: the embedded database (PGlite) and the device keys. */
  dataDir: string;
  /** Set for PostgreSQL: the throwaway database. */
  databaseUrl?: string;
  /** Opens the database from this process (for PGlite only while no server has it open). */
  open(): Promise<Database>;
  /** Drops the throwaway database and removes the data directory. */
  dispose(): Promise<void>;
}

/**
 * A fresh target. `serverUrl` set: a database `uvtrace_bench_<random>` is created on that server and
 * dropped by dispose(); otherwise PGlite in the data directory.
 */
export async function createTarget(label: string, serverUrl?: string): Promise<BenchTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `uvtrace-bench-${label}-`));
  if (!serverUrl) {
    return {
      kind: 'PGlite',
      dataDir,
      open: () => openDatabase({ dataDir: embeddedDataDir(dataDir) }),
      async dispose() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `uvtrace_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    kind: 'PostgreSQL',
    dataDir,
    databaseUrl,
    open: () => openDatabase({ databaseUrl }),
    async dispose() {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch((error: unknown) =>
        console.error(`could not drop ${name}: ${(error as Error).message}`),
      );
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Seeded {
  summary: SeedSummary;
  /** Serials of the devices that may post: enabled, with a registered key. */
  activeSerials: string[];
}

/** Demo data (customers, users, devices and their keys under dataDir, `records` sterilizations). */
export async function seedTarget(target: BenchTarget, records: number): Promise<Seeded> {
  const database = await target.open();
  try {
    const summary = await seedDemoData(database, { sterilizations: records, keysDir: target.dataDir });
    await database.pool.query('VACUUM ANALYZE');
    const { rows } = await database.pool.query<{ device_serial: string }>(
      `select d.device_serial from devices d join customers c on c.id = d.customer_id
        where d.deleted_at is null and c.deleted_at is null and d.public_key is not null
        order by d.device_serial`,
    );
    return { summary, activeSerials: rows.map((row) => row.device_serial) };
  } finally {
    await database.close();
  }
}

/** Runs fn on the target's database, opened here and closed after (the server must be stopped for PGlite). */
export async function withDatabase<T>(
  target: BenchTarget,
  fn: (database: Database) => Promise<T>,
): Promise<T> {
  const database = await target.open();
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

// ---- the server process ---------------------------------------------------------------------------

export interface ServerProcess {
  base: string;
  pid: number;
  /** Resolves when the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  running(): boolean;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (graceful close) and waits for the exit; false when it had to be killed after 60 s. */
  stop(): Promise<boolean>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface ServerOptions {
  port: number;
  /** Extra environment (over the defaults below). */
  env?: Record<string, string>;
  /** Command-line arguments of main.ts (e.g. --workers 2). */
  args?: string[];
  /** Options for node itself, before main.ts (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** How long start-up may take before it counts as failed (the machine may be busy). */
  startTimeoutMs?: number;
}

/**
 * Starts `node src/server/main.ts` on the target and waits until /api/v1/health answers 200. Its
 * output goes to `<dataDir>/server-<time>.log` through a file descriptor the child owns, so nothing is
 * lost when it is killed. Seeding is off (seedTarget did it) and so is the built app.
 */
export async function startServer(target: BenchTarget, options: ServerOptions): Promise<ServerProcess> {
  const logFile = path.join(target.dataDir, `server-${Date.now()}.log`);
  const fd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(ROOT, 'src/server/main.ts'), ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(options.port),
        HOST: '127.0.0.1',
        DATA_DIR: target.dataDir,
        DATABASE_URL: target.databaseUrl ?? '',
        LOG_LEVEL: 'warn',
        CLIENT_DIST: '/nonexistent',
        SEED_DEMO_DATA: 'false',
        ...options.env,
      },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const server: ServerProcess = {
    base: `http://127.0.0.1:${options.port}`,
    pid: child.pid as number,
    exited,
    running: () => !done,
    async kill() {
      if (!done) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (done) return true;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const { signal } = await exited;
      clearTimeout(timer);
      return signal !== 'SIGKILL';
    },
    output: () => readFileSync(logFile, 'utf8'),
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 180_000);
  while (!(await healthy(server.base))) {
    if (done) throw new Error(`the server exited while starting:\n${server.output().slice(-4000)}`);
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(
        `the server did not answer health within the time limit:\n${server.output().slice(-4000)}`,
      );
    }
    await sleep(100);
  }
  return server;
}

export async function healthy(base: string): Promise<boolean> {
  try {
    const response = await fetch(`${base}/api/v1/health`, {
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds of a process and its children (a cluster's workers), and of the PostgreSQL backends
 * connected to `database` (other databases' backends on a shared server are left out; so are the
 * server's own WAL writer and checkpointer, shared by all).
 */
export function treeCpuSeconds(
  pid: number,
  database: string,
): { server: number; postgres: number; backends: Map<number, number> } {
  let server = 0;
  let postgres = 0;
  const backends = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
    if (Number(entry) === pid || Number(fields[1]) === pid) server += seconds;
    else if (name === 'postgres' && servesDatabase(entry, database)) {
      postgres += seconds;
      backends.set(Number(entry), seconds);
    }
  }
  return { server, postgres, backends };
}

/**
 * CPU spent between two snapshots of treeCpuSeconds. The backends are compared one by one: a pooled
 * connection closed meanwhile takes its whole past with it, which a difference of sums would count as
 * negative time (its time since the first snapshot is lost instead: a connection is closed only after
 * idling).
 */
export function cpuSpent(
  before: ReturnType<typeof treeCpuSeconds>,
  after: ReturnType<typeof treeCpuSeconds>,
): { server: number; postgres: number } {
  let postgres = 0;
  for (const [backend, seconds] of after.backends) postgres += seconds - (before.backends.get(backend) ?? 0);
  return { server: after.server - before.server, postgres };
}

/** Whether a PostgreSQL backend serves `database`, from its title ("postgres: [cluster:] user database host(port) state"). */
function servesDatabase(pid: string, database: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').split(' ').includes(database);
  } catch {
    return false;
  }
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

// ---- HTTP -----------------------------------------------------------------------------------------

export async function login(
  base: string,
  email: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const form = new FormData();
  form.append('email', email);
  form.append('password', 'demo-password');
  const response = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', body: form, headers });
  const body = (await response.json()) as { data?: { token?: string } };
  if (response.status !== 200 || !body.data?.token)
    throw new Error(`login ${email} answered ${response.status}`);
  return body.data.token;
}

// ---- devices --------------------------------------------------------------------------------------

export interface Acknowledged {
  serial: string;
  progressive: number;
  /** The id the server answered with. */
  id: number;
  record: SterilizationClaim;
}

export const recordKey = (serial: string, progressive: number) => `${serial}#${progressive}`;

export interface PostResult {
  /** HTTP status, or 0 when no answer came (connection refused or reset). */
  status: number;
  ms: number;
  /** Present on a 2xx: what the server stored, by progressive_id. */
  stored?: Map<number, number>;
  message?: string;
  /** The answer's Server-Timing header, when the server sends one (SERVER_TIMING=true). */
  timing?: string | null;
}

/**
 * The demo devices that may post (enabled, with a key file), each numbering its records from a start
 * above the seeded ones (simulate-devices.ts nextRecord). sign() makes the RS256 token a device would.
 */
export interface Fleet {
  serials: string[];
  next(serial: string, count: number): SterilizationClaim[];
  sign(serial: string, records: SterilizationClaim[]): Promise<string>;
  post(base: string, serial: string, records: SterilizationClaim[]): Promise<PostResult>;
  /** A token signed beforehand, from the device's own address. */
  postSigned(base: string, serial: string, token: string): Promise<PostResult>;
}

export async function loadFleet(dataDir: string, serials: string[]): Promise<Fleet> {
  const keys = await loadDeviceKeys(dataDir, serials);
  const missing = serials.filter((serial) => !keys.has(serial));
  if (missing.length > 0) throw new Error(`no key file for ${missing.join(', ')} in ${dataDir}`);
  const states = new Map<string, DeviceState>();
  const fleet: Fleet = {
    serials,
    next(serial, count) {
      const records: SterilizationClaim[] = [];
      // Numbered from the clock up, above every seeded number: the benchmarks never resend a record.
      let state = states.get(serial) ?? initialState(Math.random, Math.floor(Date.now() / 1000));
      for (let i = 0; i < count; i++) {
        const built = nextRecord(serial, state, Math.random, new Date());
        records.push(built.record);
        state = built.state;
      }
      states.set(serial, state);
      return records;
    },
    sign(serial, records) {
      return signRecords(serial, records, keys.get(serial) as CryptoKey);
    },
    async post(base, serial, records) {
      return fleet.postSigned(base, serial, await fleet.sign(serial, records));
    },
    postSigned(base, serial, token) {
      return postToken(base, token, { 'x-forwarded-for': deviceAddress(serial) });
    },
  };
  return fleet;
}

/** One signed token to the ingestion call, timed from sending to the whole answer. */
export async function postToken(
  base: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<PostResult> {
  const started = performance.now();
  try {
    const answer = await lightRequest(`${base}/api/v1/ingest/sterilizations`, {
      method: 'POST',
      timeoutMs: REQUEST_TIMEOUT_MS,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ token }),
    });
    const body = JSON.parse(answer.body.toString('utf8')) as {
      message?: string;
      data?: { id: number; progressive_id: number }[];
    };
    const ms = performance.now() - started;
    const timing = headerValue(answer, 'server-timing');
    if (answer.status < 200 || answer.status >= 300)
      return { status: answer.status, ms, message: body.message, timing };
    return {
      status: answer.status,
      ms,
      timing,
      stored: new Map((body.data ?? []).map((row) => [row.progressive_id, row.id])),
    };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, message: (error as Error).message };
  }
}

/** Each device posts from its own address, as real devices do (the ingestion rate limit is per address). */
function deviceAddress(serial: string): string {
  let hash = 0;
  for (const char of serial) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `10.${(hash >>> 16) & 255}.${(hash >>> 8) & 255}.${hash & 255}`;
}

/**
 * Whether an answer acknowledged every record of the post: 2xx with each progressive_id stored.
 * Adds them to `acknowledged`; a record already there must come back with the same id.
 */
export function acknowledge(
  serial: string,
  records: SterilizationClaim[],
  result: PostResult,
  acknowledged: Map<string, Acknowledged>,
  problems: string[],
): boolean {
  if (!result.stored) return false;
  for (const record of records) {
    const id = result.stored.get(record.progressive_id);
    const key = recordKey(serial, record.progressive_id);
    if (id === undefined) {
      problems.push(`${key}: answered 2xx without the record`);
      continue;
    }
    const earlier = acknowledged.get(key);
    if (earlier && earlier.id !== id)
      problems.push(`${key}: stored as ${earlier.id}, re-sent answered ${id}`);
    acknowledged.set(key, { serial, progressive: record.progressive_id, id, record });
  }
  return true;
}

// ---- checks ----------------------------------------------------------------------------------------

export interface IngestionCheck {
  /** Fleet records in the database. */
  stored: number;
  storedKeys: Set<string>;
  acknowledged: number;
  missing: number;
  problems: string[];
}

/**
 * Every acknowledged record is in the database exactly once, with the id it was acknowledged with
 * and the values sent; no fleet record is stored that was never sent (`sent`: every key posted,
 * acknowledged or not); and each fleet consumable batch counts exactly the records that used it
 * (ingestion moves the count in the record's transaction: a half-saved record breaks this).
 */
export async function checkIngestion(
  database: Database,
  acknowledged: Map<string, Acknowledged>,
  sent: Set<string>,
): Promise<IngestionCheck> {
  const problems: string[] = [];
  const { rows } = await database.pool.query<{
    serial: string;
    progressive_id: number;
    id: string;
    status_code: number;
    supplied_energy: string;
    effective_time: string;
    consumables_lot: string | null;
    lot_progressive_id: number | null;
  }>(
    `select d.device_serial as serial, s.progressive_id, s.id, s.status_code, s.supplied_energy::text,
            s.effective_time::text, s.consumables_lot, s.lot_progressive_id
       from sterilizations s join devices d on d.id = s.device_id
      where s.consumables_lot like $1`,
    [`${FLEET_LOT_PREFIX}%`],
  );
  const stored = new Map<string, (typeof rows)[number][]>();
  for (const row of rows) {
    const key = recordKey(row.serial, row.progressive_id);
    stored.set(key, [...(stored.get(key) ?? []), row]);
  }
  let missing = 0;
  for (const [key, ack] of acknowledged) {
    const found = stored.get(key) ?? [];
    if (found.length === 0) {
      missing++;
      if (missing <= 10) problems.push(`${key}: acknowledged as id ${ack.id}, not in the database`);
      continue;
    }
    if (found.length > 1) problems.push(`${key}: stored ${found.length} times`);
    const row = found[0]!;
    const same =
      Number(row.id) === ack.id &&
      row.status_code === ack.record.status_code &&
      Number(row.supplied_energy) === ack.record.supplied_energy &&
      Number(row.effective_time) === ack.record.effective_time &&
      row.consumables_lot === ack.record.consumables_lot &&
      row.lot_progressive_id === ack.record.lot_progressive_id;
    if (!same) problems.push(`${key}: stored values differ from the acknowledged record`);
  }
  if (missing > 10) problems.push(`… ${missing - 10} more acknowledged records missing`);
  for (const key of stored.keys()) {
    if (!sent.has(key)) problems.push(`${key}: in the database but never sent`);
  }
  const { rows: batches } = await database.pool.query<{
    serial: string;
    lot_code: string;
    lot_progressive: number;
    counted: number;
    records: string;
  }>(
    `select d.device_serial as serial, b.lot_code, b.lot_progressive, b.sterilization_count as counted,
            (select count(*) from sterilizations s
              where s.device_id = b.device_id and s.customer_id = b.customer_id and s.consumables_lot = b.lot_code
                and s.lot_progressive_id = b.lot_progressive) as records
       from consumable_batches b join devices d on d.id = b.device_id
      where b.lot_code like $1`,
    [`${FLEET_LOT_PREFIX}%`],
  );
  for (const batch of batches) {
    if (batch.counted !== Number(batch.records)) {
      problems.push(
        `batch ${batch.serial} ${batch.lot_code}/${batch.lot_progressive}: counts ${batch.counted} uses, has ${batch.records} records`,
      );
    }
  }
  const { rows: unbatched } = await database.pool.query<{ n: string }>(
    `select count(*) as n from sterilizations s
      where s.consumables_lot like $1 and not exists (
        select 1 from consumable_batches b where b.device_id = s.device_id and b.customer_id = s.customer_id
           and b.lot_code = s.consumables_lot and b.lot_progressive = s.lot_progressive_id)`,
    [`${FLEET_LOT_PREFIX}%`],
  );
  if (Number(unbatched[0]?.n) > 0) problems.push(`${unbatched[0]?.n} records without their consumable batch`);
  return {
    stored: rows.length,
    storedKeys: new Set(stored.keys()),
    acknowledged: acknowledged.size,
    missing,
    problems,
  };
}

// ---- statistics -----------------------------------------------------------------------------------

export interface KindStats {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Latencies by kind of request, and the answers that were not what the caller expected. */
export class Recorder {
  readonly times = new Map<string, number[]>();
  readonly statuses = new Map<string, Map<number, number>>();

  add(kind: string, ms: number, status: number): void {
    const list = this.times.get(kind) ?? [];
    list.push(ms);
    this.times.set(kind, list);
    const counts = this.statuses.get(kind) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.statuses.set(kind, counts);
  }

  stats(kind: string): KindStats {
    const sorted = [...(this.times.get(kind) ?? [])].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
    let errors = 0;
    for (const [status, n] of this.statuses.get(kind) ?? []) if (status < 200 || status >= 300) errors += n;
    return { count: sorted.length, errors, p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? 0 };
  }

  /** How many answers had a status in [from, to) (0 = no answer), over every kind. */
  countStatus(from: number, to: number): number {
    let n = 0;
    for (const counts of this.statuses.values())
      for (const [status, count] of counts) if (status >= from && status < to) n += count;
    return n;
  }
}

export const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
