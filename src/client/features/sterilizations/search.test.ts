import { describe, expect, it } from 'vitest';
import { isOpeningView, mayListNewRecords, type SterilizationListSearch } from './search';

const opening: SterilizationListSearch = { page: 1, sortBy: 'received_ts', sortDir: 'desc' };
const now = new Date('2026-11-24T23:30:00Z');
const records = { customerId: 4, deviceId: 9 };

describe('isOpeningView', () => {
  it('is page 1, newest first, without filters only', () => {
    expect(isOpeningView(opening)).toBe(true);
    expect(isOpeningView({ ...opening, page: 2 })).toBe(false);
    expect(isOpeningView({ ...opening, sortDir: 'asc' })).toBe(false);
    expect(isOpeningView({ ...opening, sortBy: 'device_serial' })).toBe(false);
    expect(isOpeningView({ ...opening, customerId: 4 })).toBe(false);
    expect(isOpeningView({ ...opening, to: '2026-11-24' })).toBe(false);
  });
});

describe('mayListNewRecords', () => {
  it('follows the customer and device filters', () => {
    expect(mayListNewRecords(opening, records, now)).toBe(true);
    expect(mayListNewRecords({ ...opening, customerId: 4 }, records, now)).toBe(true);
    expect(mayListNewRecords({ ...opening, customerId: 5 }, records, now)).toBe(false);
    expect(mayListNewRecords({ ...opening, customerId: 4, deviceId: 9 }, records, now)).toBe(true);
    expect(mayListNewRecords({ ...opening, customerId: 4, deviceId: 8 }, records, now)).toBe(false);
  });

  it('counts today as a UTC day, as the server filters', () => {
    expect(mayListNewRecords({ ...opening, to: '2026-11-24' }, records, now)).toBe(true);
    expect(mayListNewRecords({ ...opening, to: '2026-11-23' }, records, now)).toBe(false);
    expect(mayListNewRecords({ ...opening, from: '2026-11-25' }, records, now)).toBe(false);
    expect(mayListNewRecords({ ...opening, from: '2026-11-01' }, records, now)).toBe(true);
  });
});
