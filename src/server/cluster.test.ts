// `node src/server/main.ts --workers N` (what `npm start -- --workers N` runs after building the app),
// started for real: N processes answer on one port, one of them leads the background work, and
// SIGTERM stops them all. And two `node src/server/main.ts` started apart on one database: a live
// event crosses from one to the other, an alert is raised once. Needs PostgreSQL (TEST_DATABASE_URL);
// the refusals without it run everywhere.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestionClaims } from '#shared/ingestion/claims.ts';
import type { Database } from './db/client.ts';
import { seedDemoData } from './db/seed.ts';
import { signDeviceToken } from './test/contract-support.ts';
import { openEventStream, type SseEvent, type SseStream } from './test/sse-client.ts';
import { openTestDatabase } from './test/test-database.ts';

const MAIN = path.join(import.meta.dirname, 'main.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'uvtrace-cluster-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIST: '/nonexistent-client-build',
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** GET /api/v1/health on a new connection each time (a kept-alive one would stay with one process). */
function health(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(
      { host: '127.0.0.1', port, path: '/api/v1/health', agent: false, headers: { connection: 'close' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    call.on('error', reject);
    call.end();
  });
}

/** The pino JSON lines the processes wrote (NODE_ENV=production: one JSON object per line). */
function logLines(output: string): Array<{ pid: number; msg: string; req?: { url?: string } }> {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

describe('npm start -- --workers N', () => {
  it('refuses more than one process on the embedded database, saying why', async () => {
    const run = start(['--workers', '2'], { DATABASE_URL: '', PORT: String(await freePort()) });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('--workers 2 needs DATABASE_URL');
  }, 30_000);

  it('refuses a --workers that is not a whole number', async () => {
    const run = start(['--workers', 'two'], { DATABASE_URL: '', PORT: String(await freePort()) });
    expect(await run.exited).toBe(2);
    expect(run.output()).toContain('--workers must be a whole number');
  }, 30_000);

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'runs two server processes on one port and one database, and stops them on SIGTERM',
    async () => {
      let database: Database | undefined;
      let child: ChildProcess | undefined;
      try {
        database = await openTestDatabase();
        const port = await freePort();
        const run = start(['--workers', '2'], {
          DATABASE_URL: String(database.pool.options.connectionString),
          PORT: String(port),
        });
        child = run.child;
        // Up when both processes said they listen (the primary prints its banner then). A start takes
        // a few seconds alone; the limit is for a machine busy with other test files.
        for (let polls = 0; polls < 1800 && !run.output().includes('2 server processes'); polls += 1) {
          if (child.exitCode !== null) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(run.output()).toContain('2 server processes');

        const answers: number[] = [];
        for (let i = 0; i < 8; i += 1) answers.push(await health(port));
        expect(answers).toEqual(Array(8).fill(200));

        // A write that takes the audit lock, while one of the processes holds the lead.
        const form = new FormData();
        form.append('email', 'nobody@example.com');
        form.append('password', 'not-the-password');
        const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
          method: 'POST',
          body: form,
        });
        expect(login.status).toBe(401);

        const lines = logLines(run.output());
        const listening = new Set(
          lines.filter((line) => line.msg.startsWith('listening at')).map((l) => l.pid),
        );
        const served = new Set(
          lines.filter((line) => line.req?.url === '/api/v1/health').map((line) => line.pid),
        );
        expect(listening.size).toBe(2);
        expect(listening.has(child.pid as number)).toBe(false);
        expect(served).toEqual(listening);
        // The anchor worker's leader (the integrity sweep elects its own, with a lock of its own).
        const leaders = lines.filter(
          (line) =>
            line.msg.startsWith('background: this process') && line.msg.endsWith('background work runs here'),
        );
        expect(leaders).toHaveLength(1);
        expect(listening.has(leaders[0]!.pid)).toBe(true);

        child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
        expect(lines.length).toBeGreaterThan(0);
        for (const pid of listening) expect(() => process.kill(pid, 0), `process ${pid}`).toThrow();
        expect(logLines(run.output()).filter((line) => line.msg === 'SIGTERM: closing')).toHaveLength(2);
      } finally {
        if (child && child.exitCode === null) child.kill('SIGKILL');
        await database?.close();
      }
    },
    120_000,
  );
});

describe('two server processes on one PostgreSQL database', () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'an SSE client of process B sees a record ingested through process A; an alert is raised once',
    async () => {
      let database: Database | undefined;
      const runs: ReturnType<typeof start>[] = [];
      let stream: SseStream | undefined;
      try {
        database = await openTestDatabase();
        const seed = await seedDemoData(database, { sterilizations: 0 });
        const customerId = seed.accounts.find((a) => a.email === 'customer@example.com')?.customerId;
        const device = seed.devices.find((d) => d.customerId === customerId);
        if (!device) throw new Error('no device of the demo clinic');

        // Two processes of their own (not --workers): each its own port, pool, event listener and sweep.
        const urls: string[] = [];
        for (let i = 0; i < 2; i += 1) {
          const port = await freePort();
          const run = start([], {
            DATABASE_URL: String(database.pool.options.connectionString),
            PORT: String(port),
            SEED_DEMO_DATA: 'false',
          });
          runs.push(run);
          urls.push(`http://127.0.0.1:${port}`);
        }
        for (const run of runs) {
          for (let polls = 0; polls < 1800 && !/"msg":"listening at/.test(run.output()); polls += 1) {
            if (run.child.exitCode !== null) break;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          expect(run.output()).toMatch(/"msg":"listening at/);
        }
        const [onA, onB] = urls as [string, string];

        const login = new FormData();
        login.append('email', 'customer@example.com');
        login.append('password', 'demo-password');
        const session = await fetch(`${onB}/api/v1/auth/login`, { method: 'POST', body: login });
        expect(session.status).toBe(200);
        const token = ((await session.json()) as { data: { token: string } }).data.token;
        stream = await openEventStream(onB, token);
        expect(stream.status).toBe(200);

        let progressive = 7_000_000;
        const signedFailure = () => {
          progressive += 1;
          const record = {
            progressive_id: progressive,
            supplied_energy: 300,
            nominal_time: 10,
            effective_time: 3,
            residual_lamp_life: 4000,
            status_code: 2,
          };
          return signDeviceToken(ingestionClaims(device.serial, [record]), device.privateKeyPem);
        };
        const post = async (url: string, signed: string) => {
          const response = await fetch(`${url}/api/v1/ingest/sterilizations`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token: signed }),
          });
          expect(response.status).toBe(200);
          return ((await response.json()) as { data: { id: number }[] }).data[0]!.id;
        };
        /** The failed-cycle alerts of a record, once its evaluation (in the background) has raised one. */
        const alertsOf = async (recordId: number) => {
          for (;;) {
            const found = await database!.pool.query<{ id: number }>(
              'select id from alerts where condition_key = $1 order by id',
              [`failed_cycle:${recordId}`],
            );
            if (found.rows.length > 0) return found.rows.map((row) => Number(row.id));
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        };
        const isAlert = (event: SseEvent, alertId: number | undefined) =>
          event.event === 'alert.raised' && (event.data as { alertId: number }).alertId === alertId;
        /** Reads B's stream up to the event that `wanted` accepts (others, such as gap alerts, pass by). */
        const seenOnB = async (wanted: (event: SseEvent) => boolean) => {
          for (;;) {
            const event = await (stream as SseStream).next();
            if (wanted(event)) return event;
          }
        };

        // Through A; B's subscriber hears the record, then the alert A raised for it.
        const first = await post(onA, await signedFailure());
        expect(await seenOnB((event) => event.event === 'record.created')).toEqual({
          event: 'record.created',
          data: { type: 'record.created', customerId, deviceId: device.id, recordIds: [first] },
        });
        const [firstAlert] = await alertsOf(first);
        expect(await seenOnB((event) => isAlert(event, firstAlert))).toEqual({
          event: 'alert.raised',
          data: { type: 'alert.raised', alertId: firstAlert, customerId },
        });

        // The device sends its next failed cycle to both processes at once (a retry that went to the
        // other one): one record, one alert, whichever process stored it.
        const again = await signedFailure();
        const [viaA, viaB] = await Promise.all([post(onA, again), post(onB, again)]);
        expect(viaA).toBe(viaB);
        const alertIds = await alertsOf(viaA);
        expect(await seenOnB((event) => isAlert(event, alertIds[0]))).toEqual({
          event: 'alert.raised',
          data: { type: 'alert.raised', alertId: alertIds[0], customerId },
        });

        // Stopped, each process has finished its evaluations and sweeps (both swept at start, at once).
        stream.close();
        for (const run of runs) run.child.kill('SIGTERM');
        expect(await Promise.all(runs.map((run) => run.exited))).toEqual([0, 0]);
        expect(await alertsOf(first)).toEqual([firstAlert]);
        expect(await alertsOf(viaA)).toEqual(alertIds.slice(0, 1));
        const stored = await database.pool.query(
          'select count(*)::int as n from sterilizations where device_id = $1 and progressive_id > 7000000',
          [device.id],
        );
        expect(stored.rows[0].n).toBe(2);
        // No condition was raised twice, resolved or not: nothing in this run clears one and brings it back.
        const twice = await database.pool.query(
          'select condition_key, count(*)::int as n from alerts group by condition_key having count(*) > 1',
        );
        expect(twice.rows).toEqual([]);
        expect(
          (await database.pool.query('select count(*)::int as n from alerts')).rows[0].n,
        ).toBeGreaterThan(2);
      } finally {
        stream?.close();
        for (const run of runs) if (run.child.exitCode === null) run.child.kill('SIGTERM');
        await Promise.all(runs.map((run) => run.exited));
        await database?.close();
      }
    },
    120_000,
  );
});
