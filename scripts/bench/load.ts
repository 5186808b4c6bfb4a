/**
 * Load: concurrent virtual users against the real server, started as its own process the
 * way production runs it, for a few minutes; then every record a device had acknowledged is looked
 * up in the database. Exits non-zero when any answer was a 5xx (or no answer), when a request the
 * users were allowed to make was refused, or when a record is lost, duplicated or half-counted.
 *
 *   npm run bench:load -- [--duration 300] [--users 50] [--devices 10] [--think 500] [--rows 20000] [--postgres] [--workers 1] [--cpu-profile DIR]
 *   npm run bench:load -- --knee [--step-seconds 20] [--users 50] [--postgres] [--workers 2]
 *
 * Users: `--users` virtual users at once, `--devices` of them devices posting signed records (1 to 5
 * per token, signed before the timed window as a device signs on its own hardware; now and then
 * re-sending one already acknowledged, which must answer the same id), the
 * others people logged in as the demo roles in turn (SUPER_ADMIN, ADMIN, CUSTOMER_CARE and the five
 * clinic users). A person loops through what the app's screens call: the sterilization list (pages,
 * sorts, customer/device/date filters and their option lists), a record's verification (chain
 * settings, the server's hash, the anchoring transaction), customer and device pages, the dashboard,
 * certificates, and now and then a CSV export through a one-time ticket. Between two actions a user
 * waits a random 0..2×`--think` ms (0: no pause, a saturation test). People log in one after another over
 * the first tenth of the run (at most 10 s); the figures cover the whole run, logins included.
 *
 * Database: embedded PGlite in a temporary directory, or with --postgres (or DATABASE_URL set to a
 * server URL) a throwaway database on that server (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped at the end. The anchor worker runs as in production (the devnet in the server process).
 * Each simulated client sends its own X-Forwarded-For (TRUST_PROXY on), as distinct clients would
 * reach the per-address rate limits. `--workers N` (PostgreSQL only) starts the server as
 * `main.ts --workers N`: N processes sharing one port, as behind a load balancer.
 *
 * Profile: the server runs with SERVER_TIMING=true, and the report says per kind of request
 * where its time went: round trips to the database, time in them, time waiting for a pooled connection,
 * the server's own part (handler and event loop) and what the client waited beyond the server's answer
 * (network, and the queue before the server routed the request); plus the CPU the server processes,
 * the PostgreSQL backends of the bench's database and the bench itself used. `--cpu-profile DIR`
 * also writes the server's V8 CPU profile there (`*.cpuprofile`, for Chrome DevTools, or summed by
 * `node scripts/bench/cpu-profile-summary.ts FILE`).
 *
 * Capacity knee (`--knee`): the same people and devices in steps of `--users` more people each
 * (`--devices` devices throughout), `--step-seconds` each, the newcomers logged in before their step's
 * window; each step's request rate and list p95, until the list p95 crosses 100 ms. The rate at which
 * it crosses (interpolated between the two steps around it) is what this machine serves with the
 * list within its target: a deployment is sized from it (docs/benchmarks.md).
 */
