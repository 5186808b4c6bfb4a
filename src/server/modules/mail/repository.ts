/** The outbox as the outbox view reads it: newest first, filtered by state and recipient. */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { isoInstant } from '#server/http/instants.ts';
import type { Mail, MailState } from '#shared/api/index.ts';

export interface MailFilter {
  state?: MailState | undefined;
  to?: string | undefined;
  maxAttempts: number;
}

function stateCondition(state: MailState | undefined, maxAttempts: number) {
  if (state === 'sent') return sql`sent_at is not null`;
  if (state === 'failed') return sql`sent_at is null and attempts >= ${maxAttempts}`;
  if (state === 'pending') return sql`sent_at is null and attempts < ${maxAttempts}`;
  return sql`true`;
}

type MailRow = Omit<Mail, 'state' | 'created_at' | 'sent_at' | 'language'> & {
  language: string;
  created_at: Date;
  sent_at: Date | null;
};

export async function listMailPage(
  db: Db,
  filter: MailFilter,
  paging: { limit: number; offset: number },
): Promise<{ rows: Mail[]; total: number }> {
  const to = filter.to?.trim().toLowerCase();
  // strpos rather than LIKE: the text is matched literally, % and _ included.
  const where = sql`${stateCondition(filter.state, filter.maxAttempts)}
    and ${to ? sql`strpos(lower(to_address), ${to}) > 0` : sql`true`}`;
  const [rows, totals] = await Promise.all([
    db.execute<MailRow>(sql`
      select id, to_address, language, subject, body_text, attempts, created_at, sent_at, last_error
      from mail_outbox where ${where}
      order by id desc limit ${paging.limit} offset ${paging.offset}`),
    db.execute<{ total: string }>(sql`select count(*) as total from mail_outbox where ${where}`),
  ]);
  return {
    rows: rows.rows.map((row) => ({
      id: Number(row.id),
      to_address: row.to_address,
      language: row.language === 'it' ? 'it' : 'en',
      subject: row.subject,
      body_text: row.body_text,
      attempts: Number(row.attempts),
      created_at: isoInstant(new Date(row.created_at)),
      sent_at: row.sent_at ? isoInstant(new Date(row.sent_at)) : null,
      last_error: row.last_error,
      state: row.sent_at ? 'sent' : Number(row.attempts) >= filter.maxAttempts ? 'failed' : 'pending',
    })),
    total: Number(totals.rows[0]?.total ?? 0),
  };
}
