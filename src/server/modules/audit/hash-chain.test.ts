/** The worked example of docs/audit.md, byte for byte: the document and the code cannot drift apart. */
import { describe, expect, it } from 'vitest';
import { type ChainedEntry, canonicalEntry, canonicalJson, entryHash, GENESIS_HASH } from './hash-chain.ts';

const first: ChainedEntry = {
  occurredAt: new Date('2026-03-01T09:15:02.123Z'),
  actorUserId: 2,
  actorEmail: 'admin@example.com',
  actorRole: 'ADMIN',
  action: 'update',
  entityType: 'customer',
  entityId: 2,
  changes: { phone: { old: '+39 02 111', new: '+39 02 222' }, enable_blockchain: { old: false, new: true } },
  reason: null,
  clientAddress: '203.0.113.7',
};
const second: ChainedEntry = {
  ...first,
  occurredAt: new Date('2026-03-01T09:16:40.000Z'),
  action: 'logout',
  entityType: 'user',
  changes: {},
};

describe('audit hash chain v1', () => {
  it('serialises an entry as the documented JSON array, keys sorted at every depth', () => {
    expect(canonicalEntry(first)).toBe(
      '["uvtrace/audit/1","2026-03-01T09:15:02.123Z",2,"admin@example.com","ADMIN","update","customer",2,' +
        '{"enable_blockchain":{"new":true,"old":false},"phone":{"new":"+39 02 222","old":"+39 02 111"}},' +
        'null,"203.0.113.7"]',
    );
  });

  it('chains the documented hashes from 32 zero bytes', () => {
    const h1 = entryHash(GENESIS_HASH, first);
    expect(h1).toBe('22bcdd080b02f86d2f6c884334474f27aa12cc91dd5dda6d94d4f06a7c6f6e54');
    expect(entryHash(h1, second)).toBe('0d1f9ee7c058199cd9d81d779b912f888eb24d963ea5bcafac20cb4b78cd7ac4');
  });

  it('does not depend on the order of keys, and refuses what JSON cannot carry exactly', () => {
    expect(canonicalJson({ b: 1, a: { d: null, c: 'é"\n' } })).toBe('{"a":{"c":"é\\"\\n","d":null},"b":1}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
    expect(() => canonicalJson({ a: undefined })).toThrow();
  });
});
