/**
 * Background work that runs once across all server processes on one database (the anchor worker) runs
 * in the process that leads. On PostgreSQL the leader is the process holding a session-level advisory
 * lock on a connection of its own (outside the pool, so requests never queue behind it and a pool
 * reset never drops it). Every process retries the lock every retryMs: when the leader stops or dies,
 * its connection ends, PostgreSQL frees the lock, and another process takes over within retryMs.
 * A leader whose lock connection breaks stops its work at once, before anyone else can take the lock
 * back from the server, and competes again.
 *
 * The embedded PGlite belongs to one process, so there the lock is a flag on the open database:
 * several apps on one database in one process (tests) still get one leader.
 *
 * Leadership is about not doing the work twice, not about safety: the anchor worker is correct with
 * two running (records are taken FOR UPDATE SKIP LOCKED, every state change is a compare-and-set).
 */
import pg from 'pg';
import type { Database } from '../db/client.ts';
import { describeError } from '../db/error-causes.ts';

/**
 * Arbitrary constant, apart from the other advisory locks: 4_242_017_001 serialises migrations
 * (db/client.ts), 4_242_017_002 audit writers and seeding (modules/audit/record.ts, db/seed.ts). Sharing one
 * would make the leader, which holds its lock for good, block every audited write.
 */
export const BACKGROUND_LOCK_KEY = 4_242_017_010;
const DEFAULT_RETRY_MS = 5000;

type Log = { info(msg: string): void; warn(msg: string): void };

export interface LeadershipOptions {
  database: Database;
  /** Starts the background work (this process now leads). A failure gives the lead back. */
  lead: () => Promise<void>;
  /** Stops the background work and waits for it (the lead is lost or the app closes). */
  stepDown: () => Promise<void>;
  log: Log;
  /** How often a follower tries the lock and a leader checks its connection (default 5 s). */
  retryMs?: number;
  /**
   * The advisory lock that names this work (default BACKGROUND_LOCK_KEY, the anchor worker's): work
   * that may lead in another process than the anchor worker takes a key of its own (the integrity sweep).
   */
  lockKey?: number;
  /** What the log calls the work this process leads (default "background work": the anchor worker's). */
  work?: string;
}

export interface Leadership {
  /** Starts competing; resolves after the first attempt (so a lone process leads once started). */
  start(): Promise<void>;
  /** Stops the work if leading, then gives the lead back; safe to call twice. */
  stop(): Promise<void>;
  leading(): boolean;
}

/** How one process holds the lead: tryTake resolves true when it now holds it. */
interface LeadLock {
  tryTake(): Promise<boolean>;
  /** Whether the lock is still held (a leader's periodic check); false = lost. */
  stillHeld(): Promise<boolean>;
  release(): Promise<void>;
}

export function createLeadership(options: LeadershipOptions): Leadership {
  const { lead, stepDown, log } = options;
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const lockKey = options.lockKey ?? BACKGROUND_LOCK_KEY;
  const work = options.work ?? 'background work';
  const lock =
    options.database.kind === 'postgres'
      ? advisoryLock(options.database, lockKey, () => queue(onLost))
      : processLock(options.database, lockKey);
  let stopped = true;
  let isLeading = false;
  let timer: NodeJS.Timeout | undefined;
  /** Every step runs after the previous one: a loss never interleaves with an attempt or stop(). */
  let steps: Promise<void> = Promise.resolve();
  const queue = (step: () => Promise<void>) => {
    steps = steps.then(step).catch((error: unknown) => {
      log.warn(`background: leadership step failed, will retry: ${describeError(error)}`);
    });
    return steps;
  };

  async function onLost(): Promise<void> {
    if (!isLeading) return;
    isLeading = false;
    log.warn('background: lost the lead (its database connection ended): stopping background work');
    await stepDown();
  }

  async function attempt(): Promise<void> {
    if (stopped) return;
    if (isLeading) {
      if (!(await lock.stillHeld())) await onLost();
      return;
    }
    if (!(await lock.tryTake())) return;
    try {
      await lead();
    } catch (error) {
      await lock.release();
      throw error;
    }
    isLeading = true;
    log.info(`background: this process (pid ${process.pid}) leads: ${work} runs here`);
  }

  function schedule(): void {
    timer = setTimeout(() => {
      void queue(attempt).then(() => {
        if (!stopped) schedule();
      });
    }, retryMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return steps;
      stopped = false;
      return queue(attempt).then(() => {
        if (!stopped) schedule();
      });
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      return queue(async () => {
        if (isLeading) {
          isLeading = false;
          await stepDown();
        }
        await lock.release();
      });
    },
    leading: () => isLeading,
  };
}

/** PostgreSQL: pg_try_advisory_lock on a dedicated connection, opened when first needed. */
function advisoryLock(database: Database, lockKey: number, lost: () => void): LeadLock {
  let client: pg.Client | undefined;
  let held = false;

  async function connected(): Promise<pg.Client> {
    if (client) return client;
    const fresh = new pg.Client(database.pool.options);
    const broken = () => {
      if (client !== fresh) return;
      client = undefined;
      void fresh.end().catch(() => {});
      if (held) {
        held = false;
        lost();
      }
    };
    fresh.on('error', broken);
    fresh.on('end', broken);
    client = fresh;
    try {
      await fresh.connect();
    } catch (error) {
      broken();
      throw error;
    }
    return fresh;
  }

  return {
    async tryTake() {
      const connection = await connected();
      const { rows } = await connection.query<{ taken: boolean }>(
        'select pg_try_advisory_lock($1) as taken',
        [lockKey],
      );
      held = rows[0]?.taken === true;
      return held;
    },
    async stillHeld() {
      if (!client || !held) return false;
      await client.query('select 1');
      return held;
    },
    async release() {
      const connection = client;
      client = undefined;
      held = false;
      // Ending the session frees its advisory locks.
      await connection?.end().catch(() => {});
    },
  };
}

/** The open embedded databases of this process and, for each lock key, which leadership holds it. */
const processLeaders = new WeakMap<Database, Map<number, object>>();

function processLock(database: Database, lockKey: number): LeadLock {
  const me = {};
  const holders = () => {
    const byKey = processLeaders.get(database) ?? new Map<number, object>();
    processLeaders.set(database, byKey);
    return byKey;
  };
  return {
    async tryTake() {
      const holder = holders().get(lockKey);
      if (holder && holder !== me) return false;
      holders().set(lockKey, me);
      return true;
    },
    async stillHeld() {
      return holders().get(lockKey) === me;
    },
    async release() {
      if (holders().get(lockKey) === me) holders().delete(lockKey);
    },
  };
}
