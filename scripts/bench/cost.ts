/**
 * What a request costs, against the least any implementation of it must spend, in the same run
 * (docs/benchmarks.md, "bench:cost"). The product's server and a bare baseline (baseline-server.ts:
 * Fastify and pg doing only what each request must) run as child processes on one throwaway
 * PostgreSQL database; for each kind of request, a fixed number of requests at a fixed concurrency go
 * to each, and the processes' own CPU counters (the server's, and the PostgreSQL backends of that
 * database) give the CPU per request; p50/p95 at that concurrency come with it. The ratio
 * uvtrace ÷ baseline does not depend on the machine the way absolute times do.
 *
 *   npm run bench:cost -- [--records 20000] [--requests 400] [--concurrency 8] [--postgres URL]
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { INTEGRITY_FIELDS } from '#shared/integrity/canonical.ts';
import { readExportInThread } from './export-reader.ts';
import {
  cpuSpent,
  createTarget,
  DEFAULT_POSTGRES_URL,
  freePort,
  healthy,
  loadFleet,
  login,
  ms,
  postToken,
  Recorder,
  ROOT,
  seedTarget,
  sleep,
  startServer,
  treeCpuSeconds,
} from './harness.ts';
import { lightRequest } from './light-http.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '20000' },
    requests: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '8' },
    postgres: { type: 'string', default: DEFAULT_POSTGRES_URL },
  },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);

/** One measured kind: the same work sent to each server, as a function making request i. */
type Send = (base: string, i: number) => Promise<number>;
type Measure = { serverMs: number; dbMs: number; p50: number; p95: number; errors: number };

async function measure(pid: number, database: string, base: string, send: Send): Promise<Measure> {
  const recorder = new Recorder();
  // A few requests first: connections, prepared statements and JIT warm, not counted.
  for (let i = 0; i < Math.min(20, REQUESTS); i++) await send(base, -1 - i);
  const before = treeCpuSeconds(pid, database);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        const started = performance.now();
        const status = await send(base, i);
        recorder.add('kind', performance.now() - started, status);
      }
    }),
  );
  await sleep(300); // work the answers left behind (alert evaluation, events) is the request's too
  const spent = cpuSpent(before, treeCpuSeconds(pid, database));
  const stats = recorder.stats('kind');
  return {
    serverMs: (spent.server * 1000) / REQUESTS,
    dbMs: (spent.postgres * 1000) / REQUESTS,
    p50: stats.p50,
    p95: stats.p95,
    errors: stats.errors,
  };
}

