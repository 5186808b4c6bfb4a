/**
 * What the audit trail records when sessions are ended on purpose (docs/accounts.md §3): the entry's
 * actor says who, its entity whom, its time when and its client address from where; the change says
 * how many sessions ended. Shared by the profile (one's own sessions) and the user page (an
 * administrator ending a user's).
 */
import type { AuditChanges } from '../modules/audit/hash-chain.ts';

export function endedChanges(count: number): AuditChanges {
  return { ended_sessions: { old: null, new: count } };
}
