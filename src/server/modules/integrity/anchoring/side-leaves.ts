/**
 * The leaves of a stored block after its records: its signed report versions', then its key events',
 * each in id order (build.ts puts them in that order). Whoever rebuilds a block's tree from the
 * database (calculateHash without a stored proof, the tests, the integrity sweep) needs them too.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { keyEventLeafBytes, reportLeafBytes } from '#shared/integrity/index.ts';

export async function blockSideLeaves(db: Db | Tx, blockId: number): Promise<Uint8Array[]> {
  const reports = await db.execute<{ report_id: number; version: number; sha256: string }>(sql`
    select report_id, version, sha256 from report_versions where blockchain_data_block_id = ${blockId} order by id`);
  const keyEvents = await db.execute<{
    id: number;
    device_serial: string;
    slot: number;
    action: string;
    thumbprint: string;
    effective_at: Date | string;
  }>(sql`
    select id, device_serial, slot, action, thumbprint, effective_at from device_key_events
    where blockchain_data_block_id = ${blockId} order by id`);
  return [
    ...reports.rows.map((row) => reportLeafBytes(String(row.report_id), String(row.version), row.sha256)),
    ...keyEvents.rows.map((row) => keyEventLeafBytes({ ...row, effective_at: new Date(row.effective_at) })),
  ];
}
