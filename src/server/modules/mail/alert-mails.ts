/**
 * Turns newly raised alerts into outbox mails: one per alert and recipient who may see the alert and
 * chose (or by their role's default gets) its kind, in the recipient's language. The dedupe key makes
 * it safe to call twice for the same alert, from any process.
 */
import { sql } from 'drizzle-orm';
import { idArray } from '#server/db/array-parameter.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { isRole } from '#shared/access/index.ts';
import { type AlertKind, isAlertKind } from '#shared/alerts/index.ts';
import { effectiveEmailAlertKinds, type MailLanguage } from '#shared/notifications/index.ts';
import { type AlertForMail, alertMail } from './alert-messages.ts';
import { queueMail } from './outbox.ts';

/**
 * Kinds raised once per clinic and once more for staff (customer null): staff are mailed the staff
 * copy only, so one condition is one mail to them.
 */
const KINDS_WITH_STAFF_COPY: readonly AlertKind[] = ['certificate_expiring', 'certificate_expired'];

type AlertRow = {
  id: number;
  kind: string;
  customer_id: number | null;
  customer_name: string | null;
  device_serial: string | null;
  raised_at: Date | string;
  details: Record<string, unknown> | null;
};

type RecipientRow = {
  id: number;
  email: string;
  role: string;
  customer_id: number;
  language: string;
  email_alert_kinds: string[] | null;
};

function staffMayBeMailed(alert: { kind: AlertKind; customer_id: number | null }): boolean {
  return alert.customer_id === null || !KINDS_WITH_STAFF_COPY.includes(alert.kind);
}

/** Queues the mails of these alerts; answers how many mails were new. */
export async function queueAlertMails(
  db: Db | Tx,
  alertIds: readonly number[],
  appUrl: string,
): Promise<number> {
  if (alertIds.length === 0) return 0;
  const alerts = await db.execute<AlertRow>(sql`
    select a.id, a.kind, a.customer_id, c.name as customer_name, d.device_serial, a.raised_at, a.details
    from alerts a
    left join customers c on c.id = a.customer_id
    left join devices d on d.id = a.device_id
    where a.id = any(${idArray(alertIds)}::bigint[])`);
  const recipients = await db.execute<RecipientRow>(sql`
    select id, email, role, customer_id, language, email_alert_kinds from users where deleted_at is null`);
  let queued = 0;
  for (const row of alerts.rows) {
    if (!isAlertKind(row.kind)) continue;
    const kind = row.kind;
    const customerId = row.customer_id === null ? null : Number(row.customer_id);
    const alert: AlertForMail = {
      id: Number(row.id),
      kind,
      customerName: row.customer_name,
      deviceSerial: row.device_serial,
      raisedAt: new Date(row.raised_at),
      details: row.details ?? {},
    };
    for (const user of recipients.rows) {
      if (!isRole(user.role)) continue;
      const clinicUser = user.role === 'CUSTOMER';
      // A clinic user hears only of its own clinic's alerts; staff of every clinic's, once per condition.
      if (
        clinicUser
          ? customerId === null || Number(user.customer_id) !== customerId
          : !staffMayBeMailed({ kind, customer_id: customerId })
      )
        continue;
      if (!effectiveEmailAlertKinds(user.role, user.email_alert_kinds).includes(kind)) continue;
      const language: MailLanguage = user.language === 'it' ? 'it' : 'en';
      const { subject, text } = alertMail(alert, language, appUrl);
      const isNew = await queueMail(db, {
        dedupeKey: `alert:${alert.id}:user:${user.id}`,
        userId: Number(user.id),
        to: user.email,
        language,
        subject,
        text,
      });
      if (isNew) queued += 1;
    }
  }
  return queued;
}
