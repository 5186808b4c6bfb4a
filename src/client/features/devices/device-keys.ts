/**
 * Device keys and test tokens, made in the browser (docs/product.md §2 Customer devices): an RSA-2048 pair
 * per key slot, exported as PEM (public SPKI, private PKCS#8), and an RS256 test JWT with the fixed sample
 * sterilization the ingestion call accepts. Private keys live only in the page's memory: they are
 * never sent, stored or logged.
 */
import {
  decodeJwt,
  decodeProtectedHeader,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
  importPKCS8,
  SignJWT,
} from 'jose';
import type { IngestionClaims } from '#shared/ingestion/claims.ts';
import { sampleIngestionClaims } from '#shared/ingestion/sample-payload.ts';

/** docs/product.md §9: the key generation shows its progress for this long before the keys appear. */
export const KEY_GENERATION_DELAY_MS = 500;
export const KEY_ALGORITHM = 'RS256';

export type KeyPairPem = { publicKey: string; privateKey: string };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A new RSA-2048 pair as PEM texts, after the simulated delay. */
export async function generateDeviceKeyPair(delayMs = KEY_GENERATION_DELAY_MS): Promise<KeyPairPem> {
  await delay(delayMs);
  const { publicKey, privateKey } = await generateKeyPair(KEY_ALGORITHM, {
    modulusLength: 2048,
    extractable: true,
  });
  const [publicPem, privatePem] = await Promise.all([exportSPKI(publicKey), exportPKCS8(privateKey)]);
  return { publicKey: publicPem, privateKey: privatePem };
}

export type TestToken = {
  token: string;
  header: Record<string, unknown>;
  payload: IngestionClaims;
};

/** Signs the sample sterilization of `deviceSerial` with a PKCS#8 private key and decodes it back for display. */
export async function signTestToken(
  deviceSerial: string,
  privateKeyPem: string,
  now = new Date(),
): Promise<TestToken> {
  const key = await importPKCS8(privateKeyPem, KEY_ALGORITHM);
  const claims = sampleIngestionClaims(deviceSerial, now);
  const token = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: KEY_ALGORITHM, typ: 'JWT' })
    .sign(key);
  return {
    token,
    header: decodeProtectedHeader(token) as Record<string, unknown>,
    payload: decodeJwt(token) as unknown as IngestionClaims,
  };
}
