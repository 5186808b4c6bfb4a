import { readFileSync } from 'node:fs';
import path from 'node:path';
import { keccak256 as edrKeccak } from '@nomicfoundation/edr';
import fc from 'fast-check';
import { bytesToHex, type Hex, hexToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  canonicalArray,
  canonicalDecimal,
  canonicalText,
  canonicalTimestamp,
  canonicalValue,
  createSlicer,
  HASHING_VERSION,
  hashPair,
  INTEGRITY_FIELDS,
  type IntegrityRecord,
  isHashingVersion,
  leafBytes,
  leafDomain,
  leafHash,
  mapSliced,
  merkleLevelsAsync,
  merkleProof,
  merkleRoot,
  merkleRootAsync,
  merkleTree,
  processProof,
  recordFromForm,
  resolveRpcUrl,
  setKeccak256,
  verifyProof,
} from './index.ts';
import { type ProofReceipt, verifyReceipt } from './receipt.ts';
import { decodeReceiptFragment, encodeReceiptFragment } from './receipt-link.ts';

/** The worked example of docs/integrity.md §5. */
const BASE = {
  received_ts: '2025-03-14T09:26:53.589Z',
  device_serial: 'UVB00017',
  supplied_energy: '12.50',
  nominal_time: '15.00',
  effective_time: '14.75',
  residual_lamp_life: '8421.00',
  status_code: 0,
  latitude: '45.464211',
  longitude: '9.191383',
  consumables_lot: 'LOT2503',
  notes: null,
};
const EXAMPLE: IntegrityRecord[] = [
  { ...BASE, id: 101, progressive_id: 41, lot_progressive_id: 7 },
  {
    ...BASE,
    id: 102,
    progressive_id: 42,
    lot_progressive_id: 8,
    received_ts: '2025-03-14T09:48:10.000Z',
    status_code: 2,
    notes: 'lamp replaced "A"\nok',
  },
  {
    ...BASE,
    id: 103,
    progressive_id: 43,
    received_ts: '2025-03-14 11:02:00.5+01',
    supplied_energy: 9.1,
    latitude: null,
    longitude: null,
    consumables_lot: null,
    lot_progressive_id: null,
    notes: '',
  },
];
type Expected = { texts: string[]; leaves: Hex[]; pair01: Hex; root: Hex };
/** Version 1's example (docs/integrity.md §5): blocks made before version 2 hold leaves like these. */
const EXPECTED_V1: Expected = {
  texts: [
    '["uvtrace/sterilization/1","101","2025-03-14T09:26:53.589Z","UVB00017","41","12.5","15","14.75","8421","0","45.464211","9.191383","LOT2503","7",null]',
    '["uvtrace/sterilization/1","102","2025-03-14T09:48:10.000Z","UVB00017","42","12.5","15","14.75","8421","2","45.464211","9.191383","LOT2503","8","lamp replaced \\"A\\"\\nok"]',
    '["uvtrace/sterilization/1","103","2025-03-14T10:02:00.500Z","UVB00017","43","9.1","15","14.75","8421","0",null,null,null,null,""]',
  ],
  leaves: [
    '0xbcc65b9047797be3ce82558d4ec3728b28d35985189ab23f38302674ed8badd8',
    '0x86d88d0254f87f0aea9229cb5146d36c8c69b7ec2e651a88598c0bf40f172fa4',
    '0xca2b59302d835b90cdd009a76e5e275ead164bb5df7b7122f7ee4a21cf1b1332',
  ],
  pair01: '0x0b238c752f671748350ba6ca3c28c4f7e163a316b84b85def4e32069998b72a3',
  root: '0x7a52ef18c7220a351b809d6f909839243a8c54d40b4e436c58d4822fe7d34cbb',
};
/** Version 2's example (docs/integrity.md §5.2): the same records; 103's empty notes is now null. */
const EXPECTED_V2: Expected = {
  texts: [
    '["uvtrace/sterilization/2","101","2025-03-14T09:26:53.589Z","UVB00017","41","12.5","15","14.75","8421","0","45.464211","9.191383","LOT2503","7",null]',
    '["uvtrace/sterilization/2","102","2025-03-14T09:48:10.000Z","UVB00017","42","12.5","15","14.75","8421","2","45.464211","9.191383","LOT2503","8","lamp replaced \\"A\\"\\nok"]',
    '["uvtrace/sterilization/2","103","2025-03-14T10:02:00.500Z","UVB00017","43","9.1","15","14.75","8421","0",null,null,null,null,null]',
  ],
  leaves: [
    '0x8c19f41dd23833c3e894924971e6b2af02f9c35099fba8e0a9e6a5cd384e1bd9',
    '0xc8f2417747da513fa6d2b567f74188a5f7e17c21411aef4972df92f3c55b13bf',
    '0xc2ffb1b96c8f365f903751e15a8477f94a1c57991a0804998452c1580946ef4c',
  ],
  pair01: '0xfd7fbaa8f9e8074ee092a66366c900806591e0a51e7b44ca7fc78c1046e17146',
  root: '0x8e16235981f3587964b801f782f9a8e60cb41bd59fff5d04c874e3173b905c22',
};
/** The current version's example, which the tests below build on. */
const EXPECTED = EXPECTED_V2;

