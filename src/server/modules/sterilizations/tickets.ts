/**
 * One-time export tickets: a download link carries a random ticket instead of the session token, so
 * the token never reaches a URL, a browser history or a log. Only the ticket's sha256 is stored; the
 * ticket names the user, the session that asked for it and the export, lives TICKET_TTL_SECONDS, and
 * is deleted by the first download. It is good only while its session lives: logout, expiry or a
 * revocation of the session voids an unused ticket. Tickets are rows in PostgreSQL, so a ticket made
 * by one server process is taken, once, by whichever process serves the download.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { ApiError } from '#server/http/envelope.ts';
import { liveSession } from '#server/security/session-store.ts';
import { hashToken, newToken } from '#server/security/tokens.ts';
import { type AbilityName, isRole, type Role } from '#shared/access/index.ts';

export const TICKET_TTL_SECONDS = 60;

export const EXPORTS = [
  'sterilizations-filtered',
  'sterilizations-ok',
  'recall',
  'sterilizations-proof-bundle',
] as const;
export type ExportName = (typeof EXPORTS)[number];

/** The ability each export needs, when the ticket is made and again when it is used. */
export const EXPORT_ABILITY: Record<ExportName, AbilityName> = {
  'sterilizations-filtered': 'canDownloadSterilizations',
  'sterilizations-ok': 'canDownloadCustomers',
  // The recall file is the filtered list's records of one lot: whoever may download those may download it.
  recall: 'canDownloadSterilizations',
  // The filtered list's records with their proofs: the same records as the filtered CSV.
  'sterilizations-proof-bundle': 'canDownloadSterilizations',
};

export interface TicketHolder {
  userId: number;
  role: Role;
  customerId: number;
}

export const invalidTicket = () => new ApiError(401, 'invalid_ticket');

export async function createTicket(
  db: Db,
  holder: { userId: number; sessionId: number },
  exportName: ExportName,
): Promise<{ ticket: string; expires_at: string }> {
  const ticket = newToken();
  const expiresAt = new Date(Date.now() + TICKET_TTL_SECONDS * 1000);
  // Expired tickets are worth nothing: swept here.
  await db.execute(sql`delete from export_tickets where expires_at < now()`);
  await db.execute(sql`
    insert into export_tickets (ticket_hash, user_id, session_id, export, expires_at)
    values (${hashToken(ticket)}, ${holder.userId}, ${holder.sessionId}, ${exportName},
            ${expiresAt.toISOString()}::timestamptz)`);
  return { ticket, expires_at: expiresAt.toISOString() };
}

/**
 * Takes the ticket and returns who it was made for. One atomic DELETE … RETURNING, so two downloads
 * racing for one ticket, in one process or two, cannot both win. Unknown, used, expired, made for the
 * other export, its session ended, or its user disabled since: 401 invalid_ticket (a ticket for the
 * wrong export is not consumed).
 */
export async function consumeTicket(
  db: Db,
  ticket: string | undefined,
  exportName: ExportName,
  sessionIdleMinutes: number,
): Promise<TicketHolder> {
  if (!ticket) throw invalidTicket();
  const result = await db.execute<{ id: number; role: string; customer_id: number }>(sql`
    delete from export_tickets t
    using users u, sessions
    where t.ticket_hash = ${hashToken(ticket)} and t.export = ${exportName} and t.expires_at > now()
      and u.id = t.user_id and u.deleted_at is null
      and sessions.id = t.session_id and ${liveSession(sessionIdleMinutes)}
    returning u.id, u.role, u.customer_id`);
  const row = result.rows[0];
  if (!row || !isRole(row.role)) throw invalidTicket();
  return { userId: Number(row.id), role: row.role, customerId: Number(row.customer_id) };
}
