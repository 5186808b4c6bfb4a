/**
 * The demo devices' key files: each device's private key in `<dataDir>/device-keys/<serial>.pem`
 * (the file name is the serial). The seed writes them, or reuses the ones there so that a re-seed keeps
 * the simulator's keys valid; the device simulator and the benches read them to sign records.
 */
import { createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { importPKCS8 } from 'jose';

export interface DeviceKeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

/** Where the seed writes each demo device's private key: `<dataDir>/device-keys/<serial>.pem`. */
export const deviceKeysDir = (dataDir: string) => path.join(dataDir, 'device-keys');

/** deviceKeysDir of dataDir, created when missing. */
export async function createDeviceKeysDir(dataDir: string): Promise<string> {
  const keysDir = deviceKeysDir(dataDir);
  await mkdir(keysDir, { recursive: true });
  return keysDir;
}

export function newKeyPair(): Promise<DeviceKeyPair> {
  return new Promise((resolve, reject) => {
    // Async: RSA generation runs on libuv's pool, in parallel, off the event loop.
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (error, publicKeyPem, privateKeyPem) =>
        error ? reject(error) : resolve({ publicKeyPem, privateKeyPem }),
    );
  });
}

/**
 * The key pair of the device with this serial: the one in keysDir when its file exists, else a new one
 * written there (private key only, mode 0600). keysDir null: a new pair and no file.
 */
export async function deviceKeyPair(serial: string, keysDir: string | null): Promise<DeviceKeyPair> {
  if (keysDir) {
    const file = path.join(keysDir, `${serial}.pem`);
    const existing = await readFile(file, 'utf8').catch(() => undefined);
    if (existing) {
      const publicKeyPem = createPublicKey(createPrivateKey(existing))
        .export({ type: 'spki', format: 'pem' })
        .toString();
      return { publicKeyPem, privateKeyPem: existing };
    }
    const pair = await newKeyPair();
    await writeFile(file, pair.privateKeyPem, { mode: 0o600 });
    return pair;
  }
  return newKeyPair();
}

/** The private keys under deviceKeysDir, by serial (only the listed serials, when a list is given). */
export async function loadDeviceKeys(
  dataDir: string,
  only?: readonly string[] | null,
): Promise<Map<string, CryptoKey>> {
  const keysDir = deviceKeysDir(dataDir);
  const serials = (await readdir(keysDir).catch(() => [] as string[]))
    .filter((file) => file.endsWith('.pem'))
    .map((file) => file.slice(0, -'.pem'.length))
    .filter((serial) => !only || only.includes(serial))
    .sort();
  return new Map(
    await Promise.all(
      serials.map(
        async (serial) =>
          [
            serial,
            await importPKCS8(await readFile(path.join(keysDir, `${serial}.pem`), 'utf8'), 'RS256'),
          ] as const,
      ),
    ),
  );
}
