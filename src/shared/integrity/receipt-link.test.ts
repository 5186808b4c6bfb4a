import { describe, expect, it } from 'vitest';
import type { ProofReceipt } from './receipt.ts';
import { suspectFields } from './receipt.ts';
import { decodeReceiptFragment, encodeReceiptFragment } from './receipt-link.ts';

const RECEIPT: ProofReceipt = {
  format: 'uvtrace-proof-receipt/1',
  hashing_version: 2,
  record: {
    id: '102',
    received_ts: '2025-03-14T09:48:10.000Z',
    device_serial: 'UVB00017',
    progressive_id: '42',
    supplied_energy: '12.5',
    nominal_time: '15',
    effective_time: '14.75',
    residual_lamp_life: '8421',
    status_code: '2',
    latitude: '45.464211',
    longitude: '9.191383',
    consumables_lot: 'LOT2503',
    lot_progressive_id: '8',
    // Non-ASCII, a quote and a newline: the link must carry them byte for byte.
    notes: 'lampada sostituita "A"\nok — è già 🌡',
  },
  leaf: `0x${'c8'.repeat(32)}`,
  proof: [`0x${'8c'.repeat(32)}`, `0x${'c2'.repeat(32)}`],
  root: `0x${'8e'.repeat(32)}`,
  block_id: 7,
  network: 'devnet',
  chain_id: 31337,
  contract_address: `0x${'5f'.repeat(20)}`,
  transaction_hash: `0x${'ab'.repeat(32)}`,
};

describe('receipt link (#r=…)', () => {
  it('round-trips a receipt through a URL-safe fragment', () => {
    const fragment = encodeReceiptFragment(RECEIPT);
    expect(fragment).toMatch(/^r=[A-Za-z0-9_-]+$/);
    expect(decodeReceiptFragment(fragment)).toEqual(RECEIPT);
    expect(decodeReceiptFragment(`#${fragment}`)).toEqual(RECEIPT);
    // Survives being a URL's fragment (nothing in it is percent-encoded or lost).
    const url = new URL(`https://example.org/verify#${fragment}`);
    expect(decodeReceiptFragment(url.hash)).toEqual(RECEIPT);
  });

  it('is base64url of the JSON, so a third party can build one', () => {
    const json = JSON.stringify(RECEIPT);
    const expected = Buffer.from(json, 'utf8').toString('base64url');
    expect(encodeReceiptFragment(RECEIPT)).toBe(`r=${expected}`);
  });

  it('says there is no receipt, or that a damaged one is not a receipt', () => {
    expect(decodeReceiptFragment('')).toBeNull();
    expect(decodeReceiptFragment('#main-content')).toBeNull();
    expect(() => decodeReceiptFragment('#r=not*base64')).toThrow();
    expect(() => decodeReceiptFragment(`#r=${Buffer.from('[1,2]').toString('base64url')}`)).toThrow();
    const cut = encodeReceiptFragment(RECEIPT).slice(0, 80);
    expect(() => decodeReceiptFragment(cut)).toThrow();
  });
});

describe('suspectFields', () => {
  it('names the fields that are not in the canonical form the modal writes', () => {
    expect(suspectFields(RECEIPT.record, 2)).toEqual([]);
    const edited = { ...RECEIPT.record, supplied_energy: '12.50', status_code: 2, latitude: null };
    expect(suspectFields(edited, 2)).toEqual(['supplied_energy', 'status_code']);
    // A canonical edit cannot be told from the leaf alone.
    expect(suspectFields({ ...RECEIPT.record, supplied_energy: '13.5' }, 2)).toEqual([]);
  });
});
