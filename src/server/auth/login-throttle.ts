/**
 * Slows down password guessing: after too many failures for one email or one client address within
 * the window, further attempts get 429 until the window passes. Kept in memory per process
 * (documented in docs/decisions.md): several processes each apply the limit on their own.
 */
export interface LoginThrottle {
  /** Seconds to wait, or 0 when an attempt is allowed. */
  retryAfter(email: string, address: string): number;
  recordFailure(email: string, address: string): void;
  recordSuccess(email: string): void;
}

export function createLoginThrottle(
  maxFailures: number,
  windowSeconds: number,
  now = () => Date.now(),
): LoginThrottle {
  const failures = new Map<string, number[]>();
  const windowMs = windowSeconds * 1000;

  function recent(key: string): number[] {
    const cutoff = now() - windowMs;
    const kept = (failures.get(key) ?? []).filter((time) => time > cutoff);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  }

  function wait(key: string): number {
    const times = recent(key);
    if (times.length < maxFailures) return 0;
    const oldest = times[times.length - maxFailures] ?? now();
    return Math.max(1, Math.ceil((oldest + windowMs - now()) / 1000));
  }

  return {
    retryAfter(email, address) {
      return Math.max(wait(`email:${email}`), wait(`address:${address}`));
    },
    recordFailure(email, address) {
      for (const key of [`email:${email}`, `address:${address}`]) failures.set(key, [...recent(key), now()]);
      if (failures.size > 100_000) failures.clear();
    },
    recordSuccess(email) {
      failures.delete(`email:${email}`);
    },
  };
}