/** keccak256 from another implementation (EDR's Rust one), to check viem's use independently. */
const otherKeccak = (bytes: Uint8Array) => bytesToHex(edrKeccak(bytes));
/** Sorted pair by hand (big-endian compare of the hex digits), independent of hashPair. */
const pairByHand = (a: Hex, b: Hex) => {
  const [low, high] = a < b ? [a, b] : [b, a];
  return otherKeccak(new Uint8Array([...hexToBytes(low), ...hexToBytes(high)]));
};

describe.each([
  { version: 1 as const, expected: EXPECTED_V1 },
  { version: 2 as const, expected: EXPECTED_V2 },
])('worked example of hashing_version $version (docs/integrity.md)', ({ version, expected }) => {
  it('gives the documented canonical texts, leaves, pair and root', () => {
    expect(EXAMPLE.map((record) => canonicalText(record, version))).toEqual(expected.texts);
    expect(EXAMPLE.map((record) => leafHash(record, version))).toEqual(expected.leaves);
    for (const [i, text] of expected.texts.entries()) {
      expect(otherKeccak(new TextEncoder().encode(text))).toBe(expected.leaves[i]);
    }
    const [a, b, c] = expected.leaves as [Hex, Hex, Hex];
    expect(hashPair(a, b)).toBe(expected.pair01);
    expect(pairByHand(a, b)).toBe(expected.pair01);
    expect(hashPair(expected.pair01, c)).toBe(expected.root);
    expect(pairByHand(expected.pair01, c)).toBe(expected.root);
    expect(merkleRoot(expected.leaves)).toBe(expected.root);
    expect(merkleTree(expected.leaves).proofs).toEqual([[b, c], [a, c], [expected.pair01]]);
  });

  it('is the one written in docs/integrity.md', () => {
    const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/integrity.md'), 'utf8');
    for (const value of [...expected.texts, ...expected.leaves, expected.pair01, expected.root]) {
      expect(doc).toContain(value);
    }
  });
});

