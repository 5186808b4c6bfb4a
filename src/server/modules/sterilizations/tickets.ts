/**
 * One-time export tickets: a download link carries a random ticket instead of the session token, so
 * the token never reaches a URL, a browser history or a log. Only the ticket's sha256 is stored; the
 * ticket names the user and the export, lives TICKET_TTL_SECONDS and is consumed by the first download.
 */
import { sql } from 'drizzle-orm';
import { type AbilityName, isRole, type Role } from '../../../shared/access/index.ts';
import { hashToken, newToken } from '../../auth/tokens.ts';
import type { Db } from '../../db/client.ts';
import { ApiError } from '../../http/envelope.ts';

export const TICKET_TTL_SECONDS = 60;

export const EXPORTS = ['sterilizations-filtered', 'sterilizations-ok'] as const;
export type ExportName = (typeof EXPORTS)[number];

/** The ability each export needs, when the ticket is made and again when it is used. */
export const EXPORT_ABILITY: Record<ExportName, AbilityName> = {
  'sterilizations-filtered': 'canDownloadSterilizations',
  'sterilizations-ok': 'canDownloadCustomers',
};

export interface TicketHolder {
  userId: number;
  role: Role;
  customerId: number;
}

export const invalidTicket = () => new ApiError(401, 'invalid_ticket');

export async function createTicket(
  db: Db,
  userId: number,
  exportName: ExportName,
): Promise<{ ticket: string; expires_at: string }> {
  const ticket = newToken();
  const expiresAt = new Date(Date.now() + TICKET_TTL_SECONDS * 1000);
  // Used and expired tickets are kept a little while (for the record), then swept here.
  await db.execute(sql`delete from export_tickets where expires_at < now() - interval '1 day'`);
  await db.execute(sql`
    insert into export_tickets (ticket_hash, user_id, export, expires_at)
    values (${hashToken(ticket)}, ${userId}, ${exportName}, ${expiresAt.toISOString()}::timestamptz)`);
  return { ticket, expires_at: expiresAt.toISOString() };
}

/**
 * Marks the ticket used and returns who it was made for. One atomic UPDATE, so two downloads racing
 * for one ticket cannot both win. Unknown, used, expired, made for the other export, or belonging to a
 * user disabled since: 401 invalid_ticket (a ticket for the wrong export is not consumed).
 */
export async function consumeTicket(
  db: Db,
  ticket: string | undefined,
  exportName: ExportName,
): Promise<TicketHolder> {
  if (!ticket) throw invalidTicket();
  const result = await db.execute<{ id: number; role: string; customer_id: number }>(sql`
    update export_tickets t set used_at = now()
    from users u
    where t.ticket_hash = ${hashToken(ticket)} and t.export = ${exportName} and t.used_at is null
      and t.expires_at > now() and u.id = t.user_id and u.deleted_at is null
    returning u.id, u.role, u.customer_id`);
  const row = result.rows[0];
  if (!row || !isRole(row.role)) throw invalidTicket();
  return { userId: Number(row.id), role: row.role, customerId: Number(row.customer_id) };
}
