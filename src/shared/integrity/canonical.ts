/**
 * The canonical form of a sterilization record and its leaf hash, hashing_version 1, 2 and 3.
 * Isomorphic (browser and server): no node: imports, no DOM. The byte-by-byte specification is
 * docs/integrity.md; this file is its reference implementation.
 * Version 2 differs from 1 in one rule only: an empty text field is null (v1 kept "" apart from null),
 * so a form, which sends every field as a string, can express a missing value. Version 3 adds the
 * record's evidence after the 14 fields: the SHA-256 of the device's token, the record's position in it
 * and the device's own cycle time (docs/integrity.md §12). A block keeps the version it was made with,
 * so every function takes the version, defaulting to the current one.
 */
import { bytesToHex, type Hex, stringToBytes } from 'viem';
import { keccak256Bytes } from './hash.ts';

/** The version new blocks are made with. */
export const HASHING_VERSION = 3;
export type HashingVersion = 1 | 2 | 3;
/**
 * Every version a stored block can have: all stay verifiable forever
 * (docs/adr/0011-integrity-leaf-and-merkle-tree.md).
 */
export const HASHING_VERSIONS: readonly HashingVersion[] = [1, 2, 3];

export function isHashingVersion(value: unknown): value is HashingVersion {
  return HASHING_VERSIONS.includes(value as HashingVersion);
}

/** First element of every canonical array: names the kind of record and the hashing version. */
export function leafDomain(version: HashingVersion = HASHING_VERSION): string {
  return `uvtrace/sterilization/${version}`;
}
/** The current version's domain. */
export const LEAF_DOMAIN = leafDomain();

/**
 * The 14 fields of a record, in the verification modal's order (docs/product.md §2), which is the leaf's
 * order.
 */
export const INTEGRITY_FIELDS = [
  'id',
  'received_ts',
  'device_serial',
  'progressive_id',
  'supplied_energy',
  'nominal_time',
  'effective_time',
  'residual_lamp_life',
  'status_code',
  'latitude',
  'longitude',
  'consumables_lot',
  'lot_progressive_id',
  'notes',
] as const;
export type IntegrityField = (typeof INTEGRITY_FIELDS)[number];

/**
 * What version 3 adds after the 14 fields: the token's SHA-256 (lowercase hex of the compact JWS's
 * ASCII bytes), the record's index among the token's records, and the device's own cycle time. Null
 * for a record stored without a token, or without a cycle time.
 */
export const EVIDENCE_FIELDS = ['token_sha256', 'token_position', 'cycle_ts'] as const;
export type EvidenceField = (typeof EVIDENCE_FIELDS)[number];
/** Every field a leaf may hold. */
export type LeafField = IntegrityField | EvidenceField;

/** The fields of a leaf of this version, in their order. */
export function leafFields(version: HashingVersion = HASHING_VERSION): readonly LeafField[] {
  return version >= 3 ? [...INTEGRITY_FIELDS, ...EVIDENCE_FIELDS] : INTEGRITY_FIELDS;
}

/** Fields holding numbers (integers or decimals): one canonical decimal form each. */
export const NUMERIC_FIELDS: ReadonlySet<LeafField> = new Set<LeafField>([
  'id',
  'progressive_id',
  'supplied_energy',
  'nominal_time',
  'effective_time',
  'residual_lamp_life',
  'status_code',
  'latitude',
  'longitude',
  'lot_progressive_id',
  'token_position',
]);
/** Fields holding an instant. */
export const TIMESTAMP_FIELDS: ReadonlySet<LeafField> = new Set<LeafField>(['received_ts', 'cycle_ts']);