import { parseArgs } from 'node:util';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { INTEGRITY_FIELDS } from '#shared/integrity/index.ts';
import {
  type Acknowledged,
  acknowledge,
  checkIngestion,
  createTarget,
  DEFAULT_POSTGRES_URL,
  type Fleet,
  freePort,
  loadFleet,
  login,
  ms,
  REQUEST_TIMEOUT_MS,
  Recorder,
  recordKey,
  rssMb,
  type ServerProcess,
  seedTarget,
  sleep,
  startServer,
  treeCpuSeconds,
  withDatabase,
} from './harness.ts';
import { encodeForm, headerValue, lightRequest } from './light-http.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '300' },
    users: { type: 'string', default: '50' },
    devices: { type: 'string', default: '10' },
    think: { type: 'string', default: '500' },
    rows: { type: 'string', default: '20000' },
    postgres: { type: 'boolean', default: false },
    workers: { type: 'string', default: '1' },
    'cpu-profile': { type: 'string' },
    knee: { type: 'boolean', default: false },
    'step-seconds': { type: 'string', default: '20' },
  },
});
const KNEE_P95_MS = 100;
/** A bound on the knee's steps, so that a machine that never crosses the target still ends. */
const KNEE_MAX_STEPS = 20;
const cpuProfileDir = values['cpu-profile'];
const workers = Number(values.workers);
const durationS = Number(values.duration);
const userCount = Number(values.users);
const deviceUsers = Math.min(Number(values.devices), userCount);
const thinkMs = Number(values.think);
const seedRows = Number(values.rows);
const serverUrl = process.env.DATABASE_URL || (values.postgres ? DEFAULT_POSTGRES_URL : undefined);
if (workers > 1 && !serverUrl) {
  console.error('--workers needs PostgreSQL (--postgres): the embedded database is one process');
  process.exit(2);
}

const ACCOUNTS = [
  { email: 'super@example.com', staff: true, okExport: true },
  { email: 'admin@example.com', staff: true, okExport: true },
  { email: 'care@example.com', staff: true, okExport: false },
  { email: 'customer@example.com', staff: false, okExport: false },
  { email: 'reception@sanmarco.example.com', staff: false, okExport: false },
  { email: 'direzione@santachiara.example.com', staff: false, okExport: false },
  { email: 'vet@ticino.example.com', staff: false, okExport: false },
  { email: 'accueil@cm-riviera.example.com', staff: false, okExport: false },
] as const;

type Json = Record<string, unknown>;
interface ListRow {
  id: number;
  received_ts: string;
  device_serial: string;
  progressive_id: number;
  supplied_energy: number;
  nominal_time: number;
  effective_time: number;
  residual_lamp_life: number;
  status_code: number;
  latitude: number | null;
  longitude: number | null;
  consumables_lot: string | null;
  lot_progressive_id: number | null;
  notes: string | null;
  blockchain_data: {
    hashing_version: number;
    blockchain_data_block_id: number;
    blockchain_data_block: { transaction_hash: string | null };
  } | null;
}

/** The figures of the run (a knee step's, in --knee: each step starts a new one). */
let recorder = new Recorder();

/** Sums of a kind's Server-Timing figures (see src/server/http/server-timing.ts). */
interface Profile {
  count: number;
  clientMs: number;
  totalMs: number;
  dbMs: number;
  poolMs: number;
  queries: number;
}
const profiles = new Map<string, Profile>();

function addProfile(kind: string, clientMs: number, header: string | null): void {
  if (!header) return;
  const figure = (name: string) => {
    const match = new RegExp(`(?:^|,\\s*)${name};(?:dur=([\\d.]+)|desc="(\\d+)")`).exec(header);
    return Number(match?.[1] ?? match?.[2] ?? 0);
  };
  const profile = profiles.get(kind) ?? { count: 0, clientMs: 0, totalMs: 0, dbMs: 0, poolMs: 0, queries: 0 };
  profile.count++;
  profile.clientMs += clientMs;
  profile.totalMs += figure('total');
  profile.dbMs += figure('db');
  profile.poolMs += figure('pool');
  profile.queries += figure('queries');
  profiles.set(kind, profile);
}
const problems: string[] = [];
/** Distinct unexpected answers, with how often each came (kept short in the report). */
const unexpected = new Map<string, number>();
let exportRows = 0;

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const chance = (p: number) => Math.random() < p;
const think = () => (thinkMs > 0 ? sleep(Math.random() * 2 * thinkMs) : Promise.resolve());
const day = (date: Date) => date.toISOString().slice(0, 10);

/** A person's session: one client address, one bearer token, what the screens remember. */
class Person {
  readonly base: string;
  readonly email: string;
  readonly staff: boolean;
  /** May download the customer page's "ok records" export (canDownloadCustomers). */
  readonly okExportAllowed: boolean;
  readonly address: string;
  token = '';
  customers: { id: number }[] = [];
  lastRows: ListRow[] = [];
  chainSeen = false;

