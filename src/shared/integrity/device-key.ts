/**
 * A device key's identity: its RFC 7638 JWK thumbprint (SHA-256, base64url), the same in the browser
 * and on the server, so a verifier can match the key that verified a token with its key event.
 */
import { calculateJwkThumbprint, exportJWK, importSPKI } from 'jose';

/** The thumbprint of an RSA public key given as SPKI PEM (docs/integrity.md, "Key history"). */
export async function keyThumbprint(spkiPem: string): Promise<string> {
  const key = await importSPKI(spkiPem, 'RS256', { extractable: true });
  const jwk = await exportJWK(key);
  return calculateJwkThumbprint({ kty: 'RSA', e: jwk.e, n: jwk.n }, 'sha256');
}
