/**
 * What the audit trail records of a user's change (docs/audit.md). Here rather than in the users
 * module because two modules change users: the users screens and the profile form (auth).
 */
import type { User } from '#server/db/schema.ts';
import { changedFields, isoOrNull, REDACTED } from './changes.ts';
import type { AuditChanges } from './hash-chain.ts';

/** Its fields, and of the password only that it was set — never the hash. */
export function userChanges(before: User | null, after: User): AuditChanges {
  const fields = (row: User) => ({
    customer_id: row.customerId,
    name: row.name,
    email: row.email,
    role: row.role,
    deleted_at: isoOrNull(row.deletedAt),
  });
  const changes = changedFields(before && fields(before), fields(after));
  if (before?.passwordHash !== after.passwordHash) changes.password = REDACTED;
  return changes;
}
