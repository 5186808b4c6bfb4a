/**
 * The audit trail's hash chain, version 1 (docs/audit.md, byte by byte). This file is the only place
 * an entry's hash is computed: recordAudit uses it to write, `npm run audit:verify` to check.
 *
 *   hash = sha256( bytes(prev_hash) ‖ UTF-8( canonical entry ) ), lower-case hex
 *
 * bytes(prev_hash) are the 32 bytes the previous entry's hex hash spells (32 zero bytes before the
 * first entry); the canonical entry is a JSON array with a fixed order of fields, see canonicalEntry.
 */
import { createHash } from 'node:crypto';

export const GENESIS_HASH = '0'.repeat(64);
const FORMAT = 'uvtrace/audit/1';

export type AuditValue = string | number | boolean | null;
/** A changed field: its old and new value, or only the fact that a secret changed (never its value). */
export type AuditChange = { old: AuditValue; new: AuditValue } | { redacted: true };
export type AuditChanges = Record<string, AuditChange>;

/** Exactly what the hash covers: every stored column but id, prev_hash and hash. */
export interface ChainedEntry {
  occurredAt: Date;
  actorUserId: number | null;
  actorEmail: string | null;
  actorRole: string | null;
  action: string;
  entityType: string;
  entityId: number | null;
  changes: AuditChanges;
  reason: string | null;
  clientAddress: string | null;
}

/**
 * JSON with object keys sorted (by UTF-16 code units, i.e. plain byte order for the ASCII field names
 * used here) and no whitespace, so that the jsonb the database hands back serialises to the same bytes
 * as the object that was hashed, whatever order jsonb keeps its keys in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('audit values must be finite');
    const text = JSON.stringify(value);
    if (text === undefined) throw new Error(`audit values cannot hold ${typeof value}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

/** The entry as the UTF-8 text that is hashed: a JSON array whose first element names the format. */
export function canonicalEntry(entry: ChainedEntry): string {
  return canonicalJson([
    FORMAT,
    entry.occurredAt.toISOString(),
    entry.actorUserId,
    entry.actorEmail,
    entry.actorRole,
    entry.action,
    entry.entityType,
    entry.entityId,
    entry.changes,
    entry.reason,
    entry.clientAddress,
  ]);
}

export function entryHash(prevHash: string, entry: ChainedEntry): string {
  if (!/^[0-9a-f]{64}$/.test(prevHash)) throw new Error(`not a sha256 hex: ${prevHash}`);
  return createHash('sha256')
    .update(Buffer.from(prevHash, 'hex'))
    .update(canonicalEntry(entry), 'utf8')
    .digest('hex');
}
