import type { IntlShape } from 'react-intl';
import type { Alert } from '#shared/api/index.ts';

const STATUS_IDS: Record<number, string> = {
  1: 'sterilizations.status.nulled',
  2: 'sterilizations.status.lamp_malfunction',
  3: 'sterilizations.status.probe_malfunction',
};

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? value : '');
/** A count the message's plural reads (a number, never text: ICU plurals need one). */
const count = (value: unknown) => {
  const parsed = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(parsed) ? parsed : 0;
};

/** One sentence of what the alert is about, in the user's language, from its kind and details. */
export function alertSummary(intl: IntlShape, alert: Alert): string {
  const d = alert.details as Record<string, unknown>;
  const statusCode = typeof d.status_code === 'number' ? d.status_code : undefined;
  const status =
    statusCode !== undefined && STATUS_IDS[statusCode]
      ? intl.formatMessage({ id: STATUS_IDS[statusCode] })
      : text(d.status_text);
  const lastSeen = typeof d.last_received_ts === 'string' ? intl.formatDate(d.last_received_ts) : '';
  return intl.formatMessage(
    { id: `alerts.summary.${alert.kind}` },
    {
      serial: alert.device?.device_serial ?? text(d.device_serial),
      status,
      progressive: text(d.progressive_id),
      residual: count(d.residual_lamp_life),
      threshold: count(d.threshold ?? d.threshold_hours ?? d.threshold_minutes),
      percent: text(d.percent),
      count: text(d.sterilization_count),
      quantity: text(d.batch_quantity),
      lot: text(d.lot_code ?? d.lot_number),
      date: text(d.expiration_date),
      days: Math.abs(count(d.days_left)),
      block: text(d.block_id),
      blockStatus: text(d.status),
      maxFee: text(d.max_fee_gwei),
      baseFee: text(d.base_fee_gwei),
      lastSeen,
      never: d.last_received_ts === null ? 'yes' : 'no',
      subject: text(d.subject),
      subjectId: text(d.subject_id),
      check: text(d.check),
      field: typeof d.field === 'string' && d.field ? d.field : 'none',
    },
  );
}
