import { describe, expect, it } from 'vitest';
import { parseAuditSearch } from './search';

describe('parseAuditSearch', () => {
  it('keeps every valid filter of the URL', () => {
    expect(
      parseAuditSearch({
        page: '3',
        entityType: 'device',
        entityId: '42',
        actor: ' admin@example ',
        from: '2026-01-01',
        to: '2026-01-31',
      }),
    ).toEqual({
      page: 3,
      entityType: 'device',
      entityId: 42,
      actor: 'admin@example',
      from: '2026-01-01',
      to: '2026-01-31',
    });
  });

  it('drops malformed values instead of failing, and an id without its entity type', () => {
    expect(
      parseAuditSearch({
        page: '-1',
        entityType: 'sterilization',
        entityId: '7',
        actor: '  ',
        from: '2026-02-31',
      }),
    ).toEqual({
      page: 1,
      entityType: undefined,
      entityId: undefined,
      actor: undefined,
      from: undefined,
      to: undefined,
    });
    expect(parseAuditSearch({ entityType: 'user', entityId: '99999999999' }).entityId).toBeUndefined();
    expect(parseAuditSearch({ actor: 'x'.repeat(300) }).actor).toHaveLength(255);
  });
});
