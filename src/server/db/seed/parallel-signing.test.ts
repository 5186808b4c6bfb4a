import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from './device-tokens.ts';
import { signedInParallel } from './parallel-signing.ts';
import type { HistoryRow } from './sterilization-history.ts';

const pem = (modulusLength: number) =>
  generateKeyPairSync('rsa', { modulusLength })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

function row(deviceId: number, progressiveId: number): HistoryRow {
  return {
    deviceId,
    customerId: 1,
    receivedTs: new Date(Date.UTC(2026, 0, 1, 0, progressiveId)).toISOString(),
    progressiveId,
    suppliedEnergy: '10',
    nominalTime: '5',
    effectiveTime: '5',
    residualLampLife: '100',
    statusCode: 0,
    latitude: null,
    longitude: null,
    consumablesLot: 'LOT-1',
    lotProgressiveId: progressiveId,
    notes: null,
    arrivedOutOfOrder: false,
  };
}

describe('signing tokens on two threads', () => {
  it('gives, in the groups’ order, byte for byte the tokens one thread signs', async () => {
    const signer = new TokenSigner(
      new Map([
        [1, { serial: 'DEV00001', privateKeyPem: pem(2048), keyEventId: 11 }],
        [2, { serial: 'DEV00002', privateKeyPem: pem(2048), keyEventId: 12 }],
      ]),
    );
    // More groups than one batch, of one to three records, alternating devices.
    const groups = Array.from({ length: 600 }, (_, index) =>
      Array.from({ length: 1 + (index % 3) }, (_, position) => row(1 + (index % 2), index * 3 + position)),
    );
    const signed: { group: HistoryRow[]; jws: string; sha256: string }[] = [];
    for await (const { group, token } of signedInParallel(groups, signer))
      signed.push({ group, jws: token.jws, sha256: token.sha256 });
    expect(signed.map((entry) => entry.group)).toEqual(groups);
    const alone = groups.map((group) => signer.sign(group));
    expect(signed.map((entry) => entry.jws)).toEqual(alone.map((token) => token.jws));
    expect(signed.map((entry) => entry.sha256)).toEqual(alone.map((token) => token.sha256));
  });

  it('signs nothing and ends for no groups', async () => {
    const signer = new TokenSigner(new Map());
    const signed = [];
    for await (const entry of signedInParallel([], signer)) signed.push(entry);
    expect(signed).toEqual([]);
  });
});
