import { describe, expect, it } from 'vitest';
import {
  dayFromIso,
  formatDateTime,
  formatDateTimeUtc,
  formatDateTimeWithUtc,
  formatDay,
  isoFromDay,
} from './dates';

describe('the date policy', () => {
  it('shows an instant in local time as yyyy-MM-dd HH:mm:ss, with single colons', () => {
    const local = new Date(2025, 2, 14, 9, 5, 7);
    expect(formatDateTime(local.toISOString())).toBe('2025-03-14 09:05:07');
    expect(formatDateTime(local)).toBe('2025-03-14 09:05:07');
  });

  it('shows a day as yyyy-MM-dd, a bare day as that same day whatever the time zone', () => {
    expect(formatDay('2026-11-01')).toBe('2026-11-01');
    expect(formatDay(new Date(2026, 10, 1, 23, 59))).toBe('2026-11-01');
  });

  it('leaves an unreadable value as it came and shows nothing for no value', () => {
    expect(formatDateTime('garbage')).toBe('garbage');
    expect(formatDay('garbage')).toBe('garbage');
    expect(formatDateTime(null)).toBe('');
    expect(formatDay(undefined)).toBe('');
    expect(formatDateTimeUtc('')).toBe('');
  });

  it('offers UTC to the millisecond, alone or after local time', () => {
    const value = '2026-11-23T17:48:38.605Z';
    expect(formatDateTimeUtc(value)).toBe('2026-11-23 17:48:38.605 UTC');
    const local = formatDateTime(value);
    expect(formatDateTimeWithUtc(value)).toMatch(
      new RegExp(`^${local} UTC[+-]\\d{2}:\\d{2} \\(2026-11-23 17:48:38\\.605 UTC\\)$`),
    );
  });

  it('converts picker days to and from YYYY-MM-DD', () => {
    expect(isoFromDay(dayFromIso('2026-02-28'))).toBe('2026-02-28');
    expect(dayFromIso('2026-02-30')).toBeNull();
    expect(dayFromIso(undefined)).toBeNull();
    expect(isoFromDay(null)).toBeUndefined();
  });
});
