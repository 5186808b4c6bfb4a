/**
 * Faults: the server killed with SIGKILL while devices post records and while a large
 * certificate uploads, and the database restarted under load. Each scenario checks its outcome with
 * SQL and exits non-zero when it fails. Not a test (it takes minutes): prints markdown tables.
 *
 *   npm run bench:faults -- [--only ingest,upload,db-restart,chain-stall,chain-spike,chain-reorg,chain-down]
 *     [--db pglite,postgres] [--kills 3] [--uploads 6] [--stall 30] [--spike 30] [--outage 60] [--load 15]
 *
 * ingest      Devices post signed records continuously (1..5 per token); the server is killed -9 at a
 *             random moment, restarted on the same data, and the database is inspected: every record
 *             whose post was acknowledged is there exactly once with the values sent, the records of a
 *             post that was in flight are all there or none, and each consumable batch counts exactly
 *             the records that used it. Then the devices re-send what was not acknowledged, as they
 *             would, and each record must end up stored once.
 * upload      A 16 MB certificate PDF streams in; the server is killed -9 at points spread from the
 *             middle of the body to the commit. After the restart no certificate lacks a file, no file
 *             lacks its certificate, each file is whole, and the upload, retried, succeeds (or finds
 *             the first attempt complete, if it had committed).
 * db-restart  PostgreSQL only, on a private cluster this script creates (initdb, a free port, removed
 *             afterwards; never the machine's shared server): under load the cluster is restarted
 *             (`pg_ctl restart -m fast`, then `-m immediate`) and stopped for a few seconds. During
 *             the outage every call that fails must answer 503 service_unavailable in the envelope,
 *             never crash, and answer 2xx again by itself within RECOVERY_LIMIT_S of the database
 *             being back, without being restarted.
 *
 * chain-stall, chain-spike, chain-reorg, chain-down: the chain's faults under ingestion load, each
 *             ending with every acknowledged record in exactly one FINAL block whose root is on chain
 *             once (chain-faults.ts): mining stopped for --stall seconds, a base-fee spike above
 *             ANCHOR_MAX_FEE_GWEI for --spike seconds, a reorganisation that drops MINED transactions,
 *             the node not answering for --outage seconds; --load seconds of load before and after.
 *
 * --db picks where ingest, upload and the chain faults run: embedded PGlite in a temporary directory (where durability
 * is the server's own business) and/or a throwaway database on PostgreSQL (DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { CHAIN_FAULTS, chainFaultScenario } from './chain-faults.ts';
import {
  type Acknowledged,
  acknowledge,
  adminQuery,
  type BenchTarget,
  checkIngestion,
  createTarget,
  DEFAULT_POSTGRES_URL,
  freePort,
  loadFleet,
  login,
  ms,
  recordKey,
  type ServerProcess,
  seedTarget,
  sleep,
  startServer,
  withDatabase,
} from './harness.ts';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: `ingest,upload,db-restart,${CHAIN_FAULTS.join(',')}` },
    db: { type: 'string', default: 'pglite,postgres' },
    kills: { type: 'string', default: '3' },
    uploads: { type: 'string', default: '6' },
    stall: { type: 'string', default: '30' },
    spike: { type: 'string', default: '30' },
    outage: { type: 'string', default: '60' },
    load: { type: 'string', default: '15' },
  },
});
const scenarios = new Set(values.only.split(','));
const databases = values.db.split(',');
const KILLS = Number(values.kills);
const UPLOADS = Number(values.uploads);
const POSTERS = 6;
const SEED_ROWS = 2000;
const RECOVERY_LIMIT_S = 10;
/** Upload pace: 64 Mbit/s. */
const UPLOAD_BYTES_PER_S = 8_000_000;
/** Ingestion rate limits are per client address; durability is what is measured here. */
const SERVER_ENV = { INGEST_RATE_LIMIT_PER_MINUTE: '0', TRUST_PROXY: 'true' };

const report: string[] = [];
const failures: string[] = [];
const fail = (scenario: string, problem: string) => failures.push(`${scenario}: ${problem}`);

async function postgresReachable(url: string): Promise<boolean> {
  return adminQuery(url, 'select 1').then(
    () => true,
    () => false,
  );
}

/** A started server, timed from spawn to the first healthy answer. */
async function timedStart(target: BenchTarget, port: number, env: Record<string, string> = SERVER_ENV) {
  const started = performance.now();
  const server = await startServer(target, { port, env });
  return { server, seconds: (performance.now() - started) / 1000 };
}