export type IntegrityValue = string | number | bigint | Date | null | undefined;
/** A record's 14 fields, and from version 3 its evidence (absent: null). */
export type IntegrityRecord = { [K in IntegrityField]: IntegrityValue } & {
  [K in EvidenceField]?: IntegrityValue;
};

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The whitespace a number or an instant may have around it: tab, LF, CR and space only (not
 * JavaScript's trim(), whose Unicode set a verifier in another language would have to copy).
 */
const AROUND = /^[\t\n\r ]+|[\t\n\r ]+$/g;
export function stripSpace(text: string): string {
  return text.replace(AROUND, '');
}
/** The largest exponent a number may have: bounds the digits "1e999999999" would expand to. */
export const MAX_EXPONENT = 10_000;

/**
 * canonicalDecimal for the plain text PostgreSQL gives a numeric column (`-?digits[.digits]`): the
 * same result without the general parser's allocations (blocks of many thousands of records are
 * hashed at once). Anything else (exponent, "+", ".5", "5.") returns undefined and goes the general way.
 */
function plainDecimal(text: string): string | undefined {
  const length = text.length;
  const start = text.charCodeAt(0) === 45 ? 1 : 0; // "-"
  let dot = -1;
  for (let i = start; i < length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 46 && dot < 0) dot = i;
    else if (code < 48 || code > 57) return undefined;
  }
  if (length === start || dot === start || dot === length - 1) return undefined;
  const integerEnd = dot < 0 ? length : dot;
  let integerStart = start;
  while (integerStart < integerEnd - 1 && text.charCodeAt(integerStart) === 48) integerStart += 1;
  let end = length;
  if (dot >= 0) {
    while (text.charCodeAt(end - 1) === 48) end -= 1;
    if (end === dot + 1) end = dot;
  }
  const magnitude = text.slice(integerStart, end);
  if (start === 0) return magnitude;
  return magnitude === '0' ? '0' : `-${magnitude}`;
}

/**
 * The one decimal form of a number: optional "-", the integer digits without leading zeros ("0" when
 * none), then "." and the fraction digits without trailing zeros when the fraction is not zero. No "+",
 * no exponent; "-0" is "0". So 12.50, "12.5", "012.500" and "1.25e1" all give "12.5".
 * A text is a number when, without the whitespace around it (stripSpace), it is: an optional "+" or
 * "-"; ASCII digits with at most one "." anywhere among them and at least one digit ("5", ".5", "5.");
 * then optionally "e" or "E", an optional sign and digits, the exponent at most MAX_EXPONENT in size
 * (docs/integrity.md §2.1). Returns undefined for anything else.
 */
export function canonicalDecimal(value: string | number | bigint): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  const text = typeof value === 'number' ? String(value) : stripSpace(value);
  const plain = plainDecimal(text);
  if (plain !== undefined) return plain;
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', intDigits = '', fracDigits = '', exponentText] = match;
  if (intDigits === '' && fracDigits === '') return undefined;
  // Shift the decimal point by the exponent, working on the digit string only (no floating point).
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  let digits = intDigits + fracDigits;
  let point = intDigits.length + exponent;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const integer = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  const magnitude = fraction ? `${integer}.${fraction}` : integer;
  return sign === '-' && magnitude !== '0' ? `-${magnitude}` : magnitude;
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?[\t\n\r ]*(Z|z|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * The one form of an instant: UTC ISO-8601 with exactly three fraction digits and "Z"
 * (YYYY-MM-DDTHH:mm:ss.sssZ). Accepts ISO-8601 / RFC 3339 and PostgreSQL's text form: a date, "T", "t"
 * or one space, hours and minutes, optional seconds with an optional fraction ("." or ","), optional
 * whitespace, then an offset "Z", "z", "±HH", "±HHMM" or "±HH:MM" (hours to 23, minutes to 59).
 * Digits past the millisecond are cut, not rounded. A text without an offset is not an instant and
 * returns undefined, as does anything else (docs/integrity.md §2.2). Dates give toISOString().
 */
export function canonicalTimestamp(value: string | Date): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  const match = TIMESTAMP.exec(stripSpace(value));
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', frac = '', zone = 'Z'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as number[];
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour! > 23 || minute! > 59 || second! > 59) {
    return undefined;
  }
  const millis = Number(frac.padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    const [offsetHours, offsetRest] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || '0')];
    if (offsetHours > 23 || offsetRest > 59) return undefined;
    offsetMinutes = offsetHours * 60 + offsetRest;
    if (zone.startsWith('-')) offsetMinutes = -offsetMinutes;
  }
  const date = new Date(0);
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour!, minute!, second!, millis);
  if (date.getUTCDate() !== day) return undefined; // 31 February and the like
  const time = date.getTime() - offsetMinutes * 60_000;
  const result = new Date(time);
  if (Number.isNaN(time) || result.getUTCFullYear() < 0 || result.getUTCFullYear() > 9999) return undefined;
  return result.toISOString();
}

