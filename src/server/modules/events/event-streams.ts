/**
 * The open Server-Sent Events answers of this process (GET /api/v1/events). Each one is a session's:
 * it receives the bus's events that session's user may see, and ends when the session does.
 *
 * A stream ends as soon as its session does: every change the session store hears (logout, password
 * change, user disabled or edited, customer renamed; in this process or, through the NOTIFY the
 * database sends when it commits, in any other) checks the sessions of the streams it concerns at once.
 * One timer serves every stream besides: each beat checks all their sessions in one query (expired,
 * revoked, user disabled, or role or customer changed → the stream ends; the client's reconnect then
 * meets a 401) and writes a comment line, which keeps proxies and load balancers from closing an idle
 * stream.
 *
 * Streams are bounded, so that no caller holds an unbounded share of the process's sockets and memory:
 * MAX_STREAMS_PER_SESSION per session, MAX_STREAMS_PER_ADDRESS per client address. The bounds are this
 * process's: a stream lives in one process, and counting them in the database would cost a write per
 * stream opened and closed for a bound that N processes only multiply by N.
 */
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { describeError } from '#server/db/error-causes.ts';
import type { EventBus } from '#server/event-bus/event-bus.ts';
import {
  mayReceive,
  type PublishedEvent,
  type Subscriber,
  toLiveEvent,
} from '#server/event-bus/published-event.ts';
import { clientAddressKey } from '#server/http/client-address.ts';
import { ApiError } from '#server/http/envelope.ts';
import type { AuthContext, SessionChange, SessionStore } from '#server/security/session-store.ts';

export interface EventStreams {
  /**
   * Answers the request with a stream for this session from this client address (the reply is sent);
   * throws 429 `too_many_requests` when the address holds MAX_STREAMS_PER_ADDRESS streams already.
   */
  open(reply: FastifyReply, auth: AuthContext, clientAddress: string): FastifyReply;
  /** Ends every stream (shutdown) and resolves when their answers are done, so the server's close does not wait for them. */
  closeAll(): Promise<void>;
  /** How many streams are open (tests, health of the feature). */
  size(): number;
}

interface OpenStream {
  sessionId: number;
  userId: number;
  /** clientAddressKey of the address it was opened from. */
  address: string;
  subscriber: Subscriber;
  body: PassThrough;
  /** Resolves when the HTTP answer is over (ended by us or closed by the client). */
  done: Promise<void>;
}

/** A client that reads nothing while this much is queued is cut off rather than buffered without end. */
const MAX_QUEUED_BYTES = 1024 * 1024;
/** How long a shutdown waits for the ended streams' answers to be done. */
const CLOSE_WAIT_MS = 2_000;
/**
 * The app keeps one stream per browser (one tab leads, src/client/lib/live-updates.ts); a few more
 * cover reloads and a second browser. Past this the session's oldest stream is ended rather than the
 * new one refused: a reload whose old stream has not been closed yet (the browser still holds it) must
 * never lock its user out of live updates.
 */
export const MAX_STREAMS_PER_SESSION = 5;
/**
 * Past this a new stream from the address is refused with 429 (the client retries with backoff)
 * rather than an older one ended: the address's other streams may be other people's behind one NAT,
 * and ending theirs would let one account cut everyone's live updates there.
 */
export const MAX_STREAMS_PER_ADDRESS = 20;

export function sseFrame(event: PublishedEvent): string {
  const live = toLiveEvent(event);
  return `event: ${live.type}\ndata: ${JSON.stringify(live)}\n\n`;
}

/** Whether a change may concern this stream's session. */
function concerns(change: SessionChange, stream: OpenStream): boolean {
  if ('sessionId' in change) return change.sessionId === stream.sessionId;
  if ('userId' in change) return change.userId === stream.userId;
  if ('customerId' in change) return change.customerId === stream.subscriber.customerId;
  return true;
}

