/**
 * Alert kinds, shared by the server that raises them and the client that names them. `record_gap`
 * and `lot_uncertified` are raised by the record-gap and lot-compliance code through
 * src/server/alerts/raise.ts.
 */
export const ALERT_KINDS = [
  'failed_cycle',
  'lamp_life_low',
  'batch_80',
  'batch_100',
  'device_silent',
  'certificate_expiring',
  'certificate_expired',
  'block_not_mined',
  'record_gap',
  'lot_uncertified',
  'device_clock_ahead',
  'integrity_mismatch',
  'anchor_fee_ceiling',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Kinds about the manufacturer's own machinery: never shown to a clinic, stored without a customer. */
export const STAFF_ONLY_ALERT_KINDS: readonly AlertKind[] = [
  'block_not_mined',
  'integrity_mismatch',
  'anchor_fee_ceiling',
];

export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** The list's state filter: one state, or `active` (open or acknowledged, i.e. not resolved). */
export const ALERT_STATE_FILTERS = ['active', ...ALERT_STATES] as const;
export type AlertStateFilter = (typeof ALERT_STATE_FILTERS)[number];

/** Longest comment on an acknowledgement or a manual resolution. */
export const ALERT_COMMENT_MAX_LENGTH = 1000;

export function isAlertKind(value: unknown): value is AlertKind {
  return typeof value === 'string' && (ALERT_KINDS as readonly string[]).includes(value);
}
