/**
 * The leaves of a stored block after its records: its signed report versions', then its key events',
 * each in id order (build.ts puts them in that order). Whoever rebuilds a block's tree from the
 * database (calculateHash without a stored proof, the tests, the integrity sweep) needs them too.
 * Here too the rows a report version's and a key event's leaf are made of, for the worker that
 * collects them into a new block (collect.ts) and for the rebuild, so the two read the same columns.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { type KeyEventFields, keyEventLeafBytes, reportLeafBytes } from '#shared/integrity/index.ts';

/** The columns of a signed report version its leaf is made of. */
export type ReportLeafRow = { report_id: number; version: number; sha256: string };

export const reportLeaf = (row: ReportLeafRow): Uint8Array =>
  reportLeafBytes(String(row.report_id), String(row.version), row.sha256);

/** The device_key_events columns a key event's leaf is made of (KeyEventFields), as a query reads them. */
export const KEY_EVENT_FIELDS_SQL = sql`id, device_serial, slot, action, thumbprint, effective_at`;

/** A key event's leaf: effective_at is a time, whichever form the driver gave it in. */
export const keyEventLeaf = (row: KeyEventFields): Uint8Array =>
  keyEventLeafBytes({ ...row, effective_at: new Date(row.effective_at) });

export async function blockSideLeaves(db: Db | Tx, blockId: number): Promise<Uint8Array[]> {
  const reports = await db.execute<ReportLeafRow>(sql`
    select report_id, version, sha256 from report_versions where blockchain_data_block_id = ${blockId} order by id`);
  const keyEvents = await db.execute<KeyEventFields>(sql`
    select ${KEY_EVENT_FIELDS_SQL} from device_key_events
    where blockchain_data_block_id = ${blockId} order by id`);
  return [...reports.rows.map(reportLeaf), ...keyEvents.rows.map(keyEventLeaf)];
}
