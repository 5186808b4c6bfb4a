/**
 * Private keys generated on one screen survive the navigation to the next (create → edit, reassign →
 * the device under its new customer) in this module's memory only: never in storage, the URL or
 * history state. Taking them removes them.
 */
export type KeySlot = 1 | 2;
export type PrivateKeys = Partial<Record<KeySlot, string>>;

const pending = new Map<number, PrivateKeys>();

export function handOverPrivateKeys(deviceId: number, keys: PrivateKeys): void {
  if (keys[1] || keys[2]) pending.set(deviceId, keys);
}

export function takePrivateKeys(deviceId: number): PrivateKeys {
  const keys = pending.get(deviceId) ?? {};
  pending.delete(deviceId);
  return keys;
}
