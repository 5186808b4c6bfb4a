/**
 * A device's key history (docs/integrity.md, "Key history"): every change of a key slot is an
 * append-only event, written in the same transaction as the change and after the device's row is
 * locked, so its time (`clock_timestamp()`, never a time a client names) falls after every record the
 * old key was still good for and before every record the new key verifies.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { isoInstant } from '#server/http/instants.ts';
import type { BlockStatus, DeviceKeyEvent as KeyEventAnswer } from '#shared/api/index.ts';
import { keyThumbprint } from '#shared/integrity/device-key.ts';

export type KeySlot = 1 | 2;
export const KEY_SLOTS: readonly KeySlot[] = [1, 2];

/** The change of one slot: its key before and after (null: empty). */
export interface KeySlotChange {
  slot: KeySlot;
  before: string | null;
  after: string | null;
}

type Executor = Db | Tx;

const slotColumn = (slot: KeySlot) => (slot === 1 ? sql.raw('key_event_1') : sql.raw('key_event_2'));
const keyColumn = (slot: KeySlot) => (slot === 1 ? sql.raw('public_key') : sql.raw('public_key_2'));

/**
 * Writes the events of a device's key changes and points the device's slots at them. The caller's
 * transaction has already locked the device's row (its UPDATE did); `revokeReason` makes an emptied
 * slot a revocation rather than a removal.
 */
export async function recordKeyChanges(
  tx: Tx,
  deviceId: number,
  changes: readonly KeySlotChange[],
  actorUserId: number | null,
  revokeReason: string | null = null,
): Promise<void> {
  for (const { slot, before, after } of changes) {
    const key = after ?? before;
    if (key === null) continue;
    const action = after
      ? before
        ? 'replaced'
        : 'registered'
      : revokeReason !== null
        ? 'revoked'
        : 'removed';
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into device_key_events (device_id, device_serial, slot, action, public_key, thumbprint,
        effective_at, actor_user_id, reason)
      select ${deviceId}, d.device_serial, ${slot}, ${action}, ${key}, ${await keyThumbprint(key)},
        clock_timestamp(), ${actorUserId}, ${action === 'revoked' ? revokeReason : null}
      from devices d where d.id = ${deviceId}
      returning id`);
    const eventId = after ? Number(inserted.rows[0]?.id) : null;
    await tx.execute(sql`update devices set ${slotColumn(slot)} = ${eventId} where id = ${deviceId}`);
  }
}

/**
 * Gives a key stored without an event (a device written before key history was kept, or straight into
 * the database) its `registered` event, in force from now: a key's history never starts earlier than
 * the moment it was recorded.
 */
export async function ensureKeyEvents(db: Db, deviceId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const locked = await tx.execute<{
      public_key: string | null;
      public_key_2: string | null;
      key_event_1: number | null;
      key_event_2: number | null;
    }>(
      sql`select public_key, public_key_2, key_event_1, key_event_2 from devices where id = ${deviceId} for update`,
    );
    const device = locked.rows[0];
    if (!device) return;
    const missing: KeySlotChange[] = [];
    if (device.public_key && device.key_event_1 === null)
      missing.push({ slot: 1, before: null, after: device.public_key });
    if (device.public_key_2 && device.key_event_2 === null)
      missing.push({ slot: 2, before: null, after: device.public_key_2 });
    await recordKeyChanges(tx, deviceId, missing, null);
  });
}

/** Revokes the key of a slot: the slot empties and the key stays in the history with the reason. */
export async function revokeKey(
  tx: Tx,
  deviceId: number,
  slot: KeySlot,
  actorUserId: number,
  reason: string,
): Promise<{ revoked: string } | null> {
  const locked = await tx.execute<{ key: string | null }>(
    sql`select ${keyColumn(slot)} as key from devices where id = ${deviceId} for update`,
  );
  const key = locked.rows[0]?.key ?? null;
  if (!key) return null;
  await tx.execute(sql`update devices set ${keyColumn(slot)} = null where id = ${deviceId}`);
  await recordKeyChanges(tx, deviceId, [{ slot, before: key, after: null }], actorUserId, reason);
  return { revoked: key };
}

type KeyEventRow = {
  id: number;
  slot: number;
  action: KeyEventAnswer['action'];
  public_key: string;
  thumbprint: string;
  effective_at: Date | string;
  actor_user_id: number | null;
  actor_name: string | null;
  reason: string | null;
  in_force: boolean;
  device_serial: string;
  block_id: number | null;
  merkle_proof: string[] | null;
  block_status: string | null;
  block_root: string | null;
  block_transaction_hash: string | null;
  block_network: string | null;
};

/** The one place a key event row becomes the contract's DeviceKeyEvent. */
export function keyEventView(row: KeyEventRow): KeyEventAnswer {
  return {
    id: row.id,
    slot: row.slot === 2 ? 2 : 1,
    action: row.action,
    public_key: row.public_key,
    thumbprint: row.thumbprint,
    effective_at: isoInstant(new Date(row.effective_at)),
    actor: row.actor_user_id === null ? null : { id: row.actor_user_id, name: row.actor_name ?? '' },
    reason: row.reason,
    in_force: row.in_force,
    device_serial: row.device_serial,
    anchor:
      row.block_id === null
        ? null
        : {
            block_id: row.block_id,
            status: row.block_status as BlockStatus,
            merkle_root: row.block_root,
            transaction_hash: row.block_transaction_hash,
            network: row.block_network,
            proof: row.merkle_proof ?? [],
          },
  };
}

export const KEY_EVENT_SELECT = sql`
  e.id, e.slot, e.action, e.public_key, e.thumbprint, e.effective_at, e.actor_user_id,
  u.name as actor_name, e.reason,
  e.id in (coalesce(dv.key_event_1, 0), coalesce(dv.key_event_2, 0)) as in_force, e.device_serial,
  e.blockchain_data_block_id as block_id, e.merkle_proof, kb.status as block_status, kb.merkle_root as block_root,
  kb.transaction_hash as block_transaction_hash, kb.network as block_network`;
export const KEY_EVENT_FROM = sql`
  device_key_events e
  join devices dv on dv.id = e.device_id
  left join users u on u.id = e.actor_user_id
  left join blockchain_data_blocks kb on kb.id = e.blockchain_data_block_id`;

/** A device's key events, oldest first. */
export async function listKeyEvents(db: Executor, deviceId: number): Promise<KeyEventAnswer[]> {
  const result = await db.execute<KeyEventRow>(
    sql`select ${KEY_EVENT_SELECT} from ${KEY_EVENT_FROM} where e.device_id = ${deviceId} order by e.id`,
  );
  return result.rows.map(keyEventView);
}

/** Keys the device had and no longer has in a slot, with how each left (to tell a device why it is refused). */
export async function formerKeys(
  db: Executor,
  deviceId: number,
): Promise<{ publicKey: string; ended: 'replaced' | 'removed' | 'revoked' }[]> {
  const result = await db.execute<{ public_key: string; ended: 'replaced' | 'removed' | 'revoked' }>(sql`
    select e.public_key, next.action as ended
    from device_key_events e
    join lateral (select n.action from device_key_events n
      where n.device_id = e.device_id and n.slot = e.slot and n.id > e.id order by n.id limit 1) next on true
    where e.device_id = ${deviceId} and e.action in ('registered', 'replaced')
    order by e.id desc`);
  return result.rows.map((row) => ({ publicKey: row.public_key, ended: row.ended }));
}
