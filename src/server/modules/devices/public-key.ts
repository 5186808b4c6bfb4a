/**
 * Device public keys (the ones device JWTs are verified with): PEM-encoded SubjectPublicKeyInfo of an
 * RSA key of at least 2048 bits, as the browser's key generator exports them. PKCS#1 "RSA PUBLIC KEY"
 * blocks, certificates and private keys are refused even though node:crypto could derive a public key
 * from some of them: what is stored must be exactly what verification will use.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';

export const MIN_RSA_MODULUS_BITS = 2048;
/** RS256 verification cost grows with the modulus; nothing a device uses goes beyond this. */
export const MAX_RSA_MODULUS_BITS = 8192;

const SPKI_PEM = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----$/;

/** Line endings and surrounding blanks do not matter; everything else of the PEM text is kept. */
export function normalizePem(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

function parseRsaSpki(text: string): KeyObject | null {
  const pem = normalizePem(text);
  if (!SPKI_PEM.test(pem)) return null;
  try {
    const key = createPublicKey({ key: pem, format: 'pem', type: 'spki' });
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (key.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_MODULUS_BITS || bits > MAX_RSA_MODULUS_BITS)
      return null;
    return key;
  } catch {
    return null;
  }
}

export function isRsaSpkiPem(text: string): boolean {
  return parseRsaSpki(text) !== null;
}

/**
 * Whether two stored/submitted key texts are the same key: equal DER when both parse (so a re-wrapped
 * PEM of the same key is "unchanged"), equal normalized text otherwise.
 */
export function samePublicKey(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  const keyA = parseRsaSpki(a);
  const keyB = parseRsaSpki(b);
  if (keyA && keyB) {
    return keyA.export({ type: 'spki', format: 'der' }).equals(keyB.export({ type: 'spki', format: 'der' }));
  }
  return normalizePem(a) === normalizePem(b);
}
