/**
 * A receipt that proves every link (docs/integrity.md §14), built as the verification window builds it
 * from the API and checked as /verify and verify-receipt check it: (1) the device's signature, (2) the
 * signed values are the record's, (3) the key in force and anchored, (4) the record anchored. Each
 * attack fails the link it breaks, naming why.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainRpcTransport } from '#server/test/chain-rpc.ts';
import { evidenceOf, recordTexts } from '#server/test/evidence.ts';
import { asDatabaseOwner, cycleClaim, makeCustomer, makeDevice } from '#server/test/fixtures.ts';
import { ingestRecords } from '#server/test/ingest.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';
import type { RecordEvidence, Sterilization } from '#shared/api/index.ts';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { recordFromForm } from '#shared/integrity/index.ts';
import { type ProofReceiptV2, verifyReceipt } from '#shared/integrity/receipt.ts';
import { recordReceiptV2 } from '#shared/integrity/record-receipt.ts';
import { withEvidence } from '#shared/integrity/verifiable-record.ts';

let t: TestApp;
let superAdmin: string;
let progressive = 770_000;

beforeAll(async () => {
  t = await createTestApp({ ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '2' });
  superAdmin = await t.login(DEMO.super);
}, 60_000);
afterAll(() => t?.close());

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} not in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A device with its own key, of a fresh clinic (with or without blockchain), and a record it signed. */
async function signedRecord(blockchain: boolean, claim: Partial<SterilizationClaim> = {}) {
  const customerId = await makeCustomer(t);
  await t.database.pool.query('update customers set enable_blockchain = $2 where id = $1', [
    customerId,
    blockchain,
  ]);
  const deviceId = await makeDevice(t, customerId);
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const set = await t.as(superAdmin, {
    method: 'PATCH',
    url: `/api/v1/customers/${customerId}/devices/${deviceId}`,
    ...formBody({ public_key: publicKey }),
  });
  const serial = set.json().data.device_serial as string;
  progressive += 1;
  const records = [cycleClaim(progressive - 1000), cycleClaim(progressive, { notes: 'signed', ...claim })];
  const privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const stored = await ingestRecords(t.app, { serial, privateKeyPem }, records);
  const id = stored.find((row) => row.progressive_id === progressive)!.id;
  return { customerId, deviceId, id };
}

async function recordOf(customerId: number, id: number): Promise<Sterilization> {
  const list = await t.as(superAdmin, {
    method: 'GET',
    url: `/api/v1/sterilizations?customerId=${customerId}`,
  });
  return (list.json().data.data as Sterilization[]).find((row) => row.id === id)!;
}

/** The receipt as the verification window makes it: the record, its evidence, the chain's identity. */
async function receiptOf(customerId: number, id: number): Promise<ProofReceiptV2> {
  const record = await recordOf(customerId, id);
  const evidence = await evidenceOf(t, superAdmin, id);
  const chain = (await t.as(superAdmin, { method: 'GET', url: '/api/v1/chain' })).json().data;
  // The token's digest from the evidence: a list row does not carry it.
  const texts = recordTexts(withEvidence(record, evidence));
  const data = record.blockchain_data;
  return recordReceiptV2(
    recordFromForm(texts),
    data
      ? {
          hashing_version: data.hashing_version,
          block_id: data.blockchain_data_block_id,
          proof: data.proof,
          network: data.blockchain_data_block.network,
          transaction_hash: data.blockchain_data_block.transaction_hash,
        }
      : null,
    chain,
    evidence,
    record.blockchain_enabled,
  )!;
}

const verify = (receipt: unknown) =>
  verifyReceipt(receipt as ProofReceiptV2, { transport: chainRpcTransport(t) });
const statuses = async (receipt: unknown) =>
  ((await verify(receipt)).links ?? []).map((link) => `${link.link}:${link.status}`);

