/**
 * Condition keys of the kinds this directory raises (raise.ts explains what a key is). A condition of
 * a device belongs to the device's owner, so a reassigned device starts a new condition for its new
 * clinic and the old clinic's one clears.
 */
import { STERILIZATION_STATUS } from '#server/db/schema.ts';

export const conditionKeys = {
  failedCycle: (recordId: number) => `failed_cycle:${recordId}`,
  lampLifeLow: (deviceId: number, customerId: number) => `lamp_life_low:${deviceId}:${customerId}`,
  batch80: (batchId: number) => `batch_80:${batchId}`,
  batch100: (batchId: number) => `batch_100:${batchId}`,
  deviceSilent: (deviceId: number, customerId: number) => `device_silent:${deviceId}:${customerId}`,
  certificate: (
    kind: 'certificate_expiring' | 'certificate_expired',
    certificateId: number,
    customerId: number | null,
  ) => `${kind}:${certificateId}:${customerId ?? 'staff'}`,
  blockNotMined: (blockId: number) => `block_not_mined:${blockId}`,
  /** A block waits because its transaction would cost more per gas than ANCHOR_MAX_FEE_GWEI; cleared once mined. */
  anchorFeeCeiling: (blockId: number) => `anchor_fee_ceiling:${blockId}`,
  /** A device's sequence (of one owner) misses progressive ids; cleared when the missing records arrive. */
  recordGap: (deviceId: number, customerId: number) => `record_gap:${deviceId}:${customerId}`,
  /** One record came after a higher progressive id: a fact to look at, cleared only by a person. */
  outOfOrder: (recordId: number) => `record_out_of_order:${recordId}`,
  /** A device dated its newest cycle later than it arrived; cleared by a newest cycle dated right. */
  deviceClockAhead: (deviceId: number, customerId: number) => `device_clock_ahead:${deviceId}:${customerId}`,
  /** A clinic used a lot without a certificate in force; cleared when a certificate covers its records. */
  lotUncertified: (customerId: number, lot: string) => `lot_uncertified:${customerId}:${lot}`,
};

const STATUS_TEXT: Record<number, string> = {
  [STERILIZATION_STATUS.nulled]: 'Nulled',
  [STERILIZATION_STATUS.lampMalfunction]: 'Lamp malfunction',
  [STERILIZATION_STATUS.probeMalfunction]: 'Probe malfunction',
};

/** The status as the spec names it (English; the client shows its own translation of status_code). */
export function statusText(statusCode: number): string {
  return STATUS_TEXT[statusCode] ?? `Status ${statusCode}`;
}

/** Which batch level alert a count has reached, if any. */
export function batchLevel(count: number, quantity: number): 'batch_80' | 'batch_100' | null {
  if (count >= quantity) return 'batch_100';
  if (count * 100 >= quantity * 80) return 'batch_80';
  return null;
}

export const percentOf = (count: number, quantity: number) => Math.floor((count * 100) / quantity);
