/**
 * A device key event as a leaf of a block (docs/integrity.md §13): keccak256 of the UTF-8 JSON
 * `["uvtrace/device-key/1", "<event id>", "<device serial>", "<slot>", "<action>", "<RFC 7638
 * thumbprint>", "<effective_at, canonical instant>"]`. Its own domain string keeps it from ever equalling
 * a record's or a report's leaf; anchored, it shows when each key came into force or left it.
 */
import { bytesToHex, type Hex, stringToBytes } from 'viem';
import { canonicalTimestamp } from './canonical.ts';
import { keccak256Bytes } from './hash.ts';

export const KEY_EVENT_LEAF_DOMAIN = 'uvtrace/device-key/1';

/** The fields of a key event its leaf commits to. */
export type KeyEventFields = {
  id: number | string;
  device_serial: string;
  slot: number | string;
  action: string;
  thumbprint: string;
  effective_at: string | Date;
};

/** The leaf preimage's text. */
export function keyEventLeafText(event: KeyEventFields): string {
  const effectiveAt =
    event.effective_at instanceof Date
      ? event.effective_at.toISOString()
      : (canonicalTimestamp(event.effective_at) ?? String(event.effective_at));
  return JSON.stringify([
    KEY_EVENT_LEAF_DOMAIN,
    String(event.id),
    event.device_serial,
    String(event.slot),
    event.action,
    event.thumbprint,
    effectiveAt,
  ]);
}

export function keyEventLeafBytes(event: KeyEventFields): Uint8Array {
  return keccak256Bytes(stringToBytes(keyEventLeafText(event)));
}

export function keyEventLeafHash(event: KeyEventFields): Hex {
  return bytesToHex(keyEventLeafBytes(event));
}
