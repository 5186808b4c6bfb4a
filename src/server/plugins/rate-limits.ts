/**
 * Request rate limits per client address (as TRUST_PROXY resolves it) on the public calls that cost
 * the most: login (each attempt is an argon2 verify), device ingestion (a signature check and a write)
 * and the chain endpoint /chain-rpc (each call spends the node's quota). A limited request gets 429
 * `too_many_requests` in the envelope, with Retry-After. The limits come from the configuration.
 *
 * On a PostgreSQL server the counters live in the database (rate_limit_hits, unlogged), one upsert per
 * counted request, so several server processes enforce one limit between them
 * (docs/adr/0018-postgresql-is-the-only-shared-engine.md) instead of one limit each. The embedded PGlite can
 * only ever be opened by one process, so there the plugin's memory store gives the same limits without
 * spending the single connection on a write per request
 * (docs/adr/0018-postgresql-is-the-only-shared-engine.md).
 */
import rateLimit from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from '../db/client.ts';
import { clientAddressKey } from '../http/client-address.ts';
import { ApiError } from '../http/envelope.ts';

export async function registerRateLimits(app: FastifyInstance, database: Database): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    // The same buckets as the login throttle and the event streams (http/client-address.ts).
    keyGenerator: (request) => clientAddressKey(request.ip),
    ...(database.kind === 'postgres' ? { store: postgresRateLimitStore(database.db) } : {}),
    errorResponseBuilder: () => new ApiError(429, 'too_many_requests'),
  });
}

/** Route config for at most `perMinute` requests per client address and minute; none when 0. */
export function rateLimitPerMinute(perMinute: number): Record<string, unknown> {
  return perMinute > 0 ? { rateLimit: { max: perMinute, timeWindow: 60_000 } } : {};
}

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;
interface RouteInfo {
  routeInfo?: { method?: string | string[]; url?: string };
}

/** Ended windows are deleted at most this often per process. */
const SWEEP_EVERY_MS = 60_000;

/**
 * A store for @fastify/rate-limit (which instantiates it itself, hence a class made per database):
 * fixed windows like the plugin's memory store, counted by the database with its own clock. Each
 * limited route gets its own counters through child().
 */
export function postgresRateLimitStore(db: Db) {
  let lastSweep = 0;

  return class PostgresRateLimitStore {
    readonly prefix: string;

    constructor(_options: unknown, prefix = '') {
      this.prefix = prefix;
    }

    incr(key: string, callback: IncrCallback, timeWindowMs: number): void {
      this.count(`${this.prefix}${key}`, timeWindowMs).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    async count(key: string, timeWindowMs: number): Promise<{ current: number; ttl: number }> {
      // One statement: concurrent requests of several processes each count exactly once.
      const result = await db.execute<{ hits: number; ttl: number }>(sql`
        insert into rate_limit_hits as r (key, hits, window_ends_at)
        values (${key}, 1, now() + make_interval(secs => ${timeWindowMs / 1000}))
        on conflict (key) do update set
          hits = case when r.window_ends_at <= now() then 1 else r.hits + 1 end,
          window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at
                           else r.window_ends_at end
        returning hits, greatest(0, extract(epoch from window_ends_at - now()) * 1000)::float8 as ttl`);
      if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        await db.execute(sql`delete from rate_limit_hits where window_ends_at < now()`);
      }
      const row = result.rows[0];
      return { current: Number(row?.hits ?? 1), ttl: Math.ceil(Number(row?.ttl ?? timeWindowMs)) };
    }

    /** The plugin passes the route's merged limit options (typed as route options), routeInfo among them. */
    child(routeOptions: object): PostgresRateLimitStore {
      const { method, url } = (routeOptions as RouteInfo).routeInfo ?? {};
      return new PostgresRateLimitStore(routeOptions, `${[method ?? ''].flat().join(',')} ${url ?? ''} `);
    }
  };
}
