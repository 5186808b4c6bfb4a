// Opens the database: a real PostgreSQL (DATABASE_URL) or embedded PGlite served from a worker
// thread. Either way the rest of the server sees the same thing: a `pg` Pool and a drizzle
// database over it, with migrations applied.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { PgliteWorkerCommand, PgliteWorkerData, PgliteWorkerMessage } from './pglite-worker.ts';
import * as schema from './schema.ts';
import { nameRepeatedStatements } from './statement-names.ts';

export type Db = NodePgDatabase<typeof schema>;
/** The handle drizzle gives a transaction callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  pool: pg.Pool;
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Ends the pool and, for PGlite, closes the database and stops its worker. Safe to call twice. */
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A real PostgreSQL server. When absent, embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory (created if missing); 'memory://' for an in-memory database. */
  dataDir?: string;
  /**
   * PGlite only, for tests: a file caching a freshly migrated database. When it exists the
   * database starts from it (about 0.5 s instead of 3 s of initdb); when not, it is written after
   * migrating. Name it after the migrations (see test-database.ts).
   */
  pgliteTemplate?: string;
  /**
   * Opens the database as it is, without applying pending migrations: a backup copies a database in the
   * schema it has (src/server/backup).
   */
  skipMigrations?: boolean;
}

export const MIGRATIONS_FOLDER = path.join(import.meta.dirname, 'migrations');
/** Where the embedded database lives under the app's DATA_DIR. */
export function embeddedDataDir(dataRoot: string): string {
  return path.join(dataRoot, 'pglite');
}

/** Arbitrary constant: serialises migrations of several processes starting against one server. */
const MIGRATION_LOCK_KEY = 4_242_017_001;
const WORKER_START_TIMEOUT_MS = 60_000;
const WORKER_STOP_TIMEOUT_MS = 15_000;

export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<Database> {
  const database = opts.databaseUrl
    ? openPostgres(opts.databaseUrl)
    : await openPglite(opts.dataDir ?? embeddedDataDir('data'), opts.pgliteTemplate);
  try {
    if (!opts.skipMigrations) await migrate(database);
    if (opts.pgliteTemplate && database.kind === 'pglite' && !existsSync(opts.pgliteTemplate)) {
      await dumpTemplate.get(database)?.(opts.pgliteTemplate);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Applies pending migrations, holding an advisory lock so concurrent starts don't race. */
export async function migrate(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await drizzleMigrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Runs fn in one transaction: it commits when fn resolves and rolls back when it throws. */
export function withTransaction<T>(database: Database | Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = 'pool' in database ? database.db : database;
  return db.transaction(fn);
}

/**
 * A connection can break at any moment (the server restarted, the PGlite worker stopped), and pg
 * reports it as an 'error' event on the client: with no listener, that event ends the process. The
 * pool listens only while a client is idle, so each client gets a listener for its whole life.
 *
 * A client checked out when its connection breaks is handed back to the pool at once, as broken (the
 * pool closes it): its holder may never release it (drizzle's transaction() does not when its BEGIN
 * fails), and every client the pool still counts as busy is a slot lost for good. After a few
 * database restarts the pool would have none left and every request would wait forever. The
 * holder's own release, later, does nothing; its query in flight, if any, fails with the error.
 */
function survivingConnectionErrors(pool: pg.Pool): void {
  const checkedOut = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      console.error('[db] connection lost:', error.message);
      if (!checkedOut.has(client)) return;
      const release = client.release;
      client.release = () => {};
      release.call(client, error);
    });
  });
  // The pool re-emits an idle client's error, which the client's own listener has already logged.
  pool.on('error', () => {});
}

function openPostgres(databaseUrl: string): Database {
  // Idle connections are kept for minutes, not pg's 10 s: a new backend plans and compiles everything
  // anew (the first record stored on one took 17.8 ms against 0.7-1.6 ms warm, the triggers' plpgsql
  // compiled on first use), and it has none of the named statements (statement-names.ts) yet.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, idleTimeoutMillis: 300_000 });
  survivingConnectionErrors(pool);
  nameRepeatedStatements(pool, { resetOnConnect: false });
  let closing: Promise<void> | undefined;
  return {
    pool,
    db: drizzle({ client: pool, schema }),
    kind: 'postgres',
    close() {
      closing ??= pool.end();
      return closing;
    },
  };
}

/** How openDatabase asks a PGlite worker to write its template (kept off the public type). */
const dumpTemplate = new WeakMap<Database, (target: string) => Promise<void>>();

/**
 * Writes an embedded database's files as one tarball (PGlite's dumpDataDir, which the socket's queries
 * wait for: a crash-consistent copy taken while the server goes on, docs/backups.md). Loading it
 * (pgliteTemplate) recovers to the last commit before the dump.
 */
export function dumpEmbeddedDatabase(database: Database, target: string): Promise<void> {
  const dump = dumpTemplate.get(database);
  if (!dump) throw new Error('only an embedded database opened by openDatabase can be dumped');
  return dump(target);
}

async function openPglite(dataDir: string, template: string | undefined): Promise<Database> {
  const resolved = dataDir.startsWith('memory://') ? dataDir : path.resolve(dataDir);
  const workerData: PgliteWorkerData = { dataDir: resolved, maxConnections: 4 };
  if (template && existsSync(template)) workerData.loadFrom = template;
  const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), { workerData });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      void worker.terminate();
      reject(new Error(`PGlite worker did not start within ${WORKER_START_TIMEOUT_MS} ms`));
    }, WORKER_START_TIMEOUT_MS);
    const onMessage = (message: PgliteWorkerMessage) => {
      if (message.type === 'ready') {
        cleanup();
        resolve(message.port);
      } else if (message.type === 'error') {
        cleanup();
        reject(new Error(`PGlite failed to start at ${resolved}: ${message.message}`));
      }
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`PGlite worker exited with code ${code} before it was ready`));
    };
    function cleanup() {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    }
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
  worker.on('error', (error) => console.error('[db] PGlite worker error:', error));

  // PGlite executes one statement stream at a time: a single pooled connection keeps every
  // transaction on its own connection. Never drop the idle connection (reconnecting is wasted work).
  const pool = new pg.Pool({
    host: '127.0.0.1',
    port,
    user: 'postgres',
    database: 'postgres',
    max: 1,
    idleTimeoutMillis: 0,
  });
  survivingConnectionErrors(pool);
  nameRepeatedStatements(pool, { resetOnConnect: true });

  async function shutdown(): Promise<void> {
    await pool.end().catch(() => {});
    worker.postMessage({ type: 'close' } satisfies PgliteWorkerCommand);
    const timedOut = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => setTimeout(resolve, WORKER_STOP_TIMEOUT_MS, true).unref()),
    ]);
    if (timedOut) {
      console.error('[db] PGlite worker did not stop in time; terminating it');
      await worker.terminate();
    }
  }
  let closing: Promise<void> | undefined;
  const database: Database = {
    pool,
    db: drizzle({ client: pool, schema }),
    kind: 'pglite',
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
  dumpTemplate.set(
    database,
    (target) =>
      new Promise<void>((resolve, reject) => {
        const onMessage = (message: PgliteWorkerMessage) => {
          if (message.type !== 'dumped' && message.type !== 'error') return;
          worker.off('message', onMessage);
          if (message.type === 'dumped') resolve();
          else reject(new Error(`PGlite dump failed: ${message.message}`));
        };
        worker.on('message', onMessage);
        worker.postMessage({ type: 'dump', path: target } satisfies PgliteWorkerCommand);
      }),
  );
  return database;
}
