/**
 * Recently checked sessions, kept in the process so that a user's next requests skip the session's
 * database round trip (docs/adr/0005-sessions-and-login-throttle.md). What a cached
 * session answers is exactly what the database answered, and it is forgotten:
 *
 * - at once, in this process, by every change that ends or alters a session here (logout, password,
 *   disable, a user's or a customer's edit: session-store.ts and the routes that call it);
 * - within milliseconds in every other process on the same PostgreSQL, through the NOTIFY that a trigger
 *   sends when sessions, users or customers change (migration 0014, event-bus.ts), whatever code changed
 *   them; while that notification channel is down the cache is not used at all;
 * - after `ttlMs` in any case, and when its session's idle or absolute expiry comes, or its last-seen
 *   time is due a write (so idle expiry works as before).
 *
 * A read that was under way while something was forgotten is not cached (`epoch`): it may have seen the
 * state from before the change.
 */
import type { AuthContext } from './session-store.ts';

export interface CachedSession {
  auth: AuthContext;
  /** When the database last recorded the session's use (ms). */
  lastSeenAt: number;
  /** The session's absolute expiry (ms). */
  expiresAt: number;
}

export interface SessionCache {
  /** The epoch a database read starts in; hand it to put(). */
  epoch(): number;
  get(tokenHash: string, now: number): CachedSession | undefined;
  put(tokenHash: string, session: CachedSession, readEpoch: number, now: number): void;
  forgetSession(sessionId: number): void;
  forgetUser(userId: number): void;
  forgetCustomer(customerId: number): void;
  forgetAll(): void;
  /** Off: nothing is kept or answered (the cross-process channel is down); on again: starts empty. */
  setUsable(usable: boolean): void;
}

export function createSessionCache(options: { ttlMs: number; maxEntries: number }): SessionCache {
  const entries = new Map<string, CachedSession & { cachedAt: number }>();
  let epoch = 0;
  let usable = options.ttlMs > 0;
  const forgetWhere = (matches: (session: CachedSession) => boolean) => {
    epoch += 1;
    for (const [key, session] of entries) if (matches(session)) entries.delete(key);
  };
  return {
    epoch: () => epoch,
    get(tokenHash, now) {
      if (!usable) return undefined;
      const session = entries.get(tokenHash);
      if (!session) return undefined;
      if (now - session.cachedAt >= options.ttlMs || now >= session.expiresAt) {
        entries.delete(tokenHash);
        return undefined;
      }
      return session;
    },
    put(tokenHash, session, readEpoch, now) {
      if (!usable || readEpoch !== epoch) return;
      // Forgotten in bulk when full: refilling costs one read per active session.
      if (entries.size >= options.maxEntries) entries.clear();
      entries.set(tokenHash, { ...session, cachedAt: now });
    },
    forgetSession: (sessionId) => forgetWhere((session) => session.auth.sessionId === sessionId),
    forgetUser: (userId) => forgetWhere((session) => session.auth.user.id === userId),
    forgetCustomer: (customerId) => forgetWhere((session) => session.auth.user.customerId === customerId),
    forgetAll: () => forgetWhere(() => true),
    setUsable(value) {
      epoch += 1;
      entries.clear();
      usable = value && options.ttlMs > 0;
    },
  };
}
