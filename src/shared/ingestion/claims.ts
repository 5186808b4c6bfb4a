/**
 * What a device puts in the RS256 JWT it sends to POST /api/v1/ingest/sterilizations: its serial as
 * `iss`, `iat`/`exp`, and one record (`sterilization`) or a small batch (`sterilizations`). The same
 * rules serve the server (to refuse bad records) and the tools that build tokens (the device page's
 * test JWT, the device simulator), so a token one of them makes is one the server takes.
 */
import { array, number, object, string } from 'yup';

export const MAX_RECORDS_PER_TOKEN = 100;
/** Tokens live at most this long (exp - iat), and the clocks may differ by the skew. */
export const MAX_TOKEN_LIFETIME_SECONDS = 15 * 60;
export const CLOCK_SKEW_SECONDS = 120;
/** Size of a new disposable-sleeve batch when the device does not say. */
export const DEFAULT_BATCH_QUANTITY = 100;

export interface SterilizationClaim {
  progressive_id: number;
  supplied_energy: number;
  nominal_time: number;
  effective_time: number;
  residual_lamp_life: number;
  status_code: number;
  latitude?: number | null;
  longitude?: number | null;
  consumables_lot?: string | null;
  lot_progressive_id?: number | null;
  /** Size of the sleeve batch the record used, when the device knows it. */
  batch_quantity?: number | null;
  notes?: string | null;
  /**
   * When the cycle ran by the device's own clock: an ISO-8601 instant with its offset
   * (`2026-11-25T09:14:03+01:00`, `…Z`), at most millisecond precision. Optional.
   */
  cycle_ts?: string | null;
}

export interface IngestionClaims {
  iss: string;
  iat: number;
  exp: number;
  sterilization?: SterilizationClaim;
  sterilizations?: SterilizationClaim[];
}

const INT_MAX = 2_147_483_647;
const msg = (field: string) => `ingest.invalid.${field}`;

/** Device text goes into PostgreSQL text, which cannot hold U+0000. */
const text = (field: string, max: number) =>
  string()
    .typeError(msg(field))
    .nullable()
    .optional()
    .max(max, msg(field))
    .test('no-nul', msg(field), (value) => !value?.includes('\u0000'));

/** An instant with a date, a time to the second or millisecond, and an offset (Z or ±hh:mm). */
const INSTANT_WITH_OFFSET =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,3})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
/** Earliest cycle time taken: no device of ours ran before it. */
export const EARLIEST_CYCLE_TS = Date.UTC(2000, 0, 1);
/**
 * How far ahead of the server's clock a cycle time may be and still be stored (flagged as a suspect
 * clock): further is not a clock that runs ahead but a wrong value, refused.
 */
export const MAX_CYCLE_TS_AHEAD_MS = 24 * 60 * 60 * 1000;

/** Whether a text is a cycle time the server stores (the date must exist: 2026-02-30 does not). */
export function isCycleTimestamp(value: string, nowMs = Date.now()): boolean {
  if (!INSTANT_WITH_OFFSET.test(value)) return false;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || ms < EARLIEST_CYCLE_TS || ms > nowMs + MAX_CYCLE_TS_AHEAD_MS) return false;
  // Date.parse rolls 2026-02-30 over to March: the calendar date must read back the same.
  const [date] = value.split('T');
  const offset = /(Z|[+-]\d{2}:\d{2})$/.exec(value)?.[1] ?? 'Z';
  const offsetMs =
    offset === 'Z'
      ? 0
      : (offset.startsWith('-') ? -1 : 1) *
        (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) *
        60_000;
  return new Date(ms + offsetMs).toISOString().slice(0, 10) === date;
}

const bounded = (field: string, max: number) =>
  number().typeError(msg(field)).required(msg(field)).min(0, msg(field)).max(max, msg(field));

export const sterilizationClaimSchema = object({
  progressive_id: bounded('progressive_id', INT_MAX).integer(msg('progressive_id')),
  supplied_energy: bounded('supplied_energy', 9_999_999_999),
  nominal_time: bounded('nominal_time', 99_999_999),
  effective_time: bounded('effective_time', 99_999_999),
  residual_lamp_life: bounded('residual_lamp_life', 9_999_999_999),
  status_code: number()
    .typeError(msg('status_code'))
    .required(msg('status_code'))
    .integer(msg('status_code'))
    .min(-INT_MAX, msg('status_code'))
    .max(INT_MAX, msg('status_code')),
  latitude: number()
    .typeError(msg('latitude'))
    .nullable()
    .optional()
    .min(-90, msg('latitude'))
    .max(90, msg('latitude')),
  longitude: number()
    .typeError(msg('longitude'))
    .nullable()
    .optional()
    .min(-180, msg('longitude'))
    .max(180, msg('longitude')),
  consumables_lot: text('consumables_lot', 64),
  lot_progressive_id: number()
    .typeError(msg('lot_progressive_id'))
    .nullable()
    .optional()
    .integer(msg('lot_progressive_id'))
    .min(0, msg('lot_progressive_id'))
    .max(INT_MAX, msg('lot_progressive_id')),
  batch_quantity: number()
    .typeError(msg('batch_quantity'))
    .nullable()
    .optional()
    .integer(msg('batch_quantity'))
    .min(1, msg('batch_quantity'))
    .max(1_000_000, msg('batch_quantity')),
  notes: text('notes', 2000),
  cycle_ts: string()
    .typeError(msg('cycle_ts'))
    .nullable()
    .optional()
    .test(
      'instant',
      msg('cycle_ts'),
      (value) => value === null || value === undefined || isCycleTimestamp(value),
    ),
})
  .noUnknown(msg('unknown_field'))
  .typeError(msg('sterilizations'))
  .nonNullable(msg('sterilizations'));

export const ingestionRecordsSchema = array(sterilizationClaimSchema)
  .typeError(msg('sterilizations'))
  // `sterilizations: null` fails here, with the field's message, not yup's own text.
  .nonNullable(msg('sterilizations'))
  .min(1, msg('sterilizations'))
  .max(MAX_RECORDS_PER_TOKEN, msg('sterilizations'));

/** The records a token carries, whichever of the two claim shapes it used. */
export function recordsOf(claims: Partial<IngestionClaims>): unknown {
  if (claims.sterilizations !== undefined) return claims.sterilizations;
  if (claims.sterilization !== undefined) return [claims.sterilization];
  return [];
}

/** Builds the claims for records about to be signed, valid for a few minutes from now. */
export function ingestionClaims(
  deviceSerial: string,
  records: SterilizationClaim[],
  nowSeconds = Math.floor(Date.now() / 1000),
): IngestionClaims {
  return {
    iss: deviceSerial,
    iat: nowSeconds,
    exp: nowSeconds + 5 * 60,
    ...(records.length === 1 ? { sterilization: records[0] } : { sterilizations: records }),
  };
}
