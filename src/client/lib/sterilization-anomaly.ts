/**
 * The sterilization list's anomaly filter as the URL carries it (the list and the download page of its
 * CSV both read it): one of the contract's values, anything else dropped.
 */
import type { QueryOf } from '#shared/api/index.ts';

export type SterilizationAnomaly = NonNullable<QueryOf<'listSterilizations'>['anomaly']>;

export const STERILIZATION_ANOMALIES = [
  'out_of_order',
  'gaps',
] as const satisfies readonly SterilizationAnomaly[];

export function parseAnomaly(value: unknown): SterilizationAnomaly | undefined {
  return STERILIZATION_ANOMALIES.find((anomaly) => anomaly === value);
}