async function anchored(customerId: number, id: number) {
  await waitUntil(async () => {
    const record = await recordOf(customerId, id);
    const evidence = (
      await t.as(superAdmin, { method: 'GET', url: `/api/v1/sterilizations/evidence/${id}` })
    ).json().data as RecordEvidence;
    return (
      ['MINED', 'FINAL'].includes(record.blockchain_data?.blockchain_data_block.status ?? '') &&
      ['MINED', 'FINAL'].includes(evidence.key_event?.anchor?.status ?? '')
    );
  }, 'record and key event mined');
}

describe('a receipt that proves every link', () => {
  it('passes all four links for an anchored record, and names the field changed in the database', async () => {
    const { customerId, id } = await signedRecord(true, {
      cycle_ts: new Date(Date.now() - 86_400_000).toISOString(),
    });
    await anchored(customerId, id);
    const receipt = await receiptOf(customerId, id);
    const result = await verify(receipt);
    expect(result.links?.map((link) => [link.link, link.status])).toEqual([
      ['device_signature', 'pass'],
      ['signed_values', 'pass'],
      ['key_in_force', 'pass'],
      ['anchored', 'pass'],
    ]);
    expect(result.ok).toBe(true);

    // An insider changes a stored value: a fresh receipt shows it to (2), by name, and to (4).
    await asDatabaseOwner(t.database, `update sterilizations set supplied_energy = 999 where id = $1`, [id]);
    const tampered = await verify(await receiptOf(customerId, id));
    const values = tampered.links?.find((link) => link.link === 'signed_values');
    expect(values).toMatchObject({ status: 'fail', values: { field: 'supplied_energy' } });
    expect(tampered.links?.find((link) => link.link === 'anchored')?.status).toBe('fail');
    expect(tampered.ok).toBe(false);
  });

  it('fails the link each attack breaks', async () => {
    const { customerId, id } = await signedRecord(true);
    await anchored(customerId, id);
    const receipt = await receiptOf(customerId, id);
    // One value of the record edited in the receipt: (2) names it, (4) no longer folds.
    expect(await statuses({ ...receipt, record: { ...receipt.record, notes: 'edited' } })).toEqual([
      'device_signature:pass',
      'signed_values:fail',
      'key_in_force:pass',
      'anchored:fail',
    ]);
    // The key event's proof of another event (another slot): (3).
    const otherSlot = { ...receipt.device.key, slot: receipt.device.key.slot === 1 ? 2 : 1 };
    expect(await statuses({ ...receipt, device: { ...receipt.device, key: otherSlot } })).toContain(
      'key_in_force:fail',
    );
    // Another device's key event: (3).
    const otherDevice = { ...receipt.device.key, device_serial: 'ZZ999999' };
    expect(await statuses({ ...receipt, device: { ...receipt.device, key: otherDevice } })).toContain(
      'key_in_force:fail',
    );
    // A JWS with whitespace, or its signature re-encoded: not the stored bytes.
    for (const jws of [
      ` ${receipt.device.jws}`,
      `${receipt.device.jws}\n`,
      receipt.device.jws.replace(/-/g, '+'),
    ]) {
      if (jws === receipt.device.jws) continue;
      const result = await verify({ ...receipt, device: { ...receipt.device, jws } });
      expect(result.ok, JSON.stringify(jws.slice(0, 8))).toBe(false);
    }
    // Another token's payload under this signature does not verify: (1).
    const [header, , signature] = receipt.device.jws.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ iss: 'X' })).toString('base64url')}.${signature}`;
    expect((await statuses({ ...receipt, device: { ...receipt.device, jws: forged } }))[0]).toBe(
      'device_signature:fail',
    );
  });

  it('for a clinic without blockchain, proves the signature and values and says the rest is unavailable', async () => {
    const { customerId, id } = await signedRecord(false);
    const receipt = await receiptOf(customerId, id);
    expect(receipt.blockchain).toBe(false);
    const result = await verify(receipt);
    expect(result.links?.map((link) => [link.link, link.status])).toEqual([
      ['device_signature', 'pass'],
      ['signed_values', 'pass'],
      ['key_in_force', 'unavailable'],
      ['anchored', 'unavailable'],
    ]);
    expect(result.ok).toBe(true);
  });
});
