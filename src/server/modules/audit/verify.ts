/**
 * Walks the audit trail in chain order and recomputes every hash (`npm run audit:verify`). An entry
 * that was altered no longer matches its hash; a removed one breaks the link of the entry after it.
 */
import { asc, gt } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/db/schema.ts';
import { type AuditChanges, entryHash, GENESIS_HASH } from './hash-chain.ts';

export type ChainReport =
  | {
      ok: true;
      count: number;
      head: string;
      /** The last entry checked (null: none), to resume from. */
      headId: number | null;
      /** False when it stopped at `maxEntries` before the end of the trail. */
      complete: boolean;
    }
  | { ok: false; count: number; brokenId: number; reason: string };

/**
 * Where to start: after the entry `afterId`, whose hash is `afterHash` (a check done in parts, such as
 * the integrity sweep's, docs/backups.md), and how many entries to check at most. By default, the whole
 * trail from its start.
 */
export interface ChainResume {
  afterId: number;
  afterHash: string;
  maxEntries?: number;
}

/** Entries read per query: the trail can be long, memory stays flat. */
const BATCH = 1000;

export async function verifyAuditChain(db: Db, resume?: ChainResume): Promise<ChainReport> {
  let previous = resume?.afterHash ?? GENESIS_HASH;
  let previousId: number | null = resume && resume.afterId > 0 ? resume.afterId : null;
  let lastId = resume?.afterId ?? 0;
  let count = 0;
  const maxEntries = resume?.maxEntries ?? Number.POSITIVE_INFINITY;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(gt(auditLog.id, lastId))
      .orderBy(asc(auditLog.id))
      .limit(Math.min(BATCH, maxEntries - count));
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
    if (count >= maxEntries) return { ok: true, count, head: previous, headId: previousId, complete: false };
    if (rows.length < BATCH) return { ok: true, count, head: previous, headId: previousId, complete: true };
    lastId = previousId ?? lastId;
  }
}
