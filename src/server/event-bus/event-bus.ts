/**
 * The receiving end of live events in one server process: every event published by any process on
 * the same database reaches this process's subscribers once.
 *
 * On PostgreSQL a dedicated connection (outside the pool, which would hand it to queries) LISTENs to
 * the channel and reconnects with backoff when it is cut. Notifications sent while it was away are
 * lost, so subscribers are told (`onGap`) and can make their clients refresh. On the embedded PGlite
 * events are delivered in-process (publish.ts says why).
 */
import pg from 'pg';
import type { Database } from '../db/client.ts';
import { describeError } from '../db/error-causes.ts';
import type { AuthChange } from '../security/session-store.ts';
import { deliverInProcess, EVENTS_CHANNEL } from './publish.ts';
import { type PublishedEvent, parsePublishedEvent } from './published-event.ts';

export interface EventSubscription {
  onEvent(event: PublishedEvent): void;
  /** Events may have been missed (the listening connection was lost and is back). */
  onGap(): void;
}

/** Hears the changes that end or alter sessions (security/session-cache.ts). */
export interface AuthChangeFollower {
  changed(change: AuthChange): void;
  /** Whether changes made by other processes are heard now; false while the channel is down. */
  hearsOtherProcesses(hears: boolean): void;
}

/**
 * The channel a trigger on sessions, users and customers notifies (migration 0014), with
 * `{"userId": n}` or `{"customerId": n}`: whatever code, in whichever process, made the change.
 */
export const AUTH_CHANNEL = 'uvtrace_auth';

export function parseAuthChange(payload: string): AuthChange | null {
  try {
    const value = JSON.parse(payload) as { userId?: unknown; customerId?: unknown };
    if (Number.isSafeInteger(value.userId)) return { userId: value.userId as number };
    if (Number.isSafeInteger(value.customerId)) return { customerId: value.customerId as number };
  } catch {}
  return null;
}

export interface EventBus {
  subscribe(subscription: EventSubscription): () => void;
  /** One follower per process: the session store. */
  followAuthChanges(follower: AuthChangeFollower): void;
  /** Resolves once events published from now on will be received (the LISTEN is in place). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

type Log = { info(msg: string): void; warn(msg: string): void };

const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;

export function startEventBus(database: Database, log: Log): EventBus {
  const subscriptions = new Set<EventSubscription>();
  const dispatch = (event: PublishedEvent) => {
    for (const subscription of subscriptions) subscription.onEvent(event);
  };
  const subscribe = (subscription: EventSubscription) => {
    subscriptions.add(subscription);
    return () => subscriptions.delete(subscription);
  };

  if (database.kind === 'pglite') {
    const stop = deliverInProcess(database.db, dispatch);
    return {
      subscribe,
      // The embedded database belongs to this one process: every change is made here, and heard here.
      followAuthChanges: (follower) => follower.hearsOtherProcesses(true),
      ready: async () => {},
      close: async () => void stop(),
    };
  }

  let follower: AuthChangeFollower | undefined;
  let hearing = false;
  const hear = (value: boolean) => {
    hearing = value;
    follower?.hearsOtherProcesses(value);
  };

  let client: pg.Client | undefined;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let everListened = false;
  let markReady: () => void = () => {};
  let listening = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  function reconnectLater(reason: string) {
    hear(false);
    if (closed || retryTimer) return;
    log.warn(`live events: listening connection lost (${reason}); retrying in ${retryMs} ms`);
    listening = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  }

  async function connect(): Promise<void> {
    const candidate = new pg.Client(database.pool.options);
    client = candidate;
    // An 'error' without a listener would end the process (db/client.ts says the same of the pool).
    candidate.on('error', (error) => {
      void candidate.end().catch(() => {});
      if (client === candidate) reconnectLater(describeError(error));
    });
    candidate.on('end', () => {
      if (client === candidate) reconnectLater('connection ended');
    });
    candidate.on('notification', (message) => {
      if (message.channel === AUTH_CHANNEL && message.payload) {
        // A payload not understood may still be a change: forget every session rather than guess.
        follower?.changed(parseAuthChange(message.payload) ?? { everyone: true });
        return;
      }
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
      const event = parsePublishedEvent(message.payload);
      if (event) dispatch(event);
    });
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${AUTH_CHANNEL}`);
    } catch (error) {
      void candidate.end().catch(() => {});
      if (client === candidate) reconnectLater(describeError(error));
      return;
    }
    if (closed) {
      await candidate.end().catch(() => {});
      return;
    }
    retryMs = FIRST_RETRY_MS;
    if (everListened) {
      log.info('live events: listening again');
      for (const subscription of subscriptions) subscription.onGap();
    }
    everListened = true;
    hear(true);
    markReady();
  }

  void connect();
  return {
    subscribe,
    followAuthChanges(next) {
      follower = next;
      next.hearsOtherProcesses(hearing);
    },
    ready: () => listening,
    async close() {
      closed = true;
      hear(false);
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      markReady();
      await current?.end().catch(() => {});
    },
  };
}