export function createEventStreams(deps: {
  bus: EventBus;
  sessions: Pick<SessionStore, 'stillLive' | 'onChange'>;
  heartbeatMs: number;
  log: { warn(msg: string): void };
}): EventStreams {
  // Streams in the order they were opened (a Set keeps it): the first of a session is its oldest.
  const streams = new Set<OpenStream>();
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  // A change made in this process is heard before its transaction commits: the check it starts may
  // still see the session live. On PostgreSQL the NOTIFY sent at commit is heard again afterwards (by
  // every process, this one too) and checks again; on the embedded PGlite the check waits for the one
  // connection, which the changing transaction holds until it has committed.
  const stopFollowing = deps.sessions.onChange((change) => {
    const concerned = [...streams].filter((stream) => concerns(change, stream));
    if (concerned.length > 0) void endStale(concerned);
  });

  function end(stream: OpenStream) {
    if (!streams.delete(stream)) return;
    stream.body.end();
    if (streams.size === 0) {
      clearInterval(timer);
      timer = undefined;
      unsubscribe?.();
      unsubscribe = undefined;
    }
  }

  function write(stream: OpenStream, text: string) {
    if (stream.body.writableLength > MAX_QUEUED_BYTES) end(stream);
    else stream.body.write(text);
  }

  let beating = false;
  async function beat() {
    // A beat slower than the interval (a busy database) is not joined by the next one.
    if (beating) return;
    beating = true;
    try {
      await checkAndBeat();
    } finally {
      beating = false;
    }
  }

  /** Ends those of `candidates` whose session has ended, or whose user's role or customer changed. */
  async function endStale(candidates: OpenStream[]): Promise<void> {
    let live: Awaited<ReturnType<SessionStore['stillLive']>>;
    try {
      live = await deps.sessions.stillLive([...new Set(candidates.map((stream) => stream.sessionId))]);
    } catch (error) {
      // The database is away: no event can be published either; keep the streams and check next beat.
      deps.log.warn(`live events: session check failed: ${describeError(error)}`);
      return;
    }
    for (const stream of candidates) {
      const now = live.get(stream.sessionId);
      if (!now || now.role !== stream.subscriber.role || now.customerId !== stream.subscriber.customerId) {
        end(stream);
      }
    }
  }

  async function checkAndBeat() {
    await endStale([...streams]);
    for (const stream of [...streams]) write(stream, ': heartbeat\n\n');
  }

  function start() {
    unsubscribe = deps.bus.subscribe({
      onEvent(event) {
        for (const stream of [...streams])
          if (mayReceive(stream.subscriber, event)) write(stream, sseFrame(event));
      },
      // Events were lost: ending the streams makes every client reconnect and refresh what it shows.
      onGap() {
        for (const stream of [...streams]) end(stream);
      },
    });
    timer = setInterval(() => void beat(), deps.heartbeatMs);
    timer.unref();
  }

  return {
    open(reply, auth, clientAddress) {
      const address = clientAddressKey(clientAddress);
      const ofSession = [...streams].filter((stream) => stream.sessionId === auth.sessionId);
      const replaced = ofSession.slice(0, Math.max(0, ofSession.length - MAX_STREAMS_PER_SESSION + 1));
      const ofAddress = [...streams].filter(
        (stream) => stream.address === address && !replaced.includes(stream),
      );
      if (ofAddress.length >= MAX_STREAMS_PER_ADDRESS) throw new ApiError(429, 'too_many_requests');
      for (const stream of replaced) end(stream);
      const stream: OpenStream = {
        sessionId: auth.sessionId,
        userId: auth.user.id,
        address,
        subscriber: { role: auth.user.role, customerId: auth.user.customerId },
        body: new PassThrough(),
        // 'finish' too: an answer written to no socket (inject() in tests) may never report 'close'.
        done: new Promise((resolve) => {
          reply.raw.once('close', resolve);
          reply.raw.once('finish', resolve);
        }),
      };
      if (streams.size === 0) start();
      streams.add(stream);
      void stream.done.then(() => end(stream));
      // The first bytes tell the client it is subscribed: every event published from now on reaches it.
      stream.body.write(': connected\n\n');
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store, no-transform')
          // nginx buffers answers by default, which would hold events back.
          .header('x-accel-buffering', 'no')
          // An ended stream's connection is not kept for reuse: a shutdown closes idle connections
          // before the streams have ended, and a kept socket would hold the close until its timeout.
          .header('connection', 'close')
          .send(stream.body)
      );
    },
    async closeAll() {
      stopFollowing();
      const closing = [...streams];
      for (const stream of closing) end(stream);
      // Bounded: an answer whose client stopped reading may never finish, and must not hold the shutdown.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(closing.map((stream) => stream.done)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
    size: () => streams.size,
  };
}
