/**
 * What a newly raised alert sets off beyond its row: a mail to each recipient who chose its kind (queued
 * in the outbox, sent by the background sender) and a live update to whoever may see it.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { publishEvent } from '#server/event-bus/publish.ts';
import { queueAlertMails } from '../mail/index.ts';

export function createAlertAnnouncer(deps: { db: Db; appUrl: string; mailQueued?: () => void }) {
  const { db } = deps;
  return async (alertIds: number[]): Promise<void> => {
    if (alertIds.length === 0) return;
    const queued = await queueAlertMails(db, alertIds, deps.appUrl);
    if (queued > 0) deps.mailQueued?.();
    const rows = await db.execute<{ id: number; customer_id: number | null }>(
      sql`select id, customer_id from alerts where id = any(${`{${alertIds.map(Number).join(',')}}`}::bigint[])`,
    );
    for (const row of rows.rows) {
      void publishEvent(db, {
        type: 'alert.raised',
        alertId: Number(row.id),
        customerId: row.customer_id === null ? null : Number(row.customer_id),
      });
    }
  };
}