const target = await createTarget('cost', values.postgres);
try {
  const seeded = await seedTarget(target, Number(values.records));
  const database = new URL(target.databaseUrl as string).pathname.slice(1);
  const uvtrace = await startServer(target, {
    port: await freePort(),
    env: {
      ANCHOR_ENABLED: 'false',
      INTEGRITY_SWEEP_INTERVAL_HOURS: '0',
      INGEST_RATE_LIMIT_PER_MINUTE: '0',
      LOGIN_RATE_LIMIT_PER_MINUTE: '0',
    },
  });
  const baselinePort = await freePort();
  const baseline = spawn(process.execPath, [path.join(ROOT, 'scripts/bench/baseline-server.ts')], {
    env: { ...process.env, PORT: String(baselinePort), DATABASE_URL: target.databaseUrl },
    stdio: 'inherit',
  });
  const baselineBase = `http://127.0.0.1:${baselinePort}`;
  while (!(await healthy(baselineBase))) await sleep(100);
  try {
    const token = await login(uvtrace.base, 'super@example.com');
    const auth = { authorization: `Bearer ${token}` };
    const get = (url: string) => async (base: string) =>
      (await lightRequest(`${base}${url}`, { headers: auth, timeoutMs: 60_000 })).status;
    /** The page-1 records: the verification window's reads are made for each in turn. */
    const pageOne = (
      (await (await fetch(`${uvtrace.base}/api/v1/sterilizations?page=1`, { headers: auth })).json()) as {
        data: { data: Record<string, unknown>[] };
      }
    ).data.data;
    const recordAt = (i: number) => pageOne[Math.abs(i) % pageOne.length] as Record<string, unknown>;
    const hashForm = (record: Record<string, unknown>) => {
      const form = new FormData();
      if (record.hashing_version != null) form.append('hashing_version', String(record.hashing_version));
      if (record.blockchain_data_block_id != null)
        form.append('blockchain_data_block_id', String(record.blockchain_data_block_id));
      for (const field of INTEGRITY_FIELDS)
        if (record[field] !== null && record[field] !== undefined) form.append(field, String(record[field]));
      return form;
    };
    const loginForm = () => {
      const form = new FormData();
      form.append('email', 'super@example.com');
      form.append('password', 'demo-password');
      return form;
    };
    const lastPage = Math.max(1, Math.floor(Number(values.records) / 20));
    const fleet = await loadFleet(target.dataDir, seeded.activeSerials);
    /** Tokens signed before the timing, a fresh record each (a resent one would cost less). */
    const tokens = async (count: number) =>
      Promise.all(
        Array.from({ length: REQUESTS + 20 }, (_, i) => {
          const serial = fleet.serials[i % fleet.serials.length] as string;
          return fleet.sign(serial, fleet.next(serial, count));
        }),
      );
    const kinds: { name: string; baseline: boolean; send: () => Promise<Send> }[] = [
      { name: 'list page 1', baseline: true, send: async () => get('/api/v1/sterilizations?page=1') },
      {
        name: `list page ${lastPage}`,
        baseline: true,
        send: async () => get(`/api/v1/sterilizations?page=${lastPage}`),
      },
      {
        name: 'list, one customer',
        baseline: true,
        send: async () => get('/api/v1/sterilizations?page=1&customerId=2'),
      },
      { name: 'dashboard', baseline: false, send: async () => get('/api/v1/dashboard') },
      {
        name: 'record evidence',
        baseline: true,
        send: async () => async (base, i) =>
          (
            await lightRequest(`${base}/api/v1/sterilizations/evidence/${recordAt(i).id}`, {
              headers: auth,
              timeoutMs: 60_000,
            })
          ).status,
      },
      {
        name: 'record hash check',
        baseline: false,
        send: async () => async (base, i) =>
          (
            await fetch(`${base}/api/v1/transactions/calculateHash`, {
              method: 'POST',
              headers: auth,
              body: hashForm(recordAt(i)),
            })
          ).status,
      },
      { name: 'customer page', baseline: true, send: async () => get('/api/v1/customers/2') },
      {
        name: 'customer devices',
        baseline: true,
        send: async () => get('/api/v1/customers/2/devices?page=1'),
      },
      {
        name: 'login',
        baseline: true,
        send: async () => async (base) =>
          (await fetch(`${base}/api/v1/auth/login`, { method: 'POST', body: loginForm() })).status,
      },
      {
        name: 'single-record token',
        baseline: true,
        send: async () => {
          const [forUvtrace, forBaseline] = [await tokens(1), await tokens(1)];
          return async (base, i) =>
            (
              await postToken(
                base,
                (base === baselineBase ? forBaseline : forUvtrace)[i < 0 ? -1 - i : 20 + i] as string,
              )
            ).status;
        },
      },
      {
        name: '50-record token',
        baseline: false,
        send: async () => {
          const signed = await tokens(50);
          return async (base, i) => (await postToken(base, signed[i < 0 ? -1 - i : 20 + i] as string)).status;
        },
      },
    ];
    const rows: string[] = [];
    const measured = new Map<string, Measure>();
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
    for (const kind of kinds) {
      const send = await kind.send();
      const ours = await measure(uvtrace.pid, database, uvtrace.base, send);
      measured.set(kind.name, ours);
      const bare = kind.baseline ? await measure(baseline.pid as number, database, baselineBase, send) : null;
      rows.push(
        [
          kind.name.padEnd(22),
          `${ms(ours.serverMs)} / ${ms(ours.dbMs)} ms`.padEnd(18),
          `${ms(ours.p50)} / ${ms(ours.p95)} ms`.padEnd(18),
          bare ? `${ms(bare.serverMs)} / ${ms(bare.dbMs)} ms`.padEnd(18) : '—'.padEnd(18),
          bare
            ? `${ratio(ours.serverMs, bare.serverMs)} / ${ratio(ours.dbMs, bare.dbMs)}`.padEnd(16)
            : '—'.padEnd(16),
          bare ? ratio(ours.p95, bare.p95) : '—',
          ours.errors + (bare?.errors ?? 0) > 0 ? `  (${ours.errors + (bare?.errors ?? 0)} errors)` : '',
        ].join(' '),
      );
    }
    console.log(
      `bench:cost: ${values.records} records, ${REQUESTS} requests per kind at ${CONCURRENCY} in flight, PostgreSQL`,
    );
    console.log(
      `${'kind'.padEnd(22)} ${'uvtrace CPU srv/db'.padEnd(18)} ${'uvtrace p50/p95'.padEnd(18)} ${'baseline CPU srv/db'.padEnd(18)} ${'ratio srv/db'.padEnd(16)} p95 ratio`,
    );
    for (const row of rows) console.log(row);
    console.log(
      'targets: list kinds ≤ 1.5× the baseline server CPU and ≤ 1.2× its database CPU; a single-record token ≤ 2× its total CPU',
    );

    // ---- event-stream delivery: single-record tokens again, with STREAMS live streams open ----------
    // What a delivered event costs: the server CPU per token with the streams open, less the same
    // kind measured above without them, times the tokens, over the events the streams received.
    const STREAMS = 20;
    let delivered = 0;
    const streamSessions = await Promise.all(
      Array.from({ length: STREAMS / 5 }, () => login(uvtrace.base, 'super@example.com')),
    );
    const streams = await Promise.all(
      Array.from(
        { length: STREAMS },
        (_, i) =>
          new Promise<() => void>((resolve, reject) => {
            const url = new URL(`${uvtrace.base}/api/v1/events`);
            const opened = httpRequest(
              url,
              {
                headers: { authorization: `Bearer ${streamSessions[i % streamSessions.length]}` },
                agent: false,
              },
              (response) => {
                if (response.statusCode !== 200) reject(new Error(`events answered ${response.statusCode}`));
                let pending = '';
                response.setEncoding('utf8');
                response.on('data', (chunk: string) => {
                  pending += chunk;
                  const lines = pending.split('\n');
                  pending = lines.pop() ?? '';
                  for (const line of lines) if (line.startsWith('data:')) delivered += 1;
                });
                resolve(() => opened.destroy());
              },
            );
            opened.on('error', () => {});
            opened.end();
          }),
      ),
    );
    const withStreams = await (async () => {
      const signed = await tokens(1);
      return measure(
        uvtrace.pid,
        database,
        uvtrace.base,
        async (base, i) => (await postToken(base, signed[i < 0 ? -1 - i : 20 + i] as string)).status,
      );
    })();
    for (const close of streams) close();
    const without = measured.get('single-record token') as Measure;
    const perDelivery =
      delivered > 0 ? ((withStreams.serverMs - without.serverMs) * (REQUESTS + 20)) / delivered : Number.NaN;
    console.log(
      `\nevent-stream delivery: ${STREAMS} streams open, ${delivered} events delivered for ${REQUESTS + 20} single-record tokens; server CPU per token ${ms(withStreams.serverMs)} ms with them, ${ms(without.serverMs)} ms without: ${Number.isFinite(perDelivery) ? `${(perDelivery * 1000).toFixed(0)} µs` : '—'} per delivered event (p95 of the posts ${ms(withStreams.p95)} ms)`,
    );

    // ---- the CSV export: CPU per 1,000 rows, and the health check's p99 during it against at rest ----
    /** Health polled back to back by one client until `until` settles: its p99. */
    const pollHealth = async (base: string, until: Promise<unknown>) => {
      const recorder = new Recorder();
      let done = false;
      until.finally(() => {
        done = true;
      });
      while (!done) {
        const started = performance.now();
        const status = (await lightRequest(`${base}/api/v1/health`, { timeoutMs: 60_000 })).status;
        recorder.add('health', performance.now() - started, status);
      }
      return recorder.stats('health');
    };
    /** One full export of every record the super admin sees: its rows and CPU. */
    const exportAll = async (pid: number, base: string, ours: boolean) => {
      const before = treeCpuSeconds(pid, database);
      let url = `${base}/export/sterilizations-filtered`;
      if (ours) {
        const ticket = await fetch(`${base}/api/v1/export-tickets`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ export: 'sterilizations-filtered' }),
        });
        url += `?ticket=${((await ticket.json()) as { data: { ticket: string } }).data.ticket}`;
      }
      // Downloaded by a thread of its own: the health poller's event loop times the server only.
      const { lines, seconds } = await readExportInThread(url, ours ? {} : auth);
      await sleep(300);
      const spent = cpuSpent(before, treeCpuSeconds(pid, database));
      const thousands = Math.max(1, lines - 1) / 1000;
      return {
        rows: lines - 1,
        seconds,
        serverMs: (spent.server * 1000) / thousands,
        dbMs: (spent.postgres * 1000) / thousands,
      };
    };
    const exportRow = async (name: string, pid: number, base: string, ours: boolean) => {
      const rest = await pollHealth(base, sleep(5000));
      const running = exportAll(pid, base, ours);
      const during = await pollHealth(base, running);
      const cost = await running;
      return { name, rest, during, cost };
    };
    const exports = [
      await exportRow('uvtrace', uvtrace.pid, uvtrace.base, true),
      await exportRow('baseline', baseline.pid as number, baselineBase, false),
    ];
    console.log('\nCSV export of every record, one at a time; health polled back to back by one client');
    console.log(
      `${'server'.padEnd(10)} ${'rows'.padEnd(10)} ${'rows/s'.padEnd(9)} ${'CPU srv/db per 1,000 rows'.padEnd(27)} health p99 at rest / during (ratio)`,
    );
    for (const { name, rest, during, cost } of exports) {
      console.log(
        [
          name.padEnd(10),
          String(cost.rows).padEnd(10),
          String(Math.round(cost.rows / cost.seconds)).padEnd(9),
          `${ms(cost.serverMs)} / ${ms(cost.dbMs)} ms`.padEnd(27),
          `${ms(rest.p99)} / ${ms(during.p99)} ms (${ratio(during.p99, rest.p99)})`,
        ].join(' '),
      );
    }
    const [ours, bare] = exports as [(typeof exports)[number], (typeof exports)[number]];
    console.log(
      `export ratio srv/db: ${ratio(ours.cost.serverMs, bare.cost.serverMs)} / ${ratio(ours.cost.dbMs, bare.cost.dbMs)}; target: health p99 during the export ≤ 2× at rest`,
    );
  } finally {
    baseline.kill('SIGTERM');
    await uvtrace.stop();
  }
} finally {
  await target.dispose();
}