describe('hashing versions', () => {
  it('new blocks use version 3; version 2 leaves differ from version 1 by the domain and empty texts', () => {
    expect(HASHING_VERSION).toBe(3);
    expect(leafDomain(1)).toBe('uvtrace/sterilization/1');
    expect(leafDomain(2)).toBe('uvtrace/sterilization/2');
    expect(leafDomain(3)).toBe('uvtrace/sterilization/3');
    expect(leafHash(EXAMPLE[0]!, 2)).toBe(EXPECTED_V2.leaves[0]);
    expect(isHashingVersion(1) && isHashingVersion(2) && isHashingVersion(3)).toBe(true);
    expect(isHashingVersion(4) || isHashingVersion('2')).toBe(false);
  });

  it('version 3 adds the evidence after the 14 fields, each null when absent', () => {
    const record = EXAMPLE[0]!;
    const evidence = {
      token_sha256: 'a'.repeat(64),
      token_position: 2,
      cycle_ts: '2025-03-14T10:26:53+01:00',
    };
    const array = canonicalArray({ ...record, ...evidence }, 3);
    expect(array[0]).toBe('uvtrace/sterilization/3');
    expect(array.slice(1, 15)).toEqual(canonicalArray(record, 2).slice(1));
    expect(array.slice(15)).toEqual(['a'.repeat(64), '2', '2025-03-14T09:26:53.000Z']);
    expect(canonicalArray(record, 3).slice(15)).toEqual([null, null, null]);
    for (const field of ['token_sha256', 'token_position', 'cycle_ts'] as const) {
      expect(leafHash({ ...record, ...evidence }, 3), field).not.toBe(
        leafHash({ ...record, ...evidence, [field]: null }, 3),
      );
    }
    // Versions 1 and 2 never see the evidence.
    expect(leafHash({ ...record, ...evidence }, 2)).toBe(EXPECTED_V2.leaves[0]);
  });

  it('version 2: an empty text is no value, for every field; whitespace is kept', () => {
    const record = EXAMPLE[0]!;
    for (const field of INTEGRITY_FIELDS) {
      expect(leafHash({ ...record, [field]: '' }), field).toBe(leafHash({ ...record, [field]: null }));
      expect(canonicalValue(field, '', 2), field).toBeNull();
    }
    expect(leafHash({ ...record, notes: ' ' })).not.toBe(leafHash({ ...record, notes: null }));
    expect(canonicalValue('consumables_lot', ' ', 2)).toBe(' ');
  });

  it('version 1 keeps its rule: an empty text differs from null', () => {
    const record = EXAMPLE[0]!;
    expect(leafHash({ ...record, notes: '' }, 1)).not.toBe(leafHash({ ...record, notes: null }, 1));
    expect(leafHash({ ...record, latitude: '' }, 1)).toBe(leafHash({ ...record, latitude: null }, 1));
  });

  it('the spec form (every field a string, "" for null) gives the stored leaf in version 2', () => {
    // Records 101 (null notes) and 103 (null coordinates, lot and lot progressive, empty notes).
    for (const [i, record] of EXAMPLE.entries()) {
      const form = Object.fromEntries(
        INTEGRITY_FIELDS.map((field) => [field, record[field] === null ? '' : String(record[field])]),
      );
      expect(leafHash(recordFromForm(form), 2)).toBe(EXPECTED_V2.leaves[i]);
    }
  });
});

