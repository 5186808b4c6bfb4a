/**
 * Demo records as their devices would have sent them: a device's consecutive cycles go out together in
 * one RS256 token signed with its own key (docs/integrity.md §12), and the server receives them at once.
 * So each generated record keeps the time its cycle ran as its `cycle_ts`, and takes its token's arrival
 * (the time of the token's last cycle) as its `received_ts`; records come out in arrival order, so ids
 * still grow with time. Signing is synchronous (node:crypto) and deterministic (PKCS#1 v1.5).
 */
import { createHash, createPrivateKey, type KeyObject, sign } from 'node:crypto';
import type { HistoryRow } from './sterilization-history.ts';

/** What a device signs with, and the key event its tokens name. */
export interface SigningDevice {
  serial: string;
  privateKeyPem: string;
  keyEventId: number;
}

/** A token as stored in device_tokens. */
export interface SeedToken {
  deviceId: number;
  keyEventId: number;
  jws: string;
  sha256: string;
  issuedAt: string;
}

/** A record and where it sits in its token. */
export interface TokenRow extends HistoryRow {
  cycleTs: string;
  /** The token the record came in. */
  token: SeedToken;
  position: number;
  /** The token's last record. */
  last: boolean;
}

const base64url = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');
const HEADER = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));

/** What the device put in the token for this record: its values as a device sends them (numbers). */
function claimOf(row: HistoryRow) {
  return {
    progressive_id: row.progressiveId,
    supplied_energy: Number(row.suppliedEnergy),
    nominal_time: Number(row.nominalTime),
    effective_time: Number(row.effectiveTime),
    residual_lamp_life: Number(row.residualLampLife),
    status_code: row.statusCode,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    consumables_lot: row.consumablesLot,
    lot_progressive_id: row.lotProgressiveId,
    notes: row.notes,
    cycle_ts: row.receivedTs,
  };
}

/**
 * Groups each device's records into tokens of `size()` records (at most 100) and signs them; yields the
 * records of each token when it closes (its last record generated), then those of the tokens still open
 * at the end, by arrival.
 */
export function* inDeviceTokens(
  rows: Iterable<HistoryRow>,
  devices: Map<number, SigningDevice>,
  size: () => number,
): Generator<TokenRow> {
  const keys = new Map<string, KeyObject>();
  const keyOf = (pem: string) => {
    if (!keys.has(pem)) keys.set(pem, createPrivateKey(pem));
    return keys.get(pem) as KeyObject;
  };
  const open = new Map<number, { rows: HistoryRow[]; target: number }>();

  function* close(deviceId: number, group: HistoryRow[]): Generator<TokenRow> {
    open.delete(deviceId);
    const device = devices.get(deviceId);
    if (!device) throw new Error(`device ${deviceId} has no signing key`);
    const arrival = group[group.length - 1]!.receivedTs;
    const iat = Math.floor(Date.parse(arrival) / 1000);
    const claims =
      group.length === 1 ? { sterilization: claimOf(group[0]!) } : { sterilizations: group.map(claimOf) };
    const input = `${HEADER}.${base64url(JSON.stringify({ iss: device.serial, iat, exp: iat + 300, ...claims }))}`;
    const jws = `${input}.${base64url(sign('sha256', Buffer.from(input, 'ascii'), keyOf(device.privateKeyPem)))}`;
    const token: SeedToken = {
      deviceId,
      keyEventId: device.keyEventId,
      jws,
      sha256: createHash('sha256').update(jws, 'ascii').digest('hex'),
      issuedAt: new Date(iat * 1000).toISOString(),
    };
    for (const [position, row] of group.entries())
      yield {
        ...row,
        cycleTs: row.receivedTs,
        receivedTs: arrival,
        token,
        position,
        last: position === group.length - 1,
      };
  }

  for (const row of rows) {
    if (!open.has(row.deviceId))
      open.set(row.deviceId, { rows: [], target: Math.min(100, Math.max(1, size())) });
    const group = open.get(row.deviceId) as { rows: HistoryRow[]; target: number };
    group.rows.push(row);
    if (group.rows.length >= group.target) yield* close(row.deviceId, group.rows);
  }
  const rest = [...open.entries()].sort(
    ([, a], [, b]) =>
      Date.parse(a.rows[a.rows.length - 1]!.receivedTs) - Date.parse(b.rows[b.rows.length - 1]!.receivedTs),
  );
  for (const [deviceId, group] of rest) yield* close(deviceId, group.rows);
}
