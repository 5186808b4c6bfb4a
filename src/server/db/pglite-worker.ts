// Runs embedded PGlite on its own thread and serves it over the PostgreSQL wire protocol on
// 127.0.0.1, so that a long query never stalls the HTTP event loop
// (docs/adr/0007-one-schema-on-pglite-and-postgresql.md). Started by openDatabase() in client.ts; speaks to
// it with the messages typed below.
import { fsyncSync, mkdirSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PGLITE_EXTENSIONS } from './pglite-extensions.ts';

export interface PgliteWorkerData {
  /** Directory of the database files, or 'memory://' for an in-memory database. */
  dataDir: string;
  /** Socket connections accepted at once (the pool uses one; a little slack covers reconnects). */
  maxConnections: number;
  /** A tarball from dumpDataDir to start from (skips initdb, which costs seconds): tests use it. */
  loadFrom?: string;
}

export type PgliteWorkerMessage =
  | { type: 'ready'; port: number }
  | { type: 'error'; message: string }
  | { type: 'closed' }
  | { type: 'dumped' };

/** Messages the worker accepts. */
export type PgliteWorkerCommand = { type: 'close' } | { type: 'dump'; path: string };

if (!parentPort) throw new Error('pglite-worker.ts must run in a worker thread');
const port = parentPort;
const { dataDir, maxConnections, loadFrom } = workerData as PgliteWorkerData;

function post(message: PgliteWorkerMessage): void {
  port.postMessage(message);
}

/**
 * PGlite's file system on disk, with a real fsync. As shipped, PGlite starts PostgreSQL with fsync off
 * (`-F`) and Emscripten's NODEFS has no fsync (and its fdatasync does nothing): a commit reaches the
 * kernel, so it survives the process being killed, but not the disk, so a power cut or an OS crash
 * could lose acknowledged records or leave data pages newer than the WAL that recovery relies on.
 * Here NODEFS's fsync calls the real one and PostgreSQL syncs WAL with fsync() at every commit and
 * data files at checkpoints, as it does on any server. Cost: one fsync per commit
 * (docs/adr/0007-one-schema-on-pglite-and-postgresql.md).
 */
class DurableNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const syncForReal = (mod: { FS: { filesystems: { NODEFS: { stream_ops: object } } } }) => {
      Object.assign(mod.FS.filesystems.NODEFS.stream_ops, {
        fsync(stream: { nfd: number }) {
          fsyncSync(stream.nfd);
          return 0;
        },
      });
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), syncForReal] } };
  }
}

/** PGlite's own start parameters without `-F` (fsync off); WAL synced with fsync(), see DurableNodeFS. */
const DURABLE_START_PARAMS = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'wal_sync_method=fsync',
];

let db: PGlite | undefined;
let server: PGLiteSocketServer | undefined;

async function start(): Promise<void> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const loadDataDir = loadFrom ? new Blob([await readFile(loadFrom)]) : undefined;
  db = await PGlite.create({
    extensions: PGLITE_EXTENSIONS,
    ...(inMemory ? { dataDir } : { fs: new DurableNodeFS(dataDir), startParams: DURABLE_START_PARAMS }),
    ...(loadDataDir ? { loadDataDir } : {}),
  });
  server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  await server.start();
  const conn = server.getServerConn();
  const listenPort = Number(conn.slice(conn.lastIndexOf(':') + 1));
  if (!Number.isInteger(listenPort) || listenPort <= 0) throw new Error(`unexpected server address ${conn}`);
  post({ type: 'ready', port: listenPort });
}

async function stop(): Promise<void> {
  try {
    await server?.stop();
  } finally {
    // Closing PGlite flushes its files so the data directory is consistent for the next open.
    if (db && !db.closed) await db.close();
  }
}

async function dump(target: string): Promise<void> {
  if (!db) throw new Error('database not open');
  const blob = await db.dumpDataDir('none');
  // Write then rename: concurrent writers of the same template never expose a partial file.
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, Buffer.from(await blob.arrayBuffer()));
  await rename(temporary, target);
}

port.on('message', (message: PgliteWorkerCommand) => {
  if (message.type === 'dump') {
    dump(message.path)
      .then(() => post({ type: 'dumped' }))
      .catch((error: unknown) => post({ type: 'error', message: String(error) }));
    return;
  }
  if (message.type !== 'close') return;
  stop()
    .catch((error: unknown) => post({ type: 'error', message: String(error) }))
    .finally(() => {
      post({ type: 'closed' });
      port.close();
      process.exit(0);
    });
});

start().catch((error: unknown) => {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  stop()
    .catch(() => {})
    .finally(() => process.exit(1));
});
