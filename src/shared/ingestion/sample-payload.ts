/**
 * The fixed sample record the device page signs with "Generate test JWT" (docs/product.md §2 Customer
 * devices). The token's shape (claims `iss` = device_serial, `iat`, `exp`, `sterilization`) and its rules
 * live in claims.ts, which the ingestion handler uses too: a browser test token is exactly what a device
 * sends, and the ingestion call accepts it once the matching public key is saved.
 */
import { type IngestionClaims, ingestionClaims, type SterilizationClaim } from './claims.ts';

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

/** The claims of the sample token of `deviceSerial`, issued at `now` (one record, `sterilization`). */
export function sampleIngestionClaims(deviceSerial: string, now: Date = new Date()): IngestionClaims {
  return ingestionClaims(deviceSerial, [{ ...SAMPLE_STERILIZATION }], Math.floor(now.getTime() / 1000));
}
