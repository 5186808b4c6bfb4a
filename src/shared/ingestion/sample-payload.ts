/**
 * The claims of a device's ingestion token (POST /ingest/sterilizations {token}: an RS256 JWT signed
 * with one of the device's private keys) and the fixed sample the device page signs with
 * "Generate test JWT" (SPEC §2 Customer devices). The ingestion handler and its tests build and read
 * tokens with these same types, so the browser's test token is exactly what a device sends.
 *
 * - `iss`: the device_serial (which device, hence which public keys verify the signature);
 * - `iat` / `exp`: issued at and expiry, in seconds since the epoch; a token lives 5 minutes;
 * - `sterilization`: one record, named as the Sterilization entity's fields (SPEC §3).
 */

/** A token is valid for this long after `iat`. */
export const INGESTION_TOKEN_LIFETIME_SECONDS = 5 * 60;

/** The record a device reports; `progressive_id` is its own per-device cycle counter. */
export type SterilizationClaim = {
  progressive_id: number;
  /** UV dose. */
  supplied_energy: number;
  nominal_time: number;
  /** Minutes. */
  effective_time: number;
  /** Hours. */
  residual_lamp_life: number;
  /** 0 ok, 1 nulled, 2 lamp malfunction, 3 probe malfunction. */
  status_code: number;
  latitude: number | null;
  longitude: number | null;
  consumables_lot: string | null;
  lot_progressive_id: number | null;
  notes: string | null;
};

export type IngestionClaims = {
  /** The device_serial of the sending device. */
  iss: string;
  iat: number;
  exp: number;
  sterilization: SterilizationClaim;
};

/** The claim names of a record, in the SPEC's order (verification modal, SPEC §2). */
export const STERILIZATION_CLAIM_FIELDS = [
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
] as const satisfies ReadonlyArray<keyof SterilizationClaim>;

/** Fixed sample values: an ok cycle (status 0) of a fresh device, first sleeve of a lot. */
export const SAMPLE_STERILIZATION: Readonly<SterilizationClaim> = Object.freeze({
  progressive_id: 1,
  supplied_energy: 125.5,
  nominal_time: 10,
  effective_time: 10.2,
  residual_lamp_life: 8760,
  status_code: 0,
  latitude: 45.4642,
  longitude: 9.19,
  consumables_lot: '092695',
  lot_progressive_id: 1,
  notes: 'Test record signed in the browser',
});

/** The claims of a sample token for `deviceSerial`, issued at `now`. */
export function sampleIngestionClaims(deviceSerial: string, now: Date = new Date()): IngestionClaims {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    iss: deviceSerial,
    iat,
    exp: iat + INGESTION_TOKEN_LIFETIME_SECONDS,
    sterilization: { ...SAMPLE_STERILIZATION },
  };
}
