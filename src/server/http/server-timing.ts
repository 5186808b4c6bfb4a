/**
 * Where a request's time goes (docs/adr/0028-fewer-round-trips-per-request.md), as a standard `Server-Timing`
 * answer header, on when SERVER_TIMING=true (off by default: it tells a client how long our database took):
 *
 *   Server-Timing: total;dur=12.4, db;dur=7.9, pool;dur=1.2, queries;desc="3"
 *
 * - total: from the request's routing (onRequest) to its answer's headers (onSend).
 * - db: the request's database round trips, summed (statement sent → result back).
 * - pool: waiting for a free connection of the pool (on PGlite: for the single connection).
 * - queries: how many round trips the request made.
 * What is left of total (total - db - pool) is the server's own work and its event-loop queueing; what a
 * client measures beyond total is the network and the time before routing (bench:load reports both).
 *
 * Each round trip is charged to the request whose async context started it (AsyncLocalStorage), so
 * background work (the anchor worker, alert evaluation) is never charged to a request.
 */
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

interface RequestTimes {
  started: number;
  dbMs: number;
  poolMs: number;
  queries: number;
}

const current = new AsyncLocalStorage<RequestTimes>();

type Callback = (...args: unknown[]) => void;

/** Calls `done(ms)` when a query or connect call finishes, whichever form (callback or promise) it took. */
function timed<T>(call: (args: unknown[]) => T, args: unknown[], done: (ms: number) => void): T {
  const started = performance.now();
  const last = args.length - 1;
  const callback = args[last];
  if (typeof callback === 'function') {
    args[last] = (...results: unknown[]) => {
      done(performance.now() - started);
      (callback as Callback)(...results);
    };
    return call(args);
  }
  const result = call(args);
  if (result && typeof (result as { then?: unknown }).then === 'function')
    (result as unknown as Promise<unknown>).then(
      () => done(performance.now() - started),
      () => done(performance.now() - started),
    );
  return result;
}

/** Charges the pool's waits and every client's round trips to the request running them. */
function timePool(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    const times = current.getStore();
    if (!times) return connect(...args);
    // A waiting caller's callback is run by whoever releases a connection: bind it to the caller's
    // context, or the round trips it makes next would be charged to the releasing request.
    const last = args.length - 1;
    if (typeof args[last] === 'function') args[last] = AsyncResource.bind(args[last] as Callback);
    return timed(
      (a) => connect(...a),
      args,
      (ms) => {
        times.poolMs += ms;
      },
    );
  };
  // On checkout, not on connect: clients opened before the app (migrations, the seed) are timed too.
  const wrapped = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const times = current.getStore();
      if (!times) return query(...args);
      times.queries++;
      return timed(
        (a) => query(...a),
        args,
        (ms) => {
          times.dbMs += ms;
        },
      );
    };
  });
}

const ms = (value: number) => value.toFixed(1);

export function registerServerTiming(app: FastifyInstance, pool: pg.Pool): void {
  timePool(pool);
  app.addHook('onRequest', (_request, _reply, done) => {
    current.run({ started: performance.now(), dbMs: 0, poolMs: 0, queries: 0 }, done);
  });
  app.addHook('onSend', async (_request, reply) => {
    const times = current.getStore();
    if (!times) return;
    reply.header(
      'server-timing',
      `total;dur=${ms(performance.now() - times.started)}, db;dur=${ms(times.dbMs)}, pool;dur=${ms(times.poolMs)}, queries;desc="${times.queries}"`,
    );
  });
}