  constructor(base: string, index: number, account: (typeof ACCOUNTS)[number]) {
    this.base = base;
    this.email = account.email;
    this.staff = account.staff;
    this.okExportAllowed = account.okExport;
    this.address = `192.168.${Math.floor(index / 250)}.${(index % 250) + 1}`;
  }

  /** One call, timed and recorded under `kind`; anything but 2xx is a problem the report lists. */
  async call(
    kind: string,
    path: string,
    init: { method?: string; json?: unknown; form?: FormData; auth?: boolean } = {},
  ): Promise<Json | undefined> {
    const headers: Record<string, string> = { 'x-forwarded-for': this.address };
    if (init.auth !== false) headers.authorization = `Bearer ${this.token}`;
    let body: string | Buffer | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      const encoded = await encodeForm(init.form);
      headers['content-type'] = encoded.contentType;
      body = encoded.body;
    }
    const started = performance.now();
    let status = 0;
    let parsed: Json | undefined;
    let timing: string | null = null;
    try {
      let lines = 0;
      const answer = await lightRequest(`${this.base}${path}`, {
        method: init.method ?? 'GET',
        headers,
        body,
        timeoutMs: REQUEST_TIMEOUT_MS,
        // A CSV is read to the end, line by line, as a browser saving it would.
        onChunk: path.startsWith('/export/')
          ? (chunk) => {
              for (const byte of chunk) if (byte === 10) lines++;
            }
          : undefined,
      });
      status = answer.status;
      timing = headerValue(answer, 'server-timing');
      if (headerValue(answer, 'content-type')?.startsWith('text/csv')) exportRows += Math.max(0, lines - 1);
      else parsed = JSON.parse(answer.body.toString('utf8')) as Json;
    } catch (error) {
      parsed = { message: (error as Error).message };
    }
    const elapsed = performance.now() - started;
    recorder.add(kind, elapsed, status);
    addProfile(kind, elapsed, timing);
    if (status < 200 || status >= 300) {
      const label = `${kind} ${status} ${String(parsed?.message ?? '')}`;
      unexpected.set(label, (unexpected.get(label) ?? 0) + 1);
      return undefined;
    }
    return parsed;
  }

  async start(): Promise<void> {
    const started = performance.now();
    try {
      this.token = await login(this.base, this.email, { 'x-forwarded-for': this.address });
      recorder.add('login', performance.now() - started, 200);
    } catch (error) {
      recorder.add('login', performance.now() - started, 0);
      throw error;
    }
    await this.call('me', '/api/v1/auth/me');
    const options = await this.call('filter options', '/api/v1/sterilizations/customer-filter');
    this.customers = (options?.data as { id: number }[] | undefined) ?? [];
  }

  /** The list with what a user would pick: mostly page 1, some deeper pages, sorts and filters. */
  async list(): Promise<void> {
    const query = new URLSearchParams();
    if (!chance(0.6)) query.set('page', String(1 + Math.floor(Math.random() * 30)));
    if (chance(0.3)) query.set('sortBy', pick(['received_ts', 'device_serial', 'consumables_lot']));
    if (chance(0.3)) query.set('sortDir', pick(['asc', 'desc']));
    if (this.customers.length > 0 && chance(this.staff ? 0.5 : 0.3)) {
      const customer = pick(this.customers);
      query.set('customerId', String(customer.id));
      if (chance(0.5)) {
        const devices = await this.call(
          'filter options',
          `/api/v1/sterilizations/device-filter/${customer.id}`,
        );
        const list = (devices?.data as { id: number }[] | undefined) ?? [];
        if (list.length > 0 && chance(0.5)) query.set('deviceId', String(pick(list).id));
      }
    }
    if (chance(0.4)) {
      const to = new Date(Date.now() - Math.random() * 90 * 86_400_000);
      query.set('from', day(new Date(to.getTime() - 30 * 86_400_000)));
      query.set('to', day(to));
    }
    const page = await this.call('list', `/api/v1/sterilizations?${query}`);
    const rows = (page?.data as { data?: ListRow[] } | undefined)?.data;
    if (rows && rows.length > 0) this.lastRows = rows;
  }

  /** A record's verification modal: chain settings (once), the server's hash, the transaction. */
  async detail(): Promise<void> {
    const anchored = this.lastRows.filter((row) => row.blockchain_data);
    if (anchored.length === 0) return this.list();
    const row = pick(anchored);
    if (!this.chainSeen) {
      await this.call('detail: chain', '/api/v1/chain');
      this.chainSeen = true;
    }
    const data = row.blockchain_data!;
    const form = new FormData();
    form.append('hashing_version', String(data.hashing_version));
    form.append('blockchain_data_block_id', String(data.blockchain_data_block_id));
    for (const field of INTEGRITY_FIELDS) {
      const value = row[field];
      if (value !== null && value !== undefined) form.append(field, String(value));
    }
    await this.call('detail: hash', '/api/v1/transactions/calculateHash', { method: 'POST', form });
    const hash = data.blockchain_data_block.transaction_hash;
    if (hash) await this.call('detail: transaction', `/api/v1/transactions/${hash}`);
  }

  async customerPage(): Promise<void> {
    const page = await this.call('customers', `/api/v1/customers?page=1`);
    const rows = (page?.data as { data?: { id: number }[] } | undefined)?.data ?? [];
    if (rows.length === 0) return;
    const id = pick(rows).id;
    await this.call('customer', `/api/v1/customers/${id}`);
    await this.call('customer devices', `/api/v1/customers/${id}/devices`);
    await this.call('customer users', `/api/v1/customers/${id}/users`);
  }

  async devicePage(): Promise<void> {
    const page = await this.call('devices', `/api/v1/devices?page=1`);
    const rows = (page?.data as { data?: { id: number; customer_id: number }[] } | undefined)?.data ?? [];
    if (rows.length === 0) return;
    const device = pick(rows);
    await this.call('device', `/api/v1/customers/${device.customer_id}/devices/${device.id}`);
  }

  /** CSV through a one-time ticket: mostly a customer or a 30-day window, sometimes everything. */
  async exportCsv(): Promise<void> {
    const okExport = this.okExportAllowed && chance(0.3);
    const name = okExport ? 'sterilizations-ok' : 'sterilizations-filtered';
    const ticket = await this.call('export ticket', '/api/v1/export-tickets', {
      method: 'POST',
      json: { export: name },
    });
    const value = (ticket?.data as { ticket?: string } | undefined)?.ticket;
    if (!value) return;
    const query = new URLSearchParams({ ticket: value });
    if (chance(0.8)) {
      const to = new Date(Date.now() - Math.random() * 90 * 86_400_000);
      query.set('from', day(new Date(to.getTime() - 30 * 86_400_000)));
      query.set('to', day(to));
    }
    if (!okExport && this.customers.length > 0 && chance(0.5))
      query.set('customerId', String(pick(this.customers).id));
    await this.call('export csv', `/export/${name}?${query}`, { auth: false });
  }

  async run(until: number, startAfterMs: number): Promise<void> {
    await sleep(startAfterMs);
    await this.start();
    await this.loop(until);
  }

  /** What a logged-in person does until `until`. */
  async loop(until: number): Promise<void> {
    const actions: [number, () => Promise<unknown>][] = this.staff
      ? [
          [38, () => this.list()],
          [18, () => this.detail()],
          [12, () => this.customerPage()],
          [8, () => this.devicePage()],
          [8, () => this.call('dashboard', '/api/v1/dashboard')],
          [8, () => this.call('certificates', '/api/v1/certificates?page=1')],
          [3, () => this.exportCsv()],
        ]
      : [
          [50, () => this.list()],
          [22, () => this.detail()],
          [12, () => this.call('dashboard', '/api/v1/dashboard')],
          [10, () => this.call('certificates', '/api/v1/certificates?page=1')],
          [3, () => this.exportCsv()],
        ];
    const total = actions.reduce((sum, [weight]) => sum + weight, 0);
    while (Date.now() < until) {
      let roll = Math.random() * total;
      let action = actions[0]![1];
      for (const [weight, candidate] of actions) {
        action = candidate;
        roll -= weight;
        if (roll < 0) break;
      }
      await action();
      await think();
    }
  }
}