/**
 * The canonical value of one field: a string or null.
 * - numeric fields: canonicalDecimal; an empty text is null; a text that is not a number stays as typed
 *   (it can never equal a canonical number, so it never matches a stored record);
 * - received_ts: canonicalTimestamp; empty text is null; unparsable text stays as typed;
 * - text fields (device_serial, consumables_lot, notes): the text exactly, no trimming or Unicode
 *   normalisation. Version 2: "" is null (whitespace is kept: it is content a device sent, and trimming
 *   would break "exactly as stored"). Version 1: null and "" are different values.
 */
export function canonicalValue(
  field: LeafField,
  value: IntegrityValue,
  version: HashingVersion = HASHING_VERSION,
): string | null {
  if (value === null || value === undefined) return null;
  if (version >= 2 && value === '') return null;
  if (NUMERIC_FIELDS.has(field)) {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'string' && stripSpace(value) === '') return null;
    return canonicalDecimal(value) ?? String(value);
  }
  if (TIMESTAMP_FIELDS.has(field)) {
    if (typeof value === 'string' && stripSpace(value) === '') return null;
    if (typeof value === 'number' || typeof value === 'bigint') return String(value);
    return canonicalTimestamp(value) ?? String(value);
  }
  return value instanceof Date ? value.toISOString() : String(value);
}

/** The canonical array: [leafDomain(version), ...the canonical values in leafFields(version) order]. */
export function canonicalArray(
  record: IntegrityRecord,
  version: HashingVersion = HASHING_VERSION,
): (string | null)[] {
  return [
    leafDomain(version),
    ...leafFields(version).map((field) => canonicalValue(field, record[field], version)),
  ];
}

/** The leaf preimage as text: JSON.stringify of the canonical array (no spaces; ECMA-262 string escaping). */
export function canonicalText(record: IntegrityRecord, version: HashingVersion = HASHING_VERSION): string {
  return JSON.stringify(canonicalArray(record, version));
}

/** The leaf preimage: the UTF-8 bytes of canonicalText. */
export function canonicalBytes(
  record: IntegrityRecord,
  version: HashingVersion = HASHING_VERSION,
): Uint8Array {
  return stringToBytes(canonicalText(record, version));
}

const encoder = new TextEncoder();
/** Reused by leafBytes: encoding into it costs a tenth of allocating the bytes of every leaf. */
let scratch = new Uint8Array(1024);

/** The record's leaf: keccak256 of its canonical bytes, as bytes. */
export function leafBytes(record: IntegrityRecord, version: HashingVersion = HASHING_VERSION): Uint8Array {
  const text = canonicalText(record, version);
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3); // UTF-8: ≤ 3 bytes a unit
  const { written } = encoder.encodeInto(text, scratch);
  return keccak256Bytes(scratch.subarray(0, written));
}

/** The record's leaf (its "control string"): keccak256 of its canonical bytes, 0x-hex. */
export function leafHash(record: IntegrityRecord, version: HashingVersion = HASHING_VERSION): Hex {
  return bytesToHex(leafBytes(record, version));
}

/**
 * A record from the verification form (all strings, as the modal edits them and calculateHash receives
 * them). A field that is absent is null; the canonical rules above then apply ("" is null for numbers and
 * the timestamp, and for text fields from version 2 on; version 1 keeps a text field's "").
 */
export function recordFromForm(form: Partial<Record<string, string | null | undefined>>): IntegrityRecord {
  return Object.fromEntries(
    [...INTEGRITY_FIELDS, ...EVIDENCE_FIELDS].map((field) => [field, form[field] ?? null]),
  ) as IntegrityRecord;
}
