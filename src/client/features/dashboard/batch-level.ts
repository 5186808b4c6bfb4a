/**
 * Usage level of a disposable-sleeve batch (docs/product.md §2 Dashboard, §9: thresholds at 80% and 100%).
 */
export type BatchLevel = 'ok' | 'warning' | 'danger';

export function batchLevel(count: number, quantity: number): BatchLevel {
  // A batch without a usable quantity cannot be used at all.
  if (!(quantity > 0)) return 'danger';
  // count / quantity < 0.8, written without division so 80% is exact.
  if (count * 5 < quantity * 4) return 'ok';
  if (count < quantity) return 'warning';
  return 'danger';
}

export const BATCH_LEVEL_COLOR = {
  ok: 'success',
  warning: 'warning',
  danger: 'error',
} as const satisfies Record<BatchLevel, 'success' | 'warning' | 'error'>;