/**
 * Tokens signed before the timed window, per serial in sending order: a real device signs on its own
 * hardware, and signing here (RS256, ~1.5 ms of CPU a token) took a tenth of a core from the machine the
 * bench measures. A token is good for 5 minutes; one older than PRESIGNED_VALID_MS is signed again when
 * sent, and a serial whose tokens run out signs as it goes.
 */
interface Presigned {
  records: SterilizationClaim[];
  token: string;
  signedAt: number;
}
const PRESIGNED_VALID_MS = 4 * 60_000;
type PresignedQueues = Map<string, Presigned[]>;

async function presign(fleet: Fleet, serials: string[], perSerial: number): Promise<PresignedQueues> {
  const queues: PresignedQueues = new Map(serials.map((serial) => [serial, []]));
  const plan = Array.from({ length: perSerial }, () => serials).flat();
  for (let from = 0; from < plan.length; from += 200) {
    const chunk = plan.slice(from, from + 200).map((serial) => ({
      serial,
      // The records are numbered now, in the order they will be sent.
      records: fleet.next(serial, chance(0.8) ? 1 : 2 + Math.floor(Math.random() * 4)),
    }));
    const tokens = await Promise.all(chunk.map((item) => fleet.sign(item.serial, item.records)));
    for (const [i, item] of chunk.entries())
      queues.get(item.serial)?.push({ records: item.records, token: tokens[i]!, signedAt: Date.now() });
  }
  return queues;
}

