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
 * Groups each device's records into tokens of `size()` records (at most 100), as the device would send
 * them: yields each token's records when it closes (its last record generated), then the tokens still
 * open at the end, by arrival. A device's records keep their order.
 */
export function* deviceTokenGroups(rows: Iterable<HistoryRow>, size: () => number): Generator<HistoryRow[]> {
  const open = new Map<number, { rows: HistoryRow[]; target: number }>();
  for (const row of rows) {
    let group = open.get(row.deviceId);
    if (!group) {
      group = { rows: [], target: Math.min(100, Math.max(1, size())) };
      open.set(row.deviceId, group);
    }
    group.rows.push(row);
    if (group.rows.length >= group.target) {
      open.delete(row.deviceId);
      yield group.rows;
    }
  }
  const arrival = (group: HistoryRow[]) => Date.parse(group[group.length - 1]!.receivedTs);
  yield* [...open.values()].map((group) => group.rows).sort((a, b) => arrival(a) - arrival(b));
}

/** The records of a token group as stored: each keeps its cycle time and takes the token's arrival. */
export function* tokenRecords<T>(
  group: HistoryRow[],
  token: T,
): Generator<HistoryRow & { cycleTs: string; token: T; position: number; last: boolean }> {
  const arrival = group[group.length - 1]!.receivedTs;
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

/** A token ready to sign: what its device signs, and the key it signs with. */
export interface UnsignedToken {
  deviceId: number;
  keyEventId: number;
  /** The JWS signing input: base64url header and payload. */
  input: string;
  privateKeyPem: string;
  key: KeyObject;
  issuedAt: string;
}

/** Signs a token group with its device's key (RS256 compact JWS, `iat` the arrival). */
export class TokenSigner {
  private readonly keys = new Map<string, KeyObject>();
  private readonly devices: Map<number, SigningDevice>;
  constructor(devices: Map<number, SigningDevice>) {
    this.devices = devices;
  }

  /** The token's signing input and key (signing is the costly part: seed/parallel-signing.ts shares it out). */
  prepare(group: HistoryRow[]): UnsignedToken {
    const deviceId = group[0]!.deviceId;
    const device = this.devices.get(deviceId);
    if (!device) throw new Error(`device ${deviceId} has no signing key`);
    let key = this.keys.get(device.privateKeyPem);
    if (!key) {
      key = createPrivateKey(device.privateKeyPem);
      this.keys.set(device.privateKeyPem, key);
    }
    const iat = Math.floor(Date.parse(group[group.length - 1]!.receivedTs) / 1000);
    const claims =
      group.length === 1 ? { sterilization: claimOf(group[0]!) } : { sterilizations: group.map(claimOf) };
    return {
      deviceId,
      keyEventId: device.keyEventId,
      input: `${HEADER}.${base64url(JSON.stringify({ iss: device.serial, iat, exp: iat + 300, ...claims }))}`,
      privateKeyPem: device.privateKeyPem,
      key,
      issuedAt: new Date(iat * 1000).toISOString(),
    };
  }

  /** The stored token, from its signing input and RS256 signature. */
  complete(token: UnsignedToken, signature: Uint8Array): SeedToken {
    const jws = `${token.input}.${base64url(Buffer.from(signature))}`;
    return {
      deviceId: token.deviceId,
      keyEventId: token.keyEventId,
      jws,
      sha256: createHash('sha256').update(jws, 'ascii').digest('hex'),
      issuedAt: token.issuedAt,
    };
  }

  sign(group: HistoryRow[]): SeedToken {
    const token = this.prepare(group);
    return this.complete(token, rs256(token.input, token.key));
  }
}

/** RS256 over a JWS signing input (PKCS#1 v1.5: deterministic, the same bytes on any thread). */
export function rs256(input: string, key: KeyObject | string): Buffer {
  return sign('sha256', Buffer.from(input, 'ascii'), key);
}

/** Each device's records in tokens (deviceTokenGroups), signed (TokenSigner). */
export function* inDeviceTokens(
  rows: Iterable<HistoryRow>,
  devices: Map<number, SigningDevice>,
  size: () => number,
): Generator<TokenRow> {
  const signer = new TokenSigner(devices);
  for (const group of deviceTokenGroups(rows, size)) yield* tokenRecords(group, signer.sign(group));
}
