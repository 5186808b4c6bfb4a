import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isRsaSpkiPem, normalizePem, samePublicKey } from './public-key.ts';

const rsa = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits });
const spki = (pair: ReturnType<typeof rsa>) =>
  pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('device public keys', () => {
  const pair = rsa(2048);
  const pem = spki(pair);

  it('accepts an RSA 2048 SPKI PEM, with any line ends and blanks around it', () => {
    expect(isRsaSpkiPem(pem)).toBe(true);
    expect(isRsaSpkiPem(`\n  ${pem.replace(/\n/g, '\r\n')}  `)).toBe(true);
    expect(normalizePem(`${pem.replace(/\n/g, '\r\n')}\r\n`)).toBe(pem.trim());
  });

  it('refuses other encodings, other key types, small keys and private keys', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    for (const text of [
      '',
      'garbage',
      pair.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ec.toString(),
      spki(rsa(1024)),
      pem.replace('MII', 'XII'),
    ]) {
      expect(isRsaSpkiPem(text)).toBe(false);
    }
  });

  it('compares keys, not their wrapping', () => {
    expect(samePublicKey(pem, `${pem.replace(/\n/g, '\r\n')}\n`)).toBe(true);
    expect(samePublicKey(pem, spki(rsa(2048)))).toBe(false);
    expect(samePublicKey(null, undefined)).toBe(true);
    expect(samePublicKey(pem, null)).toBe(false);
    expect(samePublicKey('garbage', ' garbage ')).toBe(true);
  });
});
