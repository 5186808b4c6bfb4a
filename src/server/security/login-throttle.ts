/**
 * Slows down password guessing without letting a stranger lock anyone out. Failures are counted per
 * account *and client address* (a pair) and per address (any account): past its threshold, each
 * further failure of a key doubles the wait before that key's next attempt (1 s, 2 s, 4 s… up to a
 * cap). A storm of wrong passwords from one address therefore slows that address down, while the
 * account's owner, from their own address, logs in as usual. A success forgets the pair; a key with no
 * failure for a whole window after its wait ended is forgotten too.
 *
 * The counts live in PostgreSQL (login_throttle), one upsert per failure, and every time is the
 * database server's clock, so several server processes share one throttle
 * (docs/adr/0005-sessions-and-login-throttle.md).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { clientAddressKey } from '../http/client-address.ts';

export interface LoginThrottle {
  /** Seconds to wait, or 0 when an attempt is allowed. */
  retryAfter(email: string, address: string): Promise<number>;
  recordFailure(email: string, address: string): Promise<void>;
  recordSuccess(email: string, address: string): Promise<void>;
}

export interface LoginThrottleOptions {
  /** Failures of one account from one address before waits start (LOGIN_MAX_FAILURES). */
  pairMaxFailures: number;
  /** Failures from one address, any account, before waits start (LOGIN_ADDRESS_MAX_FAILURES). */
  addressMaxFailures: number;
  /** Quiet time, after a wait ends, before a key's failures are forgotten (LOGIN_FAILURE_WINDOW_SECONDS). */
  windowSeconds: number;
  /** Longest wait (LOGIN_MAX_DELAY_SECONDS). */
  maxDelaySeconds: number;
  /**
   * What the keys count, when not logins: another act throttled the same way (a password reset request,
   * docs/accounts.md §4) counts apart, so it neither slows logins nor is wiped by one.
   */
  scope?: string;
}

/** Forgotten keys are deleted at most this often per process (a failure triggers the sweep). */
const SWEEP_EVERY_MS = 60_000;

export function createLoginThrottle(db: Db, options: LoginThrottleOptions): LoginThrottle {
  const scope = options.scope ? `${options.scope}:` : '';
  // Addresses are counted as the rate limits count them (one IPv6 /64 is one client): otherwise varying
  // the last groups of an IPv6 address, or its spelling, would give unlimited attempts.
  const pairKey = (email: string, address: string) =>
    `${scope}pair:${JSON.stringify([email, clientAddressKey(address)])}`;
  const addressKey = (address: string) => `${scope}address:${clientAddressKey(address)}`;
  const window = sql`make_interval(secs => ${options.windowSeconds})`;
  let lastSweep = 0;

  /** The wait after `failures` failures of a key whose threshold is `threshold`, as an interval. */
  function delay(failures: SQL, threshold: SQL): SQL {
    // The exponent is bounded before power() so that a long storm cannot overflow it.
    return sql`make_interval(secs => case when ${failures} < ${threshold} then 0
      else least(${options.maxDelaySeconds}, power(2, least(${failures} - ${threshold}, 40))) end)`;
  }

  return {
    async retryAfter(email, address) {
      const result = await db.execute<{ wait: number | null }>(sql`
        select ceil(extract(epoch from max(blocked_until) - now()))::float8 as wait
        from login_throttle where key in (${pairKey(email, address)}, ${addressKey(address)})`);
      return Math.max(0, Number(result.rows[0]?.wait ?? 0));
    },

    async recordFailure(email, address) {
      const pair = pairKey(email, address);
      const threshold = sql`(case when t.key = ${pair} then ${options.pairMaxFailures}::int
        else ${options.addressMaxFailures}::int end)`;
      const failures = sql`(case when t.blocked_until < now() - ${window} then 1 else t.failures + 1 end)`;
      // One statement for both keys: concurrent failures (here or in another process) each count once.
      await db.execute(sql`
        insert into login_throttle as t (key, failures, blocked_until)
        values (${pair}, 1, now() + ${delay(sql`1`, sql`${options.pairMaxFailures}::int`)}),
               (${addressKey(address)}, 1, now() + ${delay(sql`1`, sql`${options.addressMaxFailures}::int`)})
        on conflict (key) do update set
          failures = ${failures},
          blocked_until = now() + ${delay(failures, threshold)}`);
      if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
        lastSweep = Date.now();
        await db.execute(sql`delete from login_throttle where blocked_until < now() - ${window}`);
      }
    },

    async recordSuccess(email, address) {
      // The address keeps its count: one valid account must not wipe the failures of a spray.
      await db.execute(sql`delete from login_throttle where key = ${pairKey(email, address)}`);
    },
  };
}
