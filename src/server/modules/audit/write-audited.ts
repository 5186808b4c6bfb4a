/**
 * writeAudited: the one write path of a change the audit trail records. The change and its entry run
 * in one transaction, so they commit or roll back together (a refused or failed request leaves
 * neither); a handler says what it does, writes, and answers.
 */
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '#server/db/client.ts';
import type { AuthContext } from '#server/security/session-store.ts';
import type { AuditAction, AuditEntityType } from '#shared/api/index.ts';
import type { AuditChanges } from './hash-chain.ts';
import { type AuditActor, recordAudit } from './record.ts';

/** Who acts and from where. */
export interface AuditSource {
  actor: AuditActor;
  clientAddress: string | null;
}

/** The source of a request with a session: its user, from the request's address. */
export function auditSource(request: FastifyRequest, auth: AuthContext): AuditSource {
  return {
    actor: { id: auth.user.id, email: auth.user.email, role: auth.user.role },
    clientAddress: request.ip,
  };
}

/** What the entry will say, as far as the handler knows it before writing. */
export interface AuditIntent {
  action: AuditAction;
  entityType: AuditEntityType;
  entityId?: number | null;
  /** An update that changed no audited field (it saved the stored values) leaves no entry. */
  skipUnchanged?: boolean;
  /** Why, when the actor had to say (a second factor's reset, docs/accounts.md §5). */
  reason?: string;
}

/** What the write did: its answer to the handler, and what the entry records of it. */
export interface AuditedWrite<T> {
  result: T;
  /** Fields before and after; none for an entry that records an act (a login, a logout). */
  changes?: AuditChanges;
  /** The id of an entity the write itself made (a create). */
  entityId?: number;
  /** When only the write knows what it was (a user update that set a password). */
  action?: AuditAction;
}

/** An entry alone: an act that changes nothing the trail records, such as a failed login. */
export function writeAudited(db: Db, source: AuditSource, intent: AuditIntent): Promise<void>;
export function writeAudited<T>(
  db: Db,
  source: AuditSource,
  intent: AuditIntent,
  write: (tx: Tx) => Promise<AuditedWrite<T>>,
): Promise<T>;
export function writeAudited<T>(
  db: Db,
  source: AuditSource,
  intent: AuditIntent,
  write?: (tx: Tx) => Promise<AuditedWrite<T>>,
): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const done: AuditedWrite<T | undefined> = write ? await write(tx) : { result: undefined };
    const changes = done.changes ?? {};
    if (intent.skipUnchanged && Object.keys(changes).length === 0) return done.result;
    await recordAudit(tx, {
      ...source,
      action: done.action ?? intent.action,
      entityType: intent.entityType,
      entityId: done.entityId ?? intent.entityId ?? null,
      changes,
      reason: intent.reason ?? null,
    });
    return done.result;
  });
}
