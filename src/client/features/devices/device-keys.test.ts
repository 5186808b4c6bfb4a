import { importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { SAMPLE_STERILIZATION } from '#shared/ingestion/sample-payload.ts';
import { generateDeviceKeyPair, signTestToken } from './device-keys';

describe('device keys', () => {
  it('makes an RSA pair as SPKI and PKCS#8 PEM, and a test JWT the public key verifies', async () => {
    const pair = await generateDeviceKeyPair(0);
    expect(pair.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n?$/);
    expect(pair.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);

    const now = new Date();
    const test = await signTestToken('AB12CD34', pair.privateKey, now);
    expect(test.header).toEqual({ alg: 'RS256', typ: 'JWT' });
    const iat = Math.floor(now.getTime() / 1000);
    expect(test.payload).toEqual({
      iss: 'AB12CD34',
      iat,
      exp: iat + 5 * 60,
      sterilization: SAMPLE_STERILIZATION,
    });

    const publicKey = await importSPKI(pair.publicKey, 'RS256');
    const verified = await jwtVerify(test.token, publicKey, { issuer: 'AB12CD34', algorithms: ['RS256'] });
    expect(verified.payload.sterilization).toEqual(SAMPLE_STERILIZATION);
  });

  it('waits the simulated delay before answering', async () => {
    const started = performance.now();
    await generateDeviceKeyPair(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});
