/**
 * Walks the audit trail in chain order and recomputes every hash (`npm run audit:verify`). An entry
 * that was altered no longer matches its hash; a removed one breaks the link of the entry after it.
 */
import { asc, gt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { type AuditChanges, entryHash, GENESIS_HASH } from './hash-chain.ts';

export type ChainReport =
  | { ok: true; count: number; head: string }
  | { ok: false; count: number; brokenId: number; reason: string };

/** Entries read per query: the trail can be long, memory stays flat. */
const BATCH = 1000;

export async function verifyAuditChain(db: Db): Promise<ChainReport> {
  let previous = GENESIS_HASH;
  let previousId: number | null = null;
  let lastId = 0;
  let count = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(gt(auditLog.id, lastId))
      .orderBy(asc(auditLog.id))
      .limit(BATCH);
    for (const row of rows) {
      if (row.prevHash !== previous) {
        const before = previousId === null ? 'the start of the chain' : `entry ${previousId}`;
        return {
          ok: false,
          count,
          brokenId: row.id,
          reason: `its prev_hash does not match ${before}: an entry between them was removed or altered`,
        };
      }
      const recomputed = entryHash(row.prevHash, { ...row, changes: row.changes as AuditChanges });
      if (recomputed !== row.hash) {
        return {
          ok: false,
          count,
          brokenId: row.id,
          reason: 'its content does not match its hash: it was altered',
        };
      }
      previous = row.hash;
      previousId = row.id;
      count += 1;
    }
    if (rows.length < BATCH) return { ok: true, count, head: previous };
    lastId = previousId ?? lastId;
  }
}
