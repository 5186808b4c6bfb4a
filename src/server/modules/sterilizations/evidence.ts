/**
 * A record's evidence (GET /sterilizations/evidence/{id}): the token its device signed, exactly as it
 * was posted, the record's position among the token's records, and the key event whose key verified
 * it. Read under the caller's tenant scope, like the record.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { isoInstant } from '#server/http/instants.ts';
import type { RecordEvidence } from '#shared/api/index.ts';
import { KEY_EVENT_FROM, KEY_EVENT_SELECT, keyEventView } from '../devices/index.ts';

type EvidenceRow = {
  record_id: string;
  token_position: number | null;
  token_id: string | null;
  jws: string | null;
  sha256: string | null;
  issued_at: Date | string | null;
  received_at: Date | string | null;
  key_event_id: number | null;
};

/** The evidence of a record the scope may see (null: everything), or null when there is no such record. */
export async function recordEvidence(
  db: Db,
  id: number,
  scope: number | null,
): Promise<RecordEvidence | null> {
  const tenant = scope === null ? sql`true` : sql`s.customer_id = ${scope}`;
  const found = await db.execute<EvidenceRow>(sql`
    select s.id as record_id, s.token_position, t.id as token_id, t.jws, t.sha256, t.issued_at, t.received_at,
      t.key_event_id
    from sterilizations s left join device_tokens t on t.id = s.token_id
    where s.id = ${id} and ${tenant}`);
  const row = found.rows[0];
  if (!row) return null;
  if (row.token_id === null || row.key_event_id === null) {
    return { record_id: Number(row.record_id), token: null, position: null, key_event: null };
  }
  const keyEvent = await db.execute<Parameters<typeof keyEventView>[0]>(
    sql`select ${KEY_EVENT_SELECT} from ${KEY_EVENT_FROM} where e.id = ${row.key_event_id}`,
  );
  const event = keyEvent.rows[0];
  return {
    record_id: Number(row.record_id),
    token: {
      id: Number(row.token_id),
      jws: row.jws as string,
      sha256: row.sha256 as string,
      issued_at: isoInstant(new Date(row.issued_at as Date | string)),
      received_at: isoInstant(new Date(row.received_at as Date | string)),
    },
    position: row.token_position,
    key_event: event ? keyEventView(event) : null,
  };
}