// ---- ingest: SIGKILL while devices post ------------------------------------------------------------

interface Post {
  serial: string;
  records: SterilizationClaim[];
}

async function ingestScenario(target: BenchTarget): Promise<void> {
  const name = `ingest/${target.kind}`;
  const seeded = await seedTarget(target, SEED_ROWS);
  const fleet = await loadFleet(target.dataDir, seeded.activeSerials);
  const port = await freePort();
  const acknowledged = new Map<string, Acknowledged>();
  const sent = new Set<string>();
  const rows: string[] = [];
  let { server } = await timedStart(target, port);
  let turn = 0;
  const problems: string[] = [];

  for (let kill = 1; kill <= KILLS; kill++) {
    const pending = new Set<Post>();
    const unacknowledged: Post[] = [];
    let stop = false;
    let acknowledgedHere = 0;
    const current = server;
    const poster = async () => {
      while (!stop) {
        const serial = fleet.serials[turn++ % fleet.serials.length]!;
        const post: Post = {
          serial,
          records: fleet.next(serial, Math.random() < 0.7 ? 1 : 2 + Math.floor(Math.random() * 4)),
        };
        for (const record of post.records) sent.add(recordKey(serial, record.progressive_id));
        pending.add(post);
        const result = await fleet.post(current.base, serial, post.records);
        pending.delete(post);
        if (acknowledge(serial, post.records, result, acknowledged, problems))
          acknowledgedHere += post.records.length;
        else {
          unacknowledged.push(post);
          if (result.status !== 0)
            problems.push(`before the kill: ingest answered ${result.status} ${result.message}`);
          return;
        }
      }
    };
    const postingStarted = performance.now();
    const posters = Array.from({ length: POSTERS }, poster);
    await sleep(2000 + Math.random() * 3000);
    stop = true;
    const inFlight = [...pending];
    await server.kill();
    await Promise.all(posters);
    const postingSeconds = (performance.now() - postingStarted) / 1000;

    // The server recovers the crashed database itself; it is then stopped so that this process can
    // read the database (PGlite has one owner) exactly as the crash left it.
    const restart = await timedStart(target, port);
    if (!(await restart.server.stop())) problems.push('the restarted server did not stop on SIGTERM');
    const check = await withDatabase(target, (database) => checkIngestion(database, acknowledged, sent));
    problems.push(...check.problems);
    let committedPosts = 0;
    for (const post of unacknowledged) {
      const present = post.records.filter((record) =>
        check.storedKeys.has(recordKey(post.serial, record.progressive_id)),
      ).length;
      if (present === post.records.length) committedPosts++;
      else if (present > 0)
        problems.push(`${post.serial}: ${present} of the ${post.records.length} records of one post stored`);
    }

    // Devices re-send what was not acknowledged; every record must be stored once.
    ({ server } = await timedStart(target, port));
    for (const post of unacknowledged) {
      const result = await fleet.post(server.base, post.serial, post.records);
      if (!acknowledge(post.serial, post.records, result, acknowledged, problems))
        problems.push(`re-sent post answered ${result.status} ${result.message}`);
    }
    rows.push(
      `| ${target.kind} | ${kill} | ${acknowledgedHere} in ${postingSeconds.toFixed(1)} s | ${inFlight.length} (${inFlight.reduce((n, post) => n + post.records.length, 0)} records) | ${committedPosts} of ${unacknowledged.length} | ${check.missing} | ${restart.seconds.toFixed(1)} s |`,
    );
  }
  if (!(await server.stop())) problems.push('the server did not stop on SIGTERM');
  const final = await withDatabase(target, (database) => checkIngestion(database, acknowledged, sent));
  problems.push(...final.problems);
  if (final.stored !== sent.size) problems.push(`${sent.size} records sent, ${final.stored} stored`);
  for (const problem of problems) fail(name, problem);
  report.push(
    ...rows,
    `| ${target.kind} | end | ${final.acknowledged} acknowledged in all, ${final.stored} stored | | | ${final.missing} | |`,
  );
}

// ---- upload: SIGKILL while a certificate streams in -----------------------------------------------