/** A device: signed tokens of 1..5 records; now and then one already acknowledged, sent again. */
async function runDevice(
  base: string,
  fleet: Fleet,
  serial: string,
  until: number,
  acknowledged: Map<string, Acknowledged>,
  sent: Set<string>,
  presigned: Presigned[],
): Promise<void> {
  const mine: Acknowledged[] = [];
  while (Date.now() < until) {
    if (mine.length > 0 && chance(0.03)) {
      const again = pick(mine);
      const result = await fleet.post(base, serial, [again.record]);
      recorder.add('ingest (re-sent)', result.ms, result.status);
      addProfile('ingest (re-sent)', result.ms, result.timing ?? null);
      if (!acknowledge(serial, [again.record], result, acknowledged, problems)) {
        const label = `ingest (re-sent) ${result.status} ${result.message ?? ''}`;
        unexpected.set(label, (unexpected.get(label) ?? 0) + 1);
      }
    } else {
      const ready = presigned.shift();
      const records =
        ready?.records ?? fleet.next(serial, chance(0.8) ? 1 : 2 + Math.floor(Math.random() * 4));
      const token =
        ready && Date.now() - ready.signedAt < PRESIGNED_VALID_MS
          ? ready.token
          : await fleet.sign(serial, records);
      for (const record of records) sent.add(recordKey(serial, record.progressive_id));
      const result = await fleet.postSigned(base, serial, token);
      recorder.add('ingest', result.ms, result.status);
      addProfile('ingest', result.ms, result.timing ?? null);
      if (acknowledge(serial, records, result, acknowledged, problems)) {
        for (const record of records) mine.push(acknowledged.get(recordKey(serial, record.progressive_id))!);
      } else {
        const label = `ingest ${result.status} ${result.message ?? ''}`;
        unexpected.set(label, (unexpected.get(label) ?? 0) + 1);
      }
    }
    await think();
  }
}

