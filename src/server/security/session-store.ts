/**
 * Sessions: created at login, looked up on every authenticated request, ended by logout, by idle or
 * absolute expiry, and for every session of a user who is disabled or changes password.
 */
import { and, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { isRole, type Role } from '#shared/access/index.ts';
import type { Db, Tx } from '../db/client.ts';
import { customers, sessions, users } from '../db/schema.ts';
import { sessionExpired } from '../http/envelope.ts';
import { createSessionCache } from './session-cache.ts';
import { hashToken, newToken } from './tokens.ts';

export interface AuthUser {
  id: number;
  name: string;
  email: string;
  role: Role;
  customerId: number;
  customerName: string;
}

export interface AuthContext {
  sessionId: number;
  user: AuthUser;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** A live session as its user sees it in the profile. */
export interface LiveSession {
  id: number;
  createdAt: Date;
  lastSeenAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/** Avoids a write per request: last_seen_at moves at most once a minute. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

/** Whose sessions a change may have altered: a user's, a customer's users', or (subject unknown) everyone's. */
export type AuthChange = { userId: number } | { customerId: number } | { everyone: true };
/** A change as the session store's listeners hear it: an AuthChange, or one session ended here. */
export type SessionChange = AuthChange | { sessionId: number };

/** Writes take the transaction they belong to (login and logout commit with their audit entry). */
export interface SessionStore {
  create(tx: Tx | Db, userId: number, request: FastifyRequest): Promise<string>;
  authenticate(request: FastifyRequest): Promise<void>;
  revoke(tx: Tx | Db, sessionId: number): Promise<void>;
  /** Ends the user's sessions not yet revoked (but the one excepted); answers how many. */
  revokeAllForUser(tx: Tx | Db, userId: number, exceptSessionId?: number): Promise<number>;
  /** Ends one live session of this user; answers whether there was one (another user's is not touched). */
  revokeOfUser(tx: Tx | Db, userId: number, sessionId: number): Promise<boolean>;
  /** The user's live sessions, newest first (docs/accounts.md §3). */
  liveOfUser(userId: number): Promise<LiveSession[]>;
  /**
   * A user's or a customer's row changed (name, email, role, disabled...): the sessions checked
   * recently are checked again. Called by the code that changes them, and for changes made by other
   * processes (event-bus.ts).
   */
  changed(change: AuthChange): void;
  /**
   * Whether changes made by other processes reach this one (the notification channel is listening):
   * without it no session check is skipped.
   */
  hearsOtherProcesses(hears: boolean): void;
  /**
   * Which of these sessions are still live, each with its user's role and customer now (for long-lived
   * answers, the event stream, that outlast the request that authenticated them). Does not count as use.
   */
  stillLive(sessionIds: number[]): Promise<Map<number, Pick<AuthUser, 'role' | 'customerId'>>>;
  /**
   * Calls `listener` with every change this store hears: made in this process (heard when it is made,
   * possibly before its transaction commits) or announced by another (heard after it committed).
   * Answers the function that stops it.
   */
  onChange(listener: (change: SessionChange) => void): () => void;
}

/**
 * A session that has not ended: not revoked, before its absolute expiry, used within the idle limit.
 * Written against the `sessions` table by name, so a query that joins it unaliased can use it too
 * (export tickets die with their session).
 */
export function liveSession(idleMinutes: number): SQL | undefined {
  return and(
    isNull(sessions.revokedAt),
    sql`${sessions.expiresAt} > now()`,
    sql`${sessions.lastSeenAt} > now() - make_interval(mins => ${idleMinutes})`,
  );
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export function createSessionStore(
  db: Db,
  options: { idleMinutes: number; maxHours: number; cacheSeconds: number },
): SessionStore {
  const cache = createSessionCache({ ttlMs: options.cacheSeconds * 1000, maxEntries: 10_000 });
  cache.setUsable(false);
  const listeners = new Set<(change: SessionChange) => void>();
  const announce = (change: SessionChange) => {
    for (const listener of listeners) listener(change);
  };
  return {
    async create(tx, userId, request) {
      const token = newToken();
      await tx.insert(sessions).values({
        userId,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + options.maxHours * 3_600_000),
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
      });
      return token;
    },

    async authenticate(request) {
      const token = bearerToken(request);
      if (!token) throw sessionExpired();
      const tokenHash = hashToken(token);
      const now = Date.now();
      const cached = cache.get(tokenHash, now);
      if (cached && now - cached.lastSeenAt <= LAST_SEEN_RESOLUTION_MS) {
        request.auth = cached.auth;
        return;
      }
      const readEpoch = cache.epoch();
      const [row] = await db
        .select({
          sessionId: sessions.id,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
          id: users.id,
          name: users.name,
          email: users.email,
          role: users.role,
          customerId: users.customerId,
          customerName: customers.name,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .innerJoin(customers, eq(customers.id, users.customerId))
        .where(
          and(eq(sessions.tokenHash, tokenHash), liveSession(options.idleMinutes), isNull(users.deletedAt)),
        )
        .limit(1);
      if (!row || !isRole(row.role)) throw sessionExpired();
      let lastSeenAt = row.lastSeenAt.getTime();
      if (Date.now() - lastSeenAt > LAST_SEEN_RESOLUTION_MS) {
        lastSeenAt = Date.now();
        await db
          .update(sessions)
          .set({ lastSeenAt: new Date(lastSeenAt) })
          .where(eq(sessions.id, row.sessionId));
      }
      const { sessionId, lastSeenAt: _lastSeen, expiresAt, role, ...user } = row;
      request.auth = { sessionId, user: { ...user, role } };
      cache.put(
        tokenHash,
        { auth: request.auth, lastSeenAt, expiresAt: expiresAt.getTime() },
        readEpoch,
        now,
      );
    },

    async revoke(tx, sessionId) {
      cache.forgetSession(sessionId);
      announce({ sessionId });
      await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, sessionId));
    },

    async revokeAllForUser(tx, userId, exceptSessionId) {
      cache.forgetUser(userId);
      announce({ userId });
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(sessions.userId, userId),
            isNull(sessions.revokedAt),
            exceptSessionId === undefined ? undefined : ne(sessions.id, exceptSessionId),
          ),
        )
        // The returned row is the revoked one: whether it was live is its expiry and idle time.
        .returning({
          live: sql<boolean>`${sessions.expiresAt} > now()
            and ${sessions.lastSeenAt} > now() - make_interval(mins => ${options.idleMinutes})`,
        });
      // Sessions already past their expiry are marked too, but only the live ones were ended now.
      return ended.filter((row) => row.live).length;
    },
    async revokeOfUser(tx, userId, sessionId) {
      const ended = await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), liveSession(options.idleMinutes)))
        .returning({ id: sessions.id });
      if (ended.length === 0) return false;
      cache.forgetSession(sessionId);
      announce({ sessionId });
      return true;
    },
    async liveOfUser(userId) {
      return db
        .select({
          id: sessions.id,
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
        })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), liveSession(options.idleMinutes)))
        .orderBy(desc(sessions.createdAt), desc(sessions.id));
    },

    changed(change) {
      if ('userId' in change) cache.forgetUser(change.userId);
      else if ('customerId' in change) cache.forgetCustomer(change.customerId);
      else cache.forgetAll();
      announce(change);
    },

    hearsOtherProcesses(hears) {
      cache.setUsable(hears);
    },

    async stillLive(sessionIds) {
      const live = new Map<number, Pick<AuthUser, 'role' | 'customerId'>>();
      if (sessionIds.length === 0) return live;
      const rows = await db
        .select({ sessionId: sessions.id, role: users.role, customerId: users.customerId })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(inArray(sessions.id, sessionIds), liveSession(options.idleMinutes), isNull(users.deletedAt)),
        );
      for (const row of rows)
        if (isRole(row.role)) live.set(row.sessionId, { role: row.role, customerId: row.customerId });
      return live;
    },

    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
