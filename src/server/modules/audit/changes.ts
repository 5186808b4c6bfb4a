/**
 * The `changes` of an audit entry from an entity's audited fields before and after: only the fields
 * that differ, as {old, new}. Each module states its entity's audited fields (never a password hash,
 * a token or a private key); instants travel as ISO strings.
 */
import type { AuditChange, AuditChanges, AuditValue } from './hash-chain.ts';

export type AuditFields = Record<string, AuditValue>;

/** A secret that changed: recorded as changed, its values never stored. */
export const REDACTED: AuditChange = { redacted: true };

export const isoOrNull = (value: Date | null | undefined): string | null => value?.toISOString() ?? null;

/** Fields whose value differs; a field absent on one side counts as null there. */
export function changedFields(before: AuditFields | null, after: AuditFields | null): AuditChanges {
  const changes: AuditChanges = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    const old = before?.[name] ?? null;
    const next = after?.[name] ?? null;
    if (old !== next) changes[name] = { old, new: next };
  }
  return changes;
}