/** A valid one-page PDF carrying an incompressible attachment, about `bytes` long. */
async function largePdf(bytes: number): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage();
  page.drawText('uvtrace fault benchmark: quality certificate', {
    x: 50,
    y: 750,
    size: 14,
    font: await document.embedFont(StandardFonts.Helvetica),
  });
  await document.attach(randomBytes(bytes), 'measurements.bin', { mimeType: 'application/octet-stream' });
  return document.save();
}

interface UploadProgress {
  sent: number;
  total: number;
  bodySentAt?: number;
}

/** Streams a multipart upload (as a browser does) and reports how much of the body has left. */
function upload(
  base: string,
  token: string,
  lot: string,
  pdf: Uint8Array,
  progress: UploadProgress,
): Promise<{ status: number; body?: { message?: string; data?: unknown } }> {
  const boundary = `----uvtrace${randomBytes(8).toString('hex')}`;
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('lot_number', lot) +
      field('validated_treatment_number', 'VT-1') +
      field('expiration_date', '2030-12-31') +
      `--${boundary}\r\nContent-Disposition: form-data; name="italian_file"; filename="certificate ${lot}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, pdf, tail]);
  progress.total = body.length;
  progress.sent = 0;
  const CHUNK = 64 * 1024;
  const started = performance.now();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (progress.sent >= body.length) {
        progress.bodySentAt = performance.now();
        controller.close();
        return;
      }
      // At the pace of a fast office link rather than a loopback copy, so that a kill lands mid-body.
      const due = started + (progress.sent / UPLOAD_BYTES_PER_S) * 1000 - performance.now();
      if (due > 0) await sleep(due);
      const chunk = body.subarray(progress.sent, progress.sent + CHUNK);
      progress.sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return fetch(`${base}/api/v1/certificates`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    body: stream,
    duplex: 'half',
  } as RequestInit).then(
    async (response) => ({
      status: response.status,
      body: (await response.json()) as { data?: { id: number } },
    }),
    () => ({ status: 0 }),
  );
}

function isDuplicate(body: { message?: string; data?: unknown } | undefined): boolean {
  const errors = body?.data as Record<string, string[]> | undefined;
  return (
    body?.message === 'validation_error' &&
    Boolean(errors?.lot_number?.includes('validation.certificate.duplicate'))
  );
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

async function uploadScenario(target: BenchTarget): Promise<void> {
  const name = `upload/${target.kind}`;
  await seedTarget(target, 0);
  const pdf = await largePdf(16 * 1024 * 1024);
  const digest = sha256(pdf);
  const port = await freePort();
  let { server } = await timedStart(target, port);
  let token = await login(server.base, 'admin@example.com');
  const problems: string[] = [];

  // Two uploads to completion: how long the body takes to send and the server to process it (the
  // quicker of the two, so that the kill points below fall inside the processing on a busy machine).
  const lots: string[] = [];
  let sendMs = Number.POSITIVE_INFINITY;
  let processMs = Number.POSITIVE_INFINITY;
  for (const lot of ['FAULT-BASELINE-1', 'FAULT-BASELINE-2']) {
    lots.push(lot);
    const baseline: UploadProgress = { sent: 0, total: 0 };
    const started = performance.now();
    const first = await upload(server.base, token, lot, pdf, baseline);
    const answeredAt = performance.now();
    if (first.status !== 201) problems.push(`baseline upload answered ${first.status}`);
    sendMs = Math.min(sendMs, (baseline.bodySentAt ?? answeredAt) - started);
    processMs = Math.min(processMs, answeredAt - (baseline.bodySentAt ?? answeredAt));
  }
  report.push(
    `| ${target.kind} | baseline | ${(pdf.length / 1e6).toFixed(1)} MB: body sent in ${ms(sendMs)} ms, answered ${ms(processMs)} ms later (quicker of 2) | 201 | |`,
  );

  // Kill points: two in the body, the rest spread over the server's processing (parse, checklist, insert, commit).
  const points = Array.from({ length: UPLOADS }, (_, i) =>
    i < 2 ? { bodyShare: (i + 1) / 3 } : { afterBodyMs: ((i - 1) / (UPLOADS - 2)) * processMs * 0.95 },
  );
  for (const [i, point] of points.entries()) {
    const lot = `FAULT-${i + 1}`;
    lots.push(lot);
    const progress: UploadProgress = { sent: 0, total: 0 };
    const attempt = upload(server.base, token, lot, pdf, progress);
    let answered: { status: number } | undefined;
    void attempt.then((result) => {
      answered = result;
    });
    let where: string;
    for (;;) {
      if (answered) break;
      if ('bodyShare' in point && progress.total > 0 && progress.sent >= point.bodyShare! * progress.total)
        break;
      if (
        'afterBodyMs' in point &&
        progress.bodySentAt &&
        performance.now() - progress.bodySentAt >= point.afterBodyMs!
      )
        break;
      await sleep(1);
    }
    if (answered) where = `too late: it answered ${answered.status} first`;
    else if (progress.bodySentAt)
      where = `${ms(performance.now() - progress.bodySentAt)} ms after the whole body was sent`;
    else where = `with ${((progress.sent / progress.total) * 100).toFixed(0)} % of the body sent`;
    await server.kill();
    const result = await attempt;
    if (!answered) answered = result;

    const restart = await timedStart(target, port);
    server = restart.server;
    token = await login(server.base, 'admin@example.com');
    const retry = await upload(server.base, token, lot, pdf, { sent: 0, total: 0 });
    // Acknowledged before the kill: stored, so the retry is a duplicate. Not acknowledged: either
    // nothing was kept (the retry stores it) or the upload had committed (a duplicate), never a part.
    let outcome: string;
    const duplicate = retry.status === 422 && isDuplicate(retry.body);
    if (answered.status === 201 && duplicate)
      outcome = 'stored before the kill: retry answered 422 duplicate';
    else if (answered.status !== 201 && retry.status === 201) outcome = 'nothing kept: retry stored it (201)';
    else if (answered.status !== 201 && duplicate) outcome = 'had committed: retry answered 422 duplicate';
    else {
      outcome = `retry answered ${retry.status}`;
      problems.push(
        `${lot}: first answer ${answered.status}, retry ${retry.status} ${retry.body?.message ?? ''}`,
      );
    }
    report.push(`| ${target.kind} | ${lot} | ${where} | ${outcome} | ${restart.seconds.toFixed(1)} s |`);
  }

  // The stored files, as the app downloads them.
  const list = (await (
    await fetch(`${server.base}/api/v1/certificates?page=1`, {
      headers: { authorization: `Bearer ${token}` },
    })
  ).json()) as { data: { data: { id: number; lot_number: string }[] } };
  for (const certificate of list.data.data) {
    const italian = new Uint8Array(
      await (
        await fetch(`${server.base}/api/v1/certificates/download/it/${certificate.id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).arrayBuffer(),
    );
    if (sha256(italian) !== digest)
      problems.push(`${certificate.lot_number}: the downloaded PDF differs from the one sent`);
  }
  if (!(await server.stop())) problems.push('the server did not stop on SIGTERM');

  await withDatabase(target, async (database) => {
    const query = async (sql: string, params: unknown[] = []) =>
      (await database.pool.query(sql, params)).rows;
    const incomplete = await query(
      `select c.lot_number, count(f.id) as files from certificates c
         left join certificate_files f on f.certificate_id = c.id
        group by c.id, c.lot_number having count(f.id) <> 2 or count(distinct f.language) <> 2`,
    );
    for (const row of incomplete) problems.push(`certificate ${row.lot_number} has ${row.files} files`);
    const orphans = await query(
      'select count(*) as n from certificate_files f where not exists (select 1 from certificates c where c.id = f.certificate_id)',
    );
    if (Number(orphans[0]?.n) > 0) problems.push(`${orphans[0]?.n} files without their certificate`);
    const truncated = await query(
      'select count(*) as n from certificate_files where size_bytes <> octet_length(content) or size_bytes = 0',
    );
    if (Number(truncated[0]?.n) > 0)
      problems.push(`${truncated[0]?.n} files whose content is not their recorded size`);
    const stored = await query(
      `select c.lot_number, encode(sha256(f.content), 'hex') as digest from certificates c
         join certificate_files f on f.certificate_id = c.id and f.language = 'it'`,
    );
    const byLot = new Map<string, string[]>();
    for (const row of stored) byLot.set(row.lot_number, [...(byLot.get(row.lot_number) ?? []), row.digest]);
    for (const lot of lots) {
      const digests = byLot.get(lot) ?? [];
      if (digests.length !== 1) problems.push(`${lot}: ${digests.length} certificates`);
      else if (digests[0] !== digest) problems.push(`${lot}: the stored PDF differs from the one sent`);
    }
    // With the audit trail in place, an upload and its audit entry commit together.
    const audited = await query("select to_regclass('audit_log') is not null as present");
    if (audited[0]?.present) {
      const unaudited = await query(
        `select count(*) as n from certificates c where not exists (
           select 1 from audit_log a where a.entity_type = 'certificate' and a.entity_id = c.id)`,
      );
      if (Number(unaudited[0]?.n) > 0)
        problems.push(`${unaudited[0]?.n} certificates without their audit entry`);
      const ghosts = await query(
        `select count(*) as n from audit_log a where a.entity_type = 'certificate'
           and not exists (select 1 from certificates c where c.id = a.entity_id)`,
      );
      if (Number(ghosts[0]?.n) > 0)
        problems.push(`${ghosts[0]?.n} audit entries of certificates never stored`);
    }
  });
  for (const problem of problems) fail(name, problem);
}

