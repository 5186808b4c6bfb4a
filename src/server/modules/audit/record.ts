/**
 * recordAudit: the one way an audit entry is written, always inside the transaction of the change it
 * records (handlers go through writeAudited, which opens that transaction), so the change and its entry commit or roll back together (a refused or failed request
 * leaves neither). Writers are serialised by a transaction-scoped advisory lock, so the chain never
 * forks: each entry links to the one committed before it.
 */
import { sql } from 'drizzle-orm';
import type { Tx } from '#server/db/client.ts';
import { auditLog } from '#server/db/schema.ts';
import type { AuditAction, AuditEntityType } from '#shared/api/index.ts';
import { type AuditChanges, entryHash, GENESIS_HASH } from './hash-chain.ts';

/** Arbitrary constant (as MIGRATION_LOCK_KEY in db/client.ts): the audit chain's writer lock. */
const AUDIT_LOCK_KEY = 4_242_017_002;

export interface AuditActor {
  id: number | null;
  email: string | null;
  role: string | null;
}

export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: number | null;
  changes?: AuditChanges;
  reason?: string | null;
  clientAddress: string | null;
}

export async function recordAudit(tx: Tx, entry: AuditEntry): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`);
  // The head is read by a statement of its own after the lock: its snapshot then includes the entry
  // the previous holder committed (a statement taking the lock and reading the head would not), and
  // under REPEATABLE READ it would be the transaction's first snapshot, hence the check. The time is
  // read under the lock too, so times never go backwards along the chain, and in whole milliseconds,
  // so the stored value reads back exactly as it was hashed.
  const head = await tx.execute<{ prev_hash: string | null; now_ms: string; isolation: string }>(sql`
    select (select hash from audit_log order by id desc limit 1) as prev_hash,
      floor(extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms,
      current_setting('transaction_isolation') as isolation`);
  const row = head.rows[0];
  if (!row) throw new Error('audit head query returned no row');
  if (row.isolation !== 'read committed') {
    throw new Error(`recordAudit needs a READ COMMITTED transaction, not ${row.isolation}`);
  }
  const prevHash = row.prev_hash ?? GENESIS_HASH;
  const chained = {
    occurredAt: new Date(Number(row.now_ms)),
    actorUserId: entry.actor.id,
    actorEmail: entry.actor.email,
    actorRole: entry.actor.role,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    changes: entry.changes ?? {},
    reason: entry.reason ?? null,
    clientAddress: entry.clientAddress,
  };
  await tx.insert(auditLog).values({ ...chained, prevHash, hash: entryHash(prevHash, chained) });
}