describe('canonical forms', () => {
  it('decimals have one form', () => {
    const cases: [string | number, string | undefined][] = [
      ['12.50', '12.5'],
      [12.5, '12.5'],
      ['012.500', '12.5'],
      ['1.25e1', '12.5'],
      ['  7 ', '7'],
      ['7.000', '7'],
      ['-0.00', '0'],
      [-0, '0'],
      ['+3', '3'],
      ['.5', '0.5'],
      ['5.', '5'],
      [1e21, '1000000000000000000000'],
      [1e-7, '0.0000001'],
      ['-45.464211', '-45.464211'],
      ['abc', undefined],
      ['', undefined],
      ['.', undefined],
      [Number.NaN, undefined],
      ['1e', undefined],
      ['-', undefined],
      ['1.2.3', undefined],
      ['1-2', undefined],
      ['-.5', '-0.5'],
      ['000', '0'],
      ['0.000', '0'],
      ['-007.0100', '-7.01'],
    ];
    for (const [input, expected] of cases) expect(canonicalDecimal(input), String(input)).toBe(expected);
  });

  it('a leaf is keccak256 of the UTF-8 of the canonical text, whatever the text (long, non-ASCII)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        (notes, lot) => {
          const record = { ...EXAMPLE[0]!, notes, consumables_lot: lot };
          expect(leafHash(record)).toBe(otherKeccak(new TextEncoder().encode(canonicalText(record))));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the plain-text fast path gives what the general parser gives', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.stringMatching(/^\d{1,25}$/),
        fc.option(fc.stringMatching(/^\d{1,12}$/)),
        (negative, integer, fraction) => {
          const text = `${negative ? '-' : ''}${integer}${fraction === null ? '' : `.${fraction}`}`;
          // An exponent sends the same number down the general parser.
          expect(canonicalDecimal(text)).toBe(canonicalDecimal(`${text}e0`));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('timestamps have one form', () => {
    const instant = '2025-03-14T09:26:53.589Z';
    for (const input of [
      instant,
      '2025-03-14T09:26:53.589000Z',
      '2025-03-14 09:26:53.589123+00',
      '2025-03-14T10:26:53.589+01:00',
      '2025-03-14T10:26:53.5899+0100',
      '2025-03-14T04:56:53.589-04:30',
      new Date(instant),
    ]) {
      expect(canonicalTimestamp(input), String(input)).toBe(instant);
    }
    expect(canonicalTimestamp('2025-03-14T09:26:53Z')).toBe('2025-03-14T09:26:53.000Z');
    expect(canonicalTimestamp('2025-03-14T09:26:53')).toBeUndefined();
    expect(canonicalTimestamp('2025-02-30T09:26:53Z')).toBeUndefined();
    expect(canonicalTimestamp('yesterday')).toBeUndefined();
  });

  it('empty numbers are null; forms equal records', () => {
    const record = EXAMPLE[0]!;
    expect(leafHash({ ...record, latitude: '' })).toBe(leafHash({ ...record, latitude: null }));
    const form = Object.fromEntries(
      INTEGRITY_FIELDS.map((field) => [field, record[field] === null ? undefined : String(record[field])]),
    );
    expect(leafHash(recordFromForm(form), 2)).toBe(EXPECTED.leaves[0]);
    expect(leafHash({ ...record, supplied_energy: 'twelve' })).not.toBe(EXPECTED.leaves[0]);
  });
});

/** The regular expressions docs/integrity.md §2.1 and §2.2 give, so the doc and the code are checked alike. */
function docRegex(which: 0 | 1): RegExp {
  const doc = readFileSync(path.resolve(import.meta.dirname, '../../../docs/integrity.md'), 'utf8');
  const found = [...doc.matchAll(/As a regular\s+expression:\s+`([^`]+)`/g)].map((match) => match[1]!);
  expect(found).toHaveLength(2);
  return new RegExp(found[which]!);
}
/** Whitespace as the doc defines it (tab, LF, CR, space), removed around a value before the regex. */
const stripDoc = (text: string) => text.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');

/** docs/integrity.md "Rules a verifier must not guess": one test per rule, named after it. */
describe('rules a verifier must not guess (docs/integrity.md)', () => {
  it('rule 1, numbers: sign, digits with at most one point, exponent, tab/LF/CR/space around; hashed in one form', () => {
    const numbers: [string, string][] = [
      ['+5', '5'],
      ['.5', '0.5'],
      ['5.', '5'],
      ['-.5', '-0.5'],
      ['+.5e1', '5'],
      ['1e3', '1000'],
      ['1E+3', '1000'],
      ['25e-1', '2.5'],
      ['-0', '0'],
      ['-0.000e7', '0'],
      ['007', '7'],
      ['00.50', '0.5'],
      [' \t\r\n12.50\n ', '12.5'],
      ['1e10000', `1${'0'.repeat(10_000)}`],
    ];
    for (const [text, canonical] of numbers) {
      expect(canonicalDecimal(text), JSON.stringify(text)).toBe(canonical);
      // The hashed form normalises: the typed text and its canonical form are one value, in both versions.
      for (const version of [1, 2] as const) {
        expect(canonicalValue('supplied_energy', text, version), JSON.stringify(text)).toBe(canonical);
      }
    }
    const notNumbers = [
      '.',
      '+',
      '-',
      'e3',
      '.e3',
      '1e',
      '1e+',
      '1.5.0',
      '1,5',
      '--5',
      '+-5',
      '5-',
      '1 000',
      '0x10',
      'Infinity',
      'NaN',
      '١٢', // Arabic-Indic digits: only ASCII 0-9 are digits
      '\u00a012', // no-break space is not whitespace here
      '12\u3000',
      '1e10001', // the doc's exponent bound, not its regular expression
      '1e-10001',
    ];
    const number = docRegex(0);
    for (const [text] of numbers) expect(number.test(stripDoc(text)), JSON.stringify(text)).toBe(true);
    for (const text of notNumbers.slice(0, -2)) {
      expect(number.test(stripDoc(text)), JSON.stringify(text)).toBe(false);
    }
    for (const text of notNumbers) {
      expect(canonicalDecimal(text), JSON.stringify(text)).toBeUndefined();
      // A text that is not a number is hashed exactly as typed (and so never verifies).
      expect(canonicalValue('latitude', text), JSON.stringify(text)).toBe(text);
    }
    // Only whitespace (of the four) is no value; the same in version 1.
    expect(canonicalValue('latitude', ' \t\r\n', 1)).toBeNull();
    expect(canonicalValue('latitude', ' \t\r\n', 2)).toBeNull();
  });

  it('rule 2, instants: date, T/t/space, HH:mm, optional :ss and fraction cut to ms, optional spaces, then Z/z/±HH/±HHMM/±HH:MM', () => {
    const instants: [string, string][] = [
      ['2025-03-14T09:26:53.589Z', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14t09:26:53.589z', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14 09:26:53.589Z', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14T10:26:53.589+01:00', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14T10:26:53.589+0100', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14T10:26:53.589+01', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14T04:56:53.589-04:30', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14T09:26:53.589 Z', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14 10:26:53.589  +01', '2025-03-14T09:26:53.589Z'],
      ['2025-03-14T09:26Z', '2025-03-14T09:26:00.000Z'],
      ['2025-03-14T09:26:53Z', '2025-03-14T09:26:53.000Z'],
      ['2025-03-14T09:26:53.5Z', '2025-03-14T09:26:53.500Z'],
      ['2025-03-14T09:26:53,5Z', '2025-03-14T09:26:53.500Z'],
      ['2025-03-14T09:26:53.5899999Z', '2025-03-14T09:26:53.589Z'], // cut, not rounded
      ['2025-03-14T09:26:53.999999999Z', '2025-03-14T09:26:53.999Z'],
      ['2025-03-15T00:30:00+01:00', '2025-03-14T23:30:00.000Z'],
      ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
      [' \n2025-03-14T09:26:53.589Z\t', '2025-03-14T09:26:53.589Z'],
      ['0000-01-01T00:00:00Z', '0000-01-01T00:00:00.000Z'],
    ];
    for (const [text, canonical] of instants) {
      expect(canonicalTimestamp(text), JSON.stringify(text)).toBe(canonical);
      for (const version of [1, 2] as const)
        expect(canonicalValue('received_ts', text, version)).toBe(canonical);
    }
    const notInstants = [
      '2025-03-14T09:26:53.589', // no offset: a local time, not an instant
      '2025-03-14',
      '2025-03-14T09Z',
      '2025-03-14T09:26.5Z', // a fraction needs seconds
      '2025-03-14T09:26:53.Z',
      '2025-03-14T09:26:53.589+1',
      '2025-03-14T09:26:53.589+01:0',
      '2025-03-14T09:26:53.589+01:00:00',
      '2025-03-14T09:26:53.589+24',
      '2025-03-14T09:26:53.589+01:60',
      '2025-03-14T09:26:53.589 UTC',
      '2025-03-14T09:26:53.589GMT',
      '2025-03-14T24:00:00Z',
      '2025-03-14T09:60:00Z',
      '2025-03-14T09:26:60Z', // no leap second
      '2025-02-29T09:26:53Z',
      '2025-13-01T00:00:00Z',
      '25-03-14T09:26:53Z',
      '+002025-03-14T09:26:53Z',
      '2025-03-14_09:26:53Z',
      '2025-03-14  09:26:53Z',
      '20250314T092653Z',
      '0000-01-01T00:30:00+01:00', // before year 0000 in UTC
      '9999-12-31T23:30:00-01:00', // after year 9999 in UTC
    ];
    // The doc's regular expression: every instant matches; what it rejects is every non-instant but
    // those that fail the doc's ranges (hour 24, minute 60, 29 February 2025, …).
    const instant = docRegex(1);
    const outOfRange = notInstants.filter((text) => instant.test(stripDoc(text)));
    for (const [text] of instants) expect(instant.test(stripDoc(text)), JSON.stringify(text)).toBe(true);
    expect(outOfRange).toEqual([
      '2025-03-14T09:26:53.589+24',
      '2025-03-14T09:26:53.589+01:60',
      '2025-03-14T24:00:00Z',
      '2025-03-14T09:60:00Z',
      '2025-03-14T09:26:60Z',
      '2025-02-29T09:26:53Z',
      '2025-13-01T00:00:00Z',
      '0000-01-01T00:30:00+01:00',
      '9999-12-31T23:30:00-01:00',
    ]);
    for (const text of notInstants) {
      expect(canonicalTimestamp(text), JSON.stringify(text)).toBeUndefined();
      expect(canonicalValue('received_ts', text), JSON.stringify(text)).toBe(text);
    }
  });

  it('rule 3, the chain RPC URL: a path in GET /chain is relative to the API, resolved against its URL', () => {
    const chainInfo = 'https://uvtrace.example/api/v1/chain';
    expect(resolveRpcUrl('/chain-rpc', chainInfo)).toBe('https://uvtrace.example/chain-rpc');
    expect(resolveRpcUrl('/chain-rpc', 'http://localhost:4210/api/v1/chain')).toBe(
      'http://localhost:4210/chain-rpc',
    );
    expect(resolveRpcUrl('https://rpc.sepolia.example/v1', chainInfo)).toBe('https://rpc.sepolia.example/v1');
  });

  it('rule 4, numbers are read as written: a receipt carries every leaf value as the string hashed', async () => {
    // 20 significant digits: a binary float (JSON.parse, float64) keeps only about 17.
    const latitude = '45.464211000000000001';
    const api = `{"latitude":${latitude}}`;
    expect(canonicalValue('latitude', String((JSON.parse(api) as { latitude: number }).latitude))).not.toBe(
      latitude,
    );
    expect(canonicalValue('latitude', '1e21')).toBe('1000000000000000000000');
    expect(String(1e21)).toBe('1e+21'); // what a float prints instead (still read as the number here)

    const record = Object.fromEntries(
      INTEGRITY_FIELDS.map((field) => [field, canonicalValue(field, { ...EXAMPLE[0]!, latitude }[field])]),
    ) as ProofReceipt['record'];
    expect(Object.values(record).every((value) => value === null || typeof value === 'string')).toBe(true);
    const leaf = leafHash(recordFromForm(record), 2);
    const receipt: ProofReceipt = {
      format: 'uvtrace-proof-receipt/1',
      hashing_version: 2,
      record,
      leaf,
      proof: [],
      root: leaf,
      block_id: 1,
      network: 'devnet',
      chain_id: 31337,
      contract_address: null,
      transaction_hash: null,
    };
    const leafOk = async (input: unknown) =>
      (await verifyReceipt(input as ProofReceipt)).checks.find((check) => check.name === 'leaf')?.ok;
    expect(await leafOk(receipt)).toBe(true);
    // The link form carries the same strings.
    expect(decodeReceiptFragment(encodeReceiptFragment(receipt))?.record).toEqual(record);
    expect(await leafOk(decodeReceiptFragment(encodeReceiptFragment(receipt)))).toBe(true);
    // A receipt written with numbers (by hand or another tool) is still read, its numbers as JSON gives them.
    const withNumbers = { ...receipt, record: { ...record, latitude: 45.464211, status_code: 0, id: 101 } };
    const numbersLeaf = leafHash(
      recordFromForm({ ...record, latitude: '45.464211', status_code: '0', id: '101' }),
      2,
    );
    expect(await leafOk({ ...withNumbers, leaf: numbersLeaf, root: numbersLeaf })).toBe(true);
  });
});

const hex32 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => bytesToHex(bytes));
const decimalText = fc
  .tuple(fc.integer({ min: -999999, max: 999999 }), fc.integer({ min: 0, max: 999999 }))
  .map(([int, frac]) => `${int}.${String(frac).padStart(6, '0')}`);
const recordArb: fc.Arbitrary<IntegrityRecord> = fc.record({
  id: fc.integer({ min: 1, max: 2 ** 40 }),
  received_ts: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
  device_serial: fc.string({ minLength: 8, maxLength: 8 }),
  progressive_id: fc.nat(),
  supplied_energy: decimalText,
  nominal_time: decimalText,
  effective_time: decimalText,
  residual_lamp_life: decimalText,
  status_code: fc.integer({ min: 0, max: 9 }),
  latitude: fc.option(decimalText),
  longitude: fc.option(decimalText),
  consumables_lot: fc.option(fc.string()),
  lot_progressive_id: fc.option(fc.nat()),
  notes: fc.option(fc.string({ unit: 'grapheme' })),
});

describe('properties', () => {
  it('every leaf proof verifies against its root (1..2000 leaves)', () => {
    fc.assert(
      fc.property(fc.array(hex32, { minLength: 1, maxLength: 2000 }), (leaves) => {
        const { root, proofs } = merkleTree(leaves);
        expect(merkleRoot(leaves)).toBe(root);
        leaves.forEach((leaf, i) => {
          expect(verifyProof(leaf, proofs[i]!, root)).toBe(true);
        });
        expect(proofs.every((proof) => proof.length <= Math.ceil(Math.log2(leaves.length)))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('changing any one field of any record changes its leaf and fails its proof', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 40 }),
        fc.nat(),
        fc.constantFrom(...INTEGRITY_FIELDS),
        fc.string({ minLength: 1, maxLength: 12 }),
        (records, pick, field, suffix) => {
          const leaves = records.map((record) => leafHash(record));
          const { root, proofs } = merkleTree(leaves);
          const index = pick % records.length;
          const record = records[index]!;
          const original = record[field];
          // A different value: text gets a suffix; numbers and instants move by one unit.
          let changed: IntegrityRecord[typeof field];
          if (field === 'received_ts') changed = new Date(Date.parse(String(original)) + 1).toISOString();
          else if (typeof original === 'number') changed = original + 1;
          else if (original === null) changed = field === 'notes' || field === 'consumables_lot' ? 'x' : '1';
          else if (field === 'device_serial' || field === 'consumables_lot' || field === 'notes')
            changed = `${original}${suffix}`;
          else changed = `${original}1`;
          const tampered = leafHash({ ...record, [field]: changed });
          expect(tampered).not.toBe(leaves[index]);
          expect(verifyProof(tampered, proofs[index]!, root)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('canonical forms are stable across equal values', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 4 }),
        (units, scale, padding) => {
          // The same number written with different scales, paddings and exponents.
          const value = units / 10 ** scale;
          const fixed = value.toFixed(scale + padding);
          const exponent = `${units}e-${scale}`;
          const canonical = canonicalDecimal(value);
          expect(canonicalDecimal(fixed)).toBe(canonical);
          expect(canonicalDecimal(exponent)).toBe(canonical);
          expect(canonicalDecimal(`0${fixed.replace('-', '')}`)).toBe(canonicalDecimal(Math.abs(value)));
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (ms, offset) => {
          const date = new Date(ms);
          const local = new Date(ms + offset * 60_000).toISOString().slice(0, 23);
          const sign = offset < 0 ? '-' : '+';
          const abs = Math.abs(offset);
          const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          expect(canonicalTimestamp(`${local}${zone}`)).toBe(date.toISOString());
          expect(canonicalTimestamp(`${local.replace('T', ' ')}999${zone}`)).toBe(date.toISOString());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('proofs of single leaves and helper agree', () => {
    const leaves = EXPECTED.leaves;
    expect(merkleProof(leaves, 2)).toEqual([EXPECTED.pair01]);
    expect(processProof(leaves[2]!, [EXPECTED.pair01])).toBe(EXPECTED.root);
    expect(merkleRoot([leaves[0]!])).toBe(leaves[0]);
    expect(() => merkleRoot([])).toThrow();
  });
});

describe('large trees', () => {
  it('the sliced tree (native keccak, as the server uses) equals the one-pass tree, odd levels included', async () => {
    setKeccak256(edrKeccak);
    // Leaves as bytes, as the worker holds them; 20,001 leaves make 16 levels, several of them odd.
    // (Its speed at 100,000 leaves is a benchmark: npm run bench:merkle.)
    const leaves = Array.from({ length: 20_001 }, (_, i) =>
      leafBytes({ ...EXAMPLE[0]!, id: i + 1, progressive_id: i + 1 }),
    );
    const whole = merkleTree(leaves);
    const sliced = await merkleLevelsAsync(leaves, createSlicer(1));
    expect(sliced.root).toBe(whole.root);
    expect(sliced.size).toBe(leaves.length);
    expect(Array.from({ length: sliced.size }, (_, i) => sliced.proof(i))).toEqual(whole.proofs);
    expect(() => sliced.proof(leaves.length)).toThrow();
    expect(await merkleRootAsync(leaves)).toBe(whole.root);
    expect(merkleRoot(leaves)).toBe(whole.root);
    for (const index of [0, 1, 16_383, 16_384, 19_999, 20_000]) {
      expect(verifyProof(bytesToHex(leaves[index]!), sliced.proof(index), whole.root)).toBe(true);
    }
    expect(await mapSliced(leaves.slice(0, 1000), (leaf) => leaf[0], createSlicer(0))).toEqual(
      leaves.slice(0, 1000).map((leaf) => leaf[0]),
    );
    expect(() => setKeccak256(() => new Uint8Array(32))).toThrow();
  });
});
