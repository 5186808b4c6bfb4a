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
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
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
  const after = treeCpuSeconds(pid, database);
  const stats = recorder.stats('kind');
  return {
    serverMs: ((after.server - before.server) * 1000) / REQUESTS,
    dbMs: ((after.postgres - before.postgres) * 1000) / REQUESTS,
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
    const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
    for (const kind of kinds) {
      const send = await kind.send();
      const ours = await measure(uvtrace.pid, database, uvtrace.base, send);
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
  } finally {
    baseline.kill('SIGTERM');
    await uvtrace.stop();
  }
} finally {
  await target.dispose();
}