/**
 * The capacity knee: steps of more people until the list p95 crosses KNEE_P95_MS; prints each step
 * and the interpolated request rate at the crossing. Answers whether a step had 5xx or no answers.
 */
async function capacityKnee(
  base: string,
  fleet: Fleet,
  deviceSerials: string[],
  presigned: PresignedQueues,
  acknowledged: Map<string, Acknowledged>,
  sent: Set<string>,
): Promise<boolean> {
  const stepSeconds = Number(values['step-seconds']);
  const peoplePerStep = Math.max(1, userCount - deviceUsers);
  const people: Person[] = [];
  const steps: { people: number; rps: number; p50: number; p95: number; bad: number }[] = [];
  for (let step = 1; step <= KNEE_MAX_STEPS; step++) {
    // The newcomers log in before the window: a login is not what the knee measures.
    const fresh = Array.from({ length: peoplePerStep }, (_, k) => {
      const index = people.length + k;
      return new Person(base, index, ACCOUNTS[index % ACCOUNTS.length]!);
    });
    await Promise.all(fresh.map((person, k) => sleep(k * 20).then(() => person.start())));
    people.push(...fresh);
    recorder = new Recorder();
    const started = performance.now();
    const until = Date.now() + stepSeconds * 1000;
    await Promise.allSettled([
      ...people.map((person) => person.loop(until)),
      ...deviceSerials.map((serial) =>
        runDevice(base, fleet, serial, until, acknowledged, sent, presigned.get(serial) ?? []),
      ),
    ]);
    const seconds = (performance.now() - started) / 1000;
    const kinds = [...recorder.times.keys()];
    const requests = kinds.reduce((n, kind) => n + recorder.stats(kind).count, 0);
    const list = recorder.stats('list');
    const bad = recorder.countStatus(500, 600) + recorder.countStatus(0, 1);
    steps.push({ people: people.length, rps: requests / seconds, p50: list.p50, p95: list.p95, bad });
    console.error(
      `  knee: ${people.length} people + ${deviceSerials.length} devices: ${(requests / seconds).toFixed(0)} requests/s, list p95 ${ms(list.p95)} ms`,
    );
    if (list.p95 > KNEE_P95_MS) break;
  }
  const over = steps.findIndex((step) => step.p95 > KNEE_P95_MS);
  let knee = 'not reached';
  if (over > 0) {
    const [below, above] = [steps[over - 1]!, steps[over]!];
    const rate = below.rps + ((KNEE_P95_MS - below.p95) * (above.rps - below.rps)) / (above.p95 - below.p95);
    knee = `about ${rate.toFixed(0)} requests/s (between ${below.people} and ${above.people} people)`;
  } else if (over === 0) knee = `below the first step (${steps[0]!.rps.toFixed(0)} requests/s)`;
  console.log(`
### Capacity knee — ${target.kind}, ${workers} server process${workers > 1 ? 'es' : ''}, ${deviceSerials.length} devices, steps of ${peoplePerStep} people × ${stepSeconds} s, think 0..${2 * thinkMs} ms, ${seedRows.toLocaleString('en')} seeded records

| people | requests/s | list p50 ms | list p95 ms | 5xx or no answer |
|---|---|---|---|---|
${steps.map((step) => `| ${step.people} | ${step.rps.toFixed(0)} | ${ms(step.p50)} | ${ms(step.p95)} | ${step.bad} |`).join('\n')}

- list p95 crosses ${KNEE_P95_MS} ms at ${knee}`);
  return steps.some((step) => step.bad > 0);
}

