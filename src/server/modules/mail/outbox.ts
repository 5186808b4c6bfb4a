/**
 * The mail outbox (docs/adr/0021-e-mail-outbox.md): queueing is idempotent per dedupe key, and a
 * sender claims due mails with a lease so that two processes never send one row at the same time.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';

export interface QueuedMail {
  /** One key per reason and recipient (e.g. `alert:12:user:3`): queueing it again changes nothing. */
  dedupeKey: string;
  userId: number | null;
  to: string;
  language: string;
  subject: string;
  text: string;
  /** A password reset mail, whose link is added when it is sent (docs/accounts.md §4). */
  passwordResetId?: number;
}

export type ClaimedMail = {
  id: number;
  to_address: string;
  language: string;
  subject: string;
  body_text: string;
  attempts: number;
  password_reset_id: number | null;
};

/** Returns whether the mail was new (false: that key was queued before). */
export async function queueMail(db: Db | Tx, mail: QueuedMail): Promise<boolean> {
  const result = await db.execute(sql`
    insert into mail_outbox (dedupe_key, user_id, to_address, language, subject, body_text, password_reset_id)
    values (${mail.dedupeKey}, ${mail.userId}, ${mail.to}, ${mail.language}, ${mail.subject}, ${mail.text},
      ${mail.passwordResetId ?? null})
    on conflict (dedupe_key) do nothing
    returning id`);
  return result.rows.length > 0;
}

/**
 * Takes up to `limit` due mails and moves their next attempt `leaseSeconds` ahead in the same statement:
 * another sender skips locked rows and, after commit, no longer finds them due. A sender that dies
 * mid-send leaves the row to be retried when the lease ends.
 */
export async function claimDueMails(
  db: Db,
  options: { limit: number; leaseSeconds: number; maxAttempts: number },
): Promise<ClaimedMail[]> {
  const result = await db.execute<ClaimedMail>(sql`
    update mail_outbox m
    set attempts = m.attempts + 1,
      next_attempt_at = now() + make_interval(secs => ${options.leaseSeconds})
    where m.id in (
      select id from mail_outbox
      where sent_at is null and next_attempt_at <= now() and attempts < ${options.maxAttempts}
      order by next_attempt_at, id
      limit ${options.limit}
      for update skip locked)
    returning m.id, m.to_address, m.language, m.subject, m.body_text, m.attempts, m.password_reset_id`);
  return result.rows.map((row) => ({
    ...row,
    id: Number(row.id),
    attempts: Number(row.attempts),
    password_reset_id: row.password_reset_id === null ? null : Number(row.password_reset_id),
  }));
}

export async function markSent(db: Db, id: number, messageId: string): Promise<void> {
  await db.execute(
    sql`update mail_outbox set sent_at = now(), message_id = ${messageId}, last_error = null where id = ${id}`,
  );
}

/** A failed attempt waits twice as long as the one before (30 s, 1 min, 2 min … capped at an hour). */
export async function markFailed(db: Db, id: number, attempts: number, error: string): Promise<void> {
  const waitSeconds = Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
  await db.execute(sql`
    update mail_outbox set last_error = ${error.slice(0, 500)},
      next_attempt_at = now() + make_interval(secs => ${waitSeconds})
    where id = ${id}`);
}

/** A mail that can no longer be sent (its link expired first): shown as failed, never tried again. */
export async function markAbandoned(db: Db, id: number, reason: string, maxAttempts: number): Promise<void> {
  await db.execute(sql`
    update mail_outbox set last_error = ${reason}, attempts = greatest(attempts, ${maxAttempts}) where id = ${id}`);
}