// ---- db-restart: PostgreSQL restarted under load ---------------------------------------------------

function postgresBinDir(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  for (const version of ['18', '17', '16', '15', '14']) {
    const dir = `/usr/lib/postgresql/${version}/bin`;
    if (spawnSync(path.join(dir, 'initdb'), ['--version']).status === 0) return dir;
  }
  return undefined;
}

/** initdb refuses root: as root, the cluster belongs to (and its tools run as) the postgres user. */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line) throw new Error('running as root and there is no postgres user to own the private cluster');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

interface Cluster {
  url: string;
  /** pg_ctl on the cluster, waiting (-w) for it to finish; resolves with the exit code. */
  pgCtl(...args: string[]): Promise<number>;
  remove(): Promise<void>;
}

async function createCluster(bin: string, port: number): Promise<Cluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'uvtrace-bench-pgcluster-'));
  const owner = clusterOwner();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  // Asynchronous: while pg_ctl waits for the cluster, this process keeps its virtual users going.
  const run = (tool: string, args: string[]) =>
    new Promise<number>((resolve) => {
      const child = spawn(path.join(bin, tool), args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        cwd: dir,
        ...(owner ?? {}),
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('exit', (code) => {
        if (code !== 0) console.error(`${tool} ${args.join(' ')}: ${stderr}`);
        resolve(code ?? 1);
      });
    });
  const data = path.join(dir, 'data');
  if ((await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync'])) !== 0)
    throw new Error('initdb failed');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const pgCtl = (...args: string[]) =>
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', ...args]);
  if ((await pgCtl('start')) !== 0) throw new Error('the private cluster did not start');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pgCtl,
    async remove() {
      await pgCtl('stop', '-m', 'immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface Answer {
  at: number;
  kind: string;
  status: number;
  /** The JSON envelope's message; undefined when the body was not the envelope. */
  message?: string;
}

async function dbRestartScenario(): Promise<void> {
  const name = 'db-restart';
  const bin = postgresBinDir();
  if (!bin) {
    report.push('| db-restart | skipped: no PostgreSQL binaries (set PG_BIN) | | | | |');
    return;
  }
  const cluster = await createCluster(bin, await freePort());
  let target: BenchTarget | undefined;
  let server: ServerProcess | undefined;
  const problems: string[] = [];
  try {
    target = await createTarget('dbrestart', cluster.url);
    const seeded = await seedTarget(target, SEED_ROWS);
    const fleet = await loadFleet(target.dataDir, seeded.activeSerials);
    server = (await timedStart(target, await freePort())).server;
    const base = server.base;
    const pid = server.pid;
    const token = await login(base, 'admin@example.com');
    const answers: Answer[] = [];
    const acknowledged = new Map<string, Acknowledged>();
    const sent = new Set<string>();
    let running = true;

    const call = async (kind: string, url: string, headers: Record<string, string> = {}) => {
      let status = 0;
      let message: string | undefined;
      try {
        const response = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
        status = response.status;
        const body = (await response.json()) as { status?: unknown; message?: unknown; data?: unknown };
        if ((body.status === 'success' || body.status === 'error') && typeof body.message === 'string')
          message = body.message;
      } catch {}
      answers.push({ at: performance.now(), kind, status, message });
    };
    const loops = [
      // Health, as a load balancer would probe it.
      async () => {
        while (running) {
          await call('health', `${base}/api/v1/health`);
          await sleep(100);
        }
      },
      ...Array.from({ length: 3 }, () => async () => {
        while (running) {
          await call('list', `${base}/api/v1/sterilizations?page=${1 + Math.floor(Math.random() * 5)}`, {
            authorization: `Bearer ${token}`,
          });
          await sleep(50);
        }
      }),
      ...Array.from({ length: 3 }, (_, i) => async () => {
        const serial = fleet.serials[i % fleet.serials.length]!;
        while (running) {
          const records = fleet.next(serial, 1);
          for (const record of records) sent.add(recordKey(serial, record.progressive_id));
          const result = await fleet.post(base, serial, records);
          if (!acknowledge(serial, records, result, acknowledged, problems)) {
            // A device keeps what was not acknowledged and sends it again a little later.
            let again = result;
            while (running && !again.stored) {
              await sleep(200);
              again = await fleet.post(base, serial, records);
            }
            acknowledge(serial, records, again, acknowledged, problems);
            answers.push({
              at: performance.now(),
              kind: 'ingest',
              status: result.status,
              message: result.message,
            });
          } else
            answers.push({ at: performance.now(), kind: 'ingest', status: result.status, message: 'stored' });
          await sleep(100);
        }
      }),
    ];
    const load = Promise.all(loops.map((loop) => loop()));

    const events: { label: string; run: () => Promise<unknown> }[] = [
      { label: 'pg_ctl restart -m fast', run: () => cluster.pgCtl('restart', '-m', 'fast') },
      { label: 'pg_ctl restart -m immediate', run: () => cluster.pgCtl('restart', '-m', 'immediate') },
      {
        label: 'pg_ctl stop -m fast, 5 s down, start',
        run: async () => {
          await cluster.pgCtl('stop', '-m', 'fast');
          await sleep(5000);
          await cluster.pgCtl('start');
        },
      },
    ];
    await sleep(3000);
    for (const event of events) {
      const down = performance.now();
      await event.run();
      const up = performance.now();
      // Recovered: health and both kinds of calls answered 2xx after the database came back.
      let recoveredAt: number | undefined;
      const deadline = up + RECOVERY_LIMIT_S * 1000;
      while (performance.now() < deadline) {
        const after = answers.filter((answer) => answer.at > up);
        const firstOk = (kind: string) =>
          after.find((answer) => answer.kind === kind && answer.status >= 200 && answer.status < 300)?.at;
        const times = ['health', 'list', 'ingest'].map(firstOk);
        if (times.every((time) => time !== undefined)) {
          recoveredAt = Math.max(...(times as number[]));
          break;
        }
        await sleep(100);
      }
      // Then a quiet spell: nothing but 2xx.
      await sleep(3000);
      const quietFrom = (recoveredAt ?? deadline) + 1000;
      const during = answers.filter((answer) => answer.at >= down && answer.at <= (recoveredAt ?? deadline));
      const failuresDuring = during.filter((answer) => answer.status < 200 || answer.status >= 300);
      const notUnavailable = failuresDuring.filter(
        (answer) => answer.status !== 503 || answer.message !== 'service_unavailable',
      );
      const health503 = during.filter(
        (answer) =>
          answer.kind === 'health' && answer.status === 503 && answer.message === 'service_unavailable',
      ).length;
      const afterwards = answers.filter(
        (answer) => answer.at > quietFrom && (answer.status < 200 || answer.status >= 300),
      );
      const statuses = [
        ...new Set(failuresDuring.map((answer) => `${answer.status} ${answer.message ?? ''}`)),
      ];
      report.push(
        `| ${event.label} | ${ms(up - down)} ms | ${failuresDuring.length} (${statuses.join(', ') || 'none'}) | ${health503} | ${recoveredAt ? `${ms(recoveredAt - up)} ms` : `**not within ${RECOVERY_LIMIT_S} s**`} | ${notUnavailable.length} | ${afterwards.length} |`,
      );
      if (!recoveredAt)
        problems.push(`${event.label}: not answering 2xx ${RECOVERY_LIMIT_S} s after the database was back`);
      if (notUnavailable.length > 0)
        problems.push(
          `${event.label}: ${notUnavailable.length} failures that were not 503 service_unavailable`,
        );
      if (afterwards.length > 0)
        problems.push(`${event.label}: ${afterwards.length} failures after recovery`);
      if (!server.running() || server.pid !== pid) problems.push(`${event.label}: the server process died`);
    }
    running = false;
    await load;
    const output = server.output();
    if (/Unhandled 'error' event|uncaughtException|unhandledRejection/i.test(output))
      problems.push('the server reported an unhandled error');
    if (!server.running()) problems.push('the server process is not running at the end');
    if (!(await server.stop())) problems.push('the server did not stop on SIGTERM within 60 s');
    const check = await withDatabase(target, (database) => checkIngestion(database, acknowledged, sent));
    problems.push(...check.problems);
    report.push(
      `| records | ${check.acknowledged} acknowledged, ${check.stored} stored, ${check.missing} missing | | | | | |`,
    );
  } finally {
    if (server?.running()) await server.kill();
    await target?.dispose();
    await cluster.remove();
  }
  for (const problem of problems) fail(name, problem);
}

// ---- main -----------------------------------------------------------------------------------------

const postgresUrl = process.env.DATABASE_URL || DEFAULT_POSTGRES_URL;
const targets: { kind: string; url?: string }[] = [];
for (const db of databases) {
  if (db === 'pglite') targets.push({ kind: 'PGlite' });
  else if (db === 'postgres') {
    if (await postgresReachable(postgresUrl)) targets.push({ kind: 'PostgreSQL', url: postgresUrl });
    else console.error(`no PostgreSQL at ${postgresUrl}: ingest and upload run on PGlite only`);
  }
}

for (const scenario of ['ingest', 'upload'] as const) {
  if (!scenarios.has(scenario)) continue;
  if (scenario === 'ingest')
    report.push(
      '',
      '#### SIGKILL during ingestion',
      '',
      '| database | kill | acknowledged before the kill | posts in flight | unacknowledged posts found committed | acknowledged missing | restart |',
      '|---|---|---|---|---|---|---|',
    );
  else
    report.push(
      '',
      '#### SIGKILL during a certificate upload',
      '',
      '| database | upload | SIGKILL | after the restart | restart |',
      '|---|---|---|---|---|',
    );
  for (const spec of targets) {
    const target = await createTarget(scenario, spec.url);
    console.error(`${scenario} on ${target.kind}…`);
    try {
      await (scenario === 'ingest' ? ingestScenario(target) : uploadScenario(target));
    } catch (error) {
      fail(`${scenario}/${target.kind}`, `stopped: ${(error as Error).stack ?? String(error)}`);
    } finally {
      await target.dispose();
    }
  }
}
const chainFaults = CHAIN_FAULTS.filter((fault) => scenarios.has(fault));
if (chainFaults.length > 0) {
  report.push(
    '',
    '#### The chain under ingestion load (a block a second, ANCHOR_MAX_FEE_GWEI 5, CHAIN_FINALITY_DEPTH 5)',
    '',
    '| fault | database | records acknowledged | what happened | fault lasted | all FINAL after the load in | blocks and transactions | every record in one FINAL block, root on chain once |',
    '|---|---|---|---|---|---|---|---|',
  );
}
for (const fault of chainFaults) {
  for (const spec of targets) {
    const target = await createTarget(fault, spec.url);
    console.error(`${fault} on ${target.kind}…`);
    try {
      const { row, problems } = await chainFaultScenario(fault, target, {
        stallSeconds: Number(values.stall),
        spikeSeconds: Number(values.spike),
        outageSeconds: Number(values.outage),
        loadSeconds: Number(values.load),
      });
      report.push(`| ${row.scenario} | ${row.database} | ${row.cells.join(' | ')} |`);
      for (const problem of problems) fail(`${fault}/${target.kind}`, problem);
    } catch (error) {
      fail(`${fault}/${target.kind}`, `stopped: ${(error as Error).stack ?? String(error)}`);
    } finally {
      await target.dispose();
    }
  }
}
if (scenarios.has('db-restart')) {
  report.push(
    '',
    '#### PostgreSQL restarted under load (private cluster; 3 list loops, 3 devices, health every 100 ms)',
    '',
    '| event | database away | failed answers until recovered | health 503 | 2xx again after the database is back | not 503 service_unavailable | failures after |',
    '|---|---|---|---|---|---|---|',
  );
  console.error('db-restart on a private PostgreSQL cluster…');
  try {
    await dbRestartScenario();
  } catch (error) {
    fail('db-restart', `stopped: ${(error as Error).stack ?? String(error)}`);
  }
}

console.log(report.join('\n'));
for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(failures.length > 0 ? 'faults: FAILED' : 'faults: passed');
process.exit(failures.length > 0 ? 1 : 0);
