import { describe, expect, it } from 'vitest';
import { isoTimestamp, isoTimestampOrNull } from './timestamps.ts';

describe('timestamps as ISO text', () => {
  it("rewrites PostgreSQL's UTC text exactly as Date would, for every fraction length", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 2000; i += 1) {
      const at = new Date(Date.UTC(1990, 0, 1) + Math.floor(next() * 60 * 365 * 86_400_000));
      const digits = i % 7;
      const fraction =
        digits === 0 ? '' : `.${String(Math.floor(next() * 10 ** digits)).padStart(digits, '0')}`;
      const text = `${at.toISOString().slice(0, 19).replace('T', ' ')}${fraction}+00`;
      expect(isoTimestamp(text), text).toBe(new Date(text).toISOString());
    }
  });

  it('takes a Date, another offset or the ISO form through Date', () => {
    const at = new Date('2026-03-14T09:26:53.589Z');
    expect(isoTimestamp(at)).toBe('2026-03-14T09:26:53.589Z');
    expect(isoTimestamp('2026-03-14 10:26:53.589+01')).toBe('2026-03-14T09:26:53.589Z');
    expect(isoTimestamp('2026-03-14T09:26:53.589Z')).toBe('2026-03-14T09:26:53.589Z');
    expect(isoTimestampOrNull(null)).toBeNull();
  });
});