const target = await createTarget('load', serverUrl);
let server: ServerProcess | undefined;
let failed = false;
try {
  const seedStarted = performance.now();
  const seeded = await seedTarget(target, seedRows);
  console.error(
    `${target.kind}: seeded ${seedRows} sterilizations in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s; starting the server…`,
  );
  const fleet = await loadFleet(target.dataDir, seeded.activeSerials);
  const deviceSerials = Array.from(
    { length: deviceUsers },
    (_, i) => fleet.serials[i % fleet.serials.length]!,
  );
  const uniqueSerials = [...new Set(deviceSerials)];
  // About as many posts as a device makes in the run (one per pause of 0..2×think ms), and a margin.
  const postsPerDevice = Math.ceil((durationS * 1000) / Math.max(thinkMs, 50)) + 10;
  const presigned = await presign(
    fleet,
    uniqueSerials,
    Math.ceil((postsPerDevice * deviceSerials.length) / Math.max(1, uniqueSerials.length)),
  );
  console.error(
    `signed ${[...presigned.values()].reduce((n, queue) => n + queue.length, 0)} device tokens ahead`,
  );
  server = await startServer(target, {
    port: await freePort(),
    env: { TRUST_PROXY: 'true', SERVER_TIMING: 'true' },
    args: workers > 1 ? ['--workers', String(workers)] : [],
    nodeArgs: cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [],
  });
  const databaseName = target.databaseUrl ? new URL(target.databaseUrl).pathname.slice(1) : '';
  const base = server.base;
  const serverPid = server.pid;
  console.error(
    `${userCount} users (${deviceUsers} devices), ${workers} server process${workers > 1 ? 'es' : ''}, for ${durationS} s, think 0..${2 * thinkMs} ms, against ${base}`,
  );

  const acknowledged = new Map<string, Acknowledged>();
  const sent = new Set<string>();
  if (values.knee) {
    failed = await capacityKnee(base, fleet, deviceSerials, presigned, acknowledged, sent);
    if (!(await server.stop())) problems.push('the server did not stop on SIGTERM within 60 s');
    const check = await withDatabase(target, (database) => checkIngestion(database, acknowledged, sent));
    problems.push(...check.problems);
    console.log(
      `- records: ${check.acknowledged} acknowledged, ${check.stored} stored, ${check.missing} missing`,
    );
    for (const problem of problems.slice(0, 50)) console.log(`FAIL ${problem}`);
    failed = failed || problems.length > 0;
    console.log(failed ? 'load --knee: FAILED' : 'load --knee: passed');
    process.exitCode = failed ? 1 : 0;
  } else {
    const cpuBefore = treeCpuSeconds(serverPid, databaseName);
    const benchCpuBefore = process.cpuUsage();
    let rssPeak = rssMb(serverPid);
    const rssStart = rssPeak;
    const sampler = setInterval(() => {
      if (server?.running()) rssPeak = Math.max(rssPeak, rssMb(serverPid));
    }, 1000);
    const started = performance.now();
    const until = Date.now() + durationS * 1000;
    const progress = setInterval(() => {
      const seconds = (performance.now() - started) / 1000;
      console.error(
        `  ${seconds.toFixed(0)} s: ${[...recorder.times.values()].reduce((n, list) => n + list.length, 0)} requests, ${acknowledged.size} records acknowledged, ${recorder.countStatus(500, 600)} 5xx`,
      );
    }, 30_000);
    const people = Array.from({ length: userCount - deviceUsers }, (_, i) => {
      return new Person(base, i, ACCOUNTS[i % ACCOUNTS.length]!);
    });
    // People log in one after the other over the ramp-up, not all in the same instant.
    const rampMs = Math.min(10_000, (durationS * 1000) / 10);
    const results = await Promise.allSettled([
      ...people.map((person, i) => person.run(until, (i * rampMs) / people.length)),
      ...deviceSerials.map((serial) =>
        runDevice(base, fleet, serial, until, acknowledged, sent, presigned.get(serial) ?? []),
      ),
    ]);
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(progress);
    clearInterval(sampler);
    for (const result of results)
      if (result.status === 'rejected') problems.push(`a virtual user stopped: ${String(result.reason)}`);
    const cpuAfter = treeCpuSeconds(serverPid, databaseName);
    const serverCpu = cpuAfter.server - cpuBefore.server;
    const postgresCpu = cpuAfter.postgres - cpuBefore.postgres;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const serverAlive = server.running();
    const serverErrors = (server.output().match(/"level":50/g) ?? []).length;
    if (!(await server.stop())) problems.push('the server did not stop on SIGTERM within 60 s');

    const check = await withDatabase(target, (database) => checkIngestion(database, acknowledged, sent));
    problems.push(...check.problems);
    if (!serverAlive) problems.push('the server process died during the run');

    const fiveHundreds = recorder.countStatus(500, 600);
    const noAnswer = recorder.countStatus(0, 1);
    const refused = recorder.countStatus(400, 500);
    const kinds = [...recorder.times.keys()].sort();
    const all = kinds.reduce((n, kind) => n + recorder.stats(kind).count, 0);
    const lines = kinds.map((kind) => {
      const s = recorder.stats(kind);
      return `| ${kind} | ${s.count} | ${(s.count / elapsed).toFixed(1)} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} | ${s.errors} |`;
    });
    const profileLines = kinds.flatMap((kind) => {
      const p = profiles.get(kind);
      if (!p) return [];
      const mean = (sum: number) => ms(sum / p.count);
      const own = (p.totalMs - p.dbMs - p.poolMs) / p.count;
      return [
        `| ${kind} | ${(p.queries / p.count).toFixed(1)} | ${mean(p.dbMs)} | ${mean(p.poolMs)} | ${ms(Math.max(0, own))} | ${mean(p.totalMs)} | ${mean(p.clientMs - p.totalMs)} | ${mean(p.clientMs)} |`,
      ];
    });
    console.log(`
### Load — ${target.kind}, ${userCount} users (${deviceUsers} devices), ${workers} server process${workers > 1 ? 'es' : ''}, ${elapsed.toFixed(0)} s, think 0..${2 * thinkMs} ms, ${seedRows.toLocaleString('en')} seeded records

| kind | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | non-2xx |
|---|---|---|---|---|---|---|---|
${lines.join('\n')}
| **all** | ${all} | ${(all / elapsed).toFixed(1)} | | | | | ${fiveHundreds + noAnswer + refused} |

- 5xx: ${fiveHundreds}; no answer: ${noAnswer}; 4xx: ${refused}; server error log lines: ${serverErrors}
- records: ${check.acknowledged} acknowledged, ${check.stored} stored, ${check.missing} missing; CSV rows exported: ${exportRows.toLocaleString('en')}
- CPU, % of one core: server ${((serverCpu / elapsed) * 100).toFixed(0)} %${target.kind === 'PostgreSQL' ? `, PostgreSQL backends ${((postgresCpu / elapsed) * 100).toFixed(0)} %` : ' (PGlite runs inside it)'}, bench client ${(((benchCpu.user + benchCpu.system) / 1e6 / elapsed) * 100).toFixed(0)} %; server RSS ${rssStart.toFixed(0)} → peak ${rssPeak.toFixed(0)} MB

Where the time went (means per request, ms; from the server's Server-Timing header):

| kind | round trips | in the database | waiting for a connection | server's own part | server total | beyond the server (network, queue before routing) | client total |
|---|---|---|---|---|---|---|---|
${profileLines.join('\n')}
`);
    for (const [label, count] of unexpected) console.log(`unexpected answer: ${label} ×${count}`);
    if (fiveHundreds > 0 || noAnswer > 0 || refused > 0)
      problems.push('answers other than 2xx (listed above)');
    for (const problem of problems.slice(0, 50)) console.log(`FAIL ${problem}`);
    failed = problems.length > 0;
    console.log(
      failed ? 'load: FAILED' : 'load: passed (no 5xx, no refused call, no lost or duplicated record)',
    );
  }
} finally {
  if (server?.running()) await server.kill();
  await target.dispose();
}
process.exit(failed ? 1 : 0);
