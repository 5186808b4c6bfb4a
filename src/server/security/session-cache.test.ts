import { describe, expect, it } from 'vitest';
import { type CachedSession, createSessionCache } from './session-cache.ts';
import type { AuthContext } from './session-store.ts';

const auth = (sessionId: number, userId: number, customerId: number): AuthContext => ({
  sessionId,
  user: { id: userId, name: 'n', email: 'e@example.com', role: 'CUSTOMER', customerId, customerName: 'c' },
});
const session = (sessionId: number, userId: number, customerId: number): CachedSession => ({
  auth: auth(sessionId, userId, customerId),
  lastSeenAt: 0,
  expiresAt: 1_000_000,
});

function usableCache(ttlMs = 10_000, maxEntries = 100) {
  const cache = createSessionCache({ ttlMs, maxEntries });
  cache.setUsable(true);
  return cache;
}

describe('session cache', () => {
  it('answers what was put, until its time to live or the session expiry has passed', () => {
    const cache = usableCache(10_000);
    cache.put('a', { ...session(1, 10, 100), expiresAt: 50_000 }, cache.epoch(), 1_000);
    expect(cache.get('a', 10_999)?.auth.sessionId).toBe(1);
    expect(cache.get('a', 11_000)).toBeUndefined();
    cache.put('b', { ...session(2, 10, 100), expiresAt: 5_000 }, cache.epoch(), 1_000);
    expect(cache.get('b', 4_999)?.auth.sessionId).toBe(2);
    expect(cache.get('b', 5_000)).toBeUndefined();
  });

  it('forgets by session, by user and by customer, leaving the others', () => {
    const cache = usableCache();
    const put = (key: string, value: CachedSession) => cache.put(key, value, cache.epoch(), 0);
    put('s1', session(1, 10, 100));
    put('s2', session(2, 10, 100));
    put('s3', session(3, 11, 100));
    put('s4', session(4, 12, 200));
    cache.forgetSession(1);
    expect(cache.get('s1', 1)).toBeUndefined();
    expect(cache.get('s2', 1)).toBeDefined();
    cache.forgetUser(10);
    expect(cache.get('s2', 1)).toBeUndefined();
    expect(cache.get('s3', 1)).toBeDefined();
    cache.forgetCustomer(100);
    expect(cache.get('s3', 1)).toBeUndefined();
    expect(cache.get('s4', 1)).toBeDefined();
    cache.forgetAll();
    expect(cache.get('s4', 1)).toBeUndefined();
  });

  it('does not keep a read that was under way when something was forgotten', () => {
    const cache = usableCache();
    const readEpoch = cache.epoch();
    cache.forgetUser(99);
    cache.put('a', session(1, 10, 100), readEpoch, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.put('a', session(1, 10, 100), cache.epoch(), 0);
    expect(cache.get('a', 1)).toBeDefined();
  });

  it('keeps and answers nothing while unusable, starts empty when usable again, and is off at 0 s', () => {
    const cache = usableCache();
    cache.put('a', session(1, 10, 100), cache.epoch(), 0);
    cache.setUsable(false);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.put('b', session(2, 10, 100), cache.epoch(), 0);
    cache.setUsable(true);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBeUndefined();

    const off = createSessionCache({ ttlMs: 0, maxEntries: 100 });
    off.setUsable(true);
    off.put('a', session(1, 10, 100), off.epoch(), 0);
    expect(off.get('a', 0)).toBeUndefined();
  });

  it('stays within its size by starting over when full', () => {
    const cache = usableCache(10_000, 2);
    cache.put('a', session(1, 10, 100), cache.epoch(), 0);
    cache.put('b', session(2, 10, 100), cache.epoch(), 0);
    cache.put('c', session(3, 10, 100), cache.epoch(), 0);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });
});
