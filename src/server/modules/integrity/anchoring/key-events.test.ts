/**
 * Key events are anchored like records (docs/integrity.md §13): every device's, whatever its customer;
 * each event's leaf and proof fold into the root its block's transaction carries on chain. A record
 * of a version 3 block folds in with its evidence (the token's hash, its position, its cycle time).
 */
import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTexts, verifiableRecord } from '#server/test/evidence.ts';
import { makeCustomer, makeDevice } from '#server/test/fixtures.ts';
import { ingestRecords } from '#server/test/ingest.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';
import type { Sterilization } from '#shared/api/index.ts';
import { keyEventLeafHash, leafHash, processProof, recordFromForm } from '#shared/integrity/index.ts';

let t: TestApp;
let superAdmin: string;

beforeAll(async () => {
  t = await createTestApp({ ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '4' });
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

function keyPair() {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString().trim(),
    privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

const anchoredRoot = async (transactionHash: string) =>
  (await t.as(superAdmin, { method: 'GET', url: `/api/v1/transactions/${transactionHash}` })).json().data
    .decoded_inputs.params[1].value as string;

describe('anchoring key events', () => {
  it('anchors every key change, of a clinic without blockchain too', async () => {
    const customerId = await makeCustomer(t);
    await t.database.pool.query('update customers set enable_blockchain = $2 where id = $1', [
      customerId,
      false,
    ]);
    const deviceId = await makeDevice(t, customerId);
    const first = keyPair();
    const second = keyPair();
    for (const key of [first, second]) {
      const response = await t.as(superAdmin, {
        method: 'PATCH',
        url: `/api/v1/customers/${customerId}/devices/${deviceId}`,
        ...formBody({ public_key: key.publicKeyPem }),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const historyOf = async () =>
      (await t.as(superAdmin, { method: 'GET', url: `/api/v1/devices/${deviceId}/key-events` })).json()
        .data as {
        id: number;
        device_serial: string;
        slot: number;
        action: string;
        thumbprint: string;
        effective_at: string;
        anchor: { status: string; merkle_root: Hex; transaction_hash: Hex; proof: Hex[] } | null;
      }[];
    await waitUntil(
      async () =>
        (await historyOf()).every((event) => ['MINED', 'FINAL'].includes(event.anchor?.status ?? '')),
      'key events mined',
    );
    const events = await historyOf();
    expect(events.map((event) => event.action)).toEqual(['registered', 'replaced']);
    for (const event of events) {
      const anchor = event.anchor!;
      expect(processProof(keyEventLeafHash(event), anchor.proof)).toBe(anchor.merkle_root);
      expect(await anchoredRoot(anchor.transaction_hash)).toBe(anchor.merkle_root);
    }
    // A block is never both: a key event's leaf is never a record's.
    const kinds = await t.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from device_key_events e join sterilizations s
        on s.blockchain_data_block_id = e.blockchain_data_block_id and s.merkle_proof = e.merkle_proof`);
    expect(kinds.rows[0]?.n).toBe(0);
  });

  it('puts a signed record in a version 3 block, its leaf holding its evidence', async () => {
    const ownDevice = t.seed.devices.find((device) => device.customerId !== undefined)!;
    const enabled = await t.database.pool.query(
      `select c.enable_blockchain from customers c join devices d on d.customer_id = c.id where d.id = $1`,
      [ownDevice.id],
    );
    expect(enabled.rows[0].enable_blockchain).toBe(true);
    const stored = await ingestRecords(t.app, ownDevice, [
      {
        progressive_id: 880_001,
        supplied_energy: 300,
        nominal_time: 10,
        effective_time: 10,
        residual_lamp_life: 4000,
        status_code: 0,
        cycle_ts: new Date(Date.now() - 60_000).toISOString(),
      },
      {
        progressive_id: 880_002,
        supplied_energy: 301,
        nominal_time: 10,
        effective_time: 10,
        residual_lamp_life: 4000,
        status_code: 0,
      },
    ]);
    const ids = stored.map((row) => row.id);
    const rowsOf = async () =>
      (
        await t.as(superAdmin, {
          method: 'GET',
          url: `/api/v1/sterilizations?deviceId=${ownDevice.id}&customerId=${ownDevice.customerId}`,
        })
      )
        .json()
        .data.data.filter((row: Sterilization) => ids.includes(row.id)) as Sterilization[];
    await waitUntil(
      async () =>
        (await rowsOf()).every((row) =>
          ['MINED', 'FINAL'].includes(row.blockchain_data?.blockchain_data_block.status ?? ''),
        ),
      'records mined',
    );
    for (const row of await rowsOf()) {
      expect(row.blockchain_data!.hashing_version).toBe(3);
      // The token's digest comes with the record's evidence, not with its list row.
      const record = await verifiableRecord(t, superAdmin, row);
      expect(record.token_sha256).toMatch(/^[0-9a-f]{64}$/);
      const texts = recordTexts(record);
      const leaf = leafHash(recordFromForm(texts), 3);
      expect(processProof(leaf, row.blockchain_data!.proof as Hex[])).toBe(
        row.blockchain_data!.blockchain_data_block.merkle_root,
      );
      // Without its evidence the same values are another leaf.
      const bare = leafHash(recordFromForm({ ...texts, token_sha256: null }), 3);
      expect(bare).not.toBe(leaf);
    }
  });
});
