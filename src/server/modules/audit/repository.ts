/** The audit trail as the audit view and the history panels read it: filtered, newest first. */
import { and, desc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/db/schema.ts';
import { isoInstant } from '#server/http/instants.ts';
import type { ReceivedWindow } from '#server/http/received-window.ts';
import type { AuditAction, AuditEntityType, AuditEntry } from '#shared/api/index.ts';
import type { AuditChanges } from './hash-chain.ts';

export interface AuditFilter {
  entityType?: string;
  entityId?: number;
  /** A user id (digits) or part of the actor's email, case-insensitive. */
  actor?: string;
  window: ReceivedWindow;
}

function conditions(filter: AuditFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.entityType) parts.push(eq(auditLog.entityType, filter.entityType));
  if (filter.entityId !== undefined) parts.push(eq(auditLog.entityId, filter.entityId));
  const actor = filter.actor?.trim().toLowerCase();
  if (actor) {
    // strpos rather than LIKE: the text is matched literally, % and _ included.
    const byEmail = sql`strpos(lower(${auditLog.actorEmail}), ${actor}) > 0`;
    parts.push(/^\d{1,9}$/.test(actor) ? or(eq(auditLog.actorUserId, Number(actor)), byEmail) : byEmail);
  }
  if (filter.window.from) parts.push(gte(auditLog.occurredAt, filter.window.from));
  if (filter.window.toExclusive) parts.push(lt(auditLog.occurredAt, filter.window.toExclusive));
  return and(...parts);
}

/**
 * What an entry's entity is called now and whose it is, read per listed row (the page's rows only: the
 * list is an index scan on id that stops at the page's end).
 */
const entityName = sql<string | null>`case ${auditLog.entityType}
  when 'customer' then (select c.name from customers c where c.id = ${auditLog.entityId})
  when 'user' then (select u.name from users u where u.id = ${auditLog.entityId})
  when 'device' then (select d.device_serial from devices d where d.id = ${auditLog.entityId})
  when 'certificate' then (select c.lot_number from certificates c where c.id = ${auditLog.entityId})
  when 'report' then (select r.period_from::text || ' – ' || r.period_to::text from reports r where r.id = ${auditLog.entityId})
  when 'alert' then (select a.kind from alerts a where a.id = ${auditLog.entityId})
end`;
const entityCustomerId = sql<number | null>`case ${auditLog.entityType}
  when 'customer' then (select c.id from customers c where c.id = ${auditLog.entityId})
  when 'user' then (select u.customer_id from users u where u.id = ${auditLog.entityId})
  when 'device' then (select d.customer_id from devices d where d.id = ${auditLog.entityId})
  when 'report' then (select r.customer_id from reports r where r.id = ${auditLog.entityId})
  when 'alert' then (select a.customer_id from alerts a where a.id = ${auditLog.entityId})
end`;

type AuditRow = Omit<AuditEntry, 'occurred_at' | 'action' | 'entity_type' | 'changes'> & {
  occurred_at: Date;
  action: string;
  entity_type: string;
  changes: unknown;
};

/**
 * The one place a stored entry becomes the contract's AuditEntry. The action and entity type columns
 * are text, written only by recordAudit from the contract's enums.
 */
function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    ...row,
    occurred_at: isoInstant(row.occurred_at),
    action: row.action as AuditAction,
    entity_type: row.entity_type as AuditEntityType,
    changes: row.changes as AuditChanges,
  };
}

/** Ids follow the chain, which follows commit order: id order is time order. */
export async function listAuditPage(
  db: Db,
  filter: AuditFilter,
  paging: { limit: number; offset: number },
): Promise<{ rows: AuditEntry[]; total: number }> {
  const where = conditions(filter);
  const [rows, totals] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        occurred_at: auditLog.occurredAt,
        actor_user_id: auditLog.actorUserId,
        actor_email: auditLog.actorEmail,
        actor_role: auditLog.actorRole,
        action: auditLog.action,
        entity_type: auditLog.entityType,
        entity_id: auditLog.entityId,
        entity_name: entityName,
        entity_customer_id: entityCustomerId,
        changes: auditLog.changes,
        reason: auditLog.reason,
        client_address: auditLog.clientAddress,
      })
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(paging.limit)
      .offset(paging.offset),
    db.select({ total: sql<string>`count(*)` }).from(auditLog).where(where),
  ]);
  return {
    rows: rows.map(toAuditEntry),
    total: Number(totals[0]?.total ?? 0),
  };
}
