/**
 * An UPDATE by id that also answers the row as it was: read with FOR UPDATE in the same transaction,
 * so no concurrent write slips in between and the audit trail's old values are exact.
 */
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Tx } from './client.ts';

type TableWithId = PgTable & { id: PgColumn };

export async function updateRowById<T extends TableWithId>(
  tx: Tx,
  table: T,
  id: number,
  values: PgUpdateSetSource<T>,
): Promise<{ before: T['$inferSelect']; after: T['$inferSelect'] }> {
  // drizzle cannot infer a generic table's row type: the casts restate what the table declares.
  const [before] = (await tx
    .select()
    .from(table as PgTable)
    .where(eq(table.id, id))
    .for('update')) as T['$inferSelect'][];
  const [after] = (await tx
    .update(table)
    .set(values)
    .where(eq(table.id, id))
    .returning()) as T['$inferSelect'][];
  if (!before || !after) throw new Error(`row ${id} vanished during its update`);
  return { before, after };
}
