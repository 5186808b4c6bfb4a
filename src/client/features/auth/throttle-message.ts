/**
 * What a throttled login (429 too_many_login_attempts) tells the user: the wait the server gave in
 * `data.retry_after_seconds`, in seconds up to two minutes and in whole minutes (rounded up) above, so
 * the number shown is never shorter than the real wait.
 */
import type { MessageRef } from '#client/lib/toasts.tsx';

const SECONDS_SHOWN_UP_TO = 120;

export function loginThrottledMessage(data: unknown): MessageRef | null {
  const seconds =
    typeof data === 'object' && data !== null && 'retry_after_seconds' in data
      ? (data as { retry_after_seconds: unknown }).retry_after_seconds
      : undefined;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return null;
  const whole = Math.max(1, Math.ceil(seconds));
  return whole <= SECONDS_SHOWN_UP_TO
    ? { id: 'login.throttled_seconds', values: { seconds: whole } }
    : { id: 'login.throttled_minutes', values: { minutes: Math.ceil(whole / 60) } };
}
