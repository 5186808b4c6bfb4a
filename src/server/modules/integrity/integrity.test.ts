// The app with its anchor worker on (as in production): seeded records get anchored after start, and
// the calls give a verifier everything it needs — including a check that trusts only the chain.
import { sql } from 'drizzle-orm';
import { decodeFunctionData, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postChainRpc, rpcCall } from '#server/test/chain-rpc.ts';
import { recordTexts, verifiableRecord } from '#server/test/evidence.ts';
import { asDatabaseOwner, customerIdOf, makeDevice } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';
import type { Sterilization } from '#shared/api/index.ts';
import {
  HASHING_VERSION,
  type HashingVersion,
  INTEGRITY_FIELDS,
  leafHash,
  processProof,
  recordFromForm,
} from '#shared/integrity/index.ts';
import { V1_BLOCK } from '#shared/integrity/v1-block.fixture.ts';
import { ANCHOR_ABI } from './artifact.ts';

let t: TestApp;
let token: string;

async function waitForAnchoring(timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const left = await t.database.db.execute<{ n: string }>(sql`
      select count(*) as n from sterilizations s join devices d on d.id = s.device_id
      join customers c on c.id = d.customer_id
      left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where c.enable_blockchain and (b.id is null or b.status not in ('MINED', 'FINAL'))`);
    if (Number(left.rows[0]!.n) === 0) return;
    if (Date.now() - started > timeoutMs) throw new Error('records were not anchored in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type Listed = Record<string, unknown> & {
  id: number;
  blockchain_data: null | {
    hashing_version: number;
    blockchain_data_block_id: number;
    blockchain_data_block: { status: string; network: string; transaction_hash: Hex; merkle_root: Hex };
    proof: Hex[];
  };
};

async function listed(): Promise<Listed[]> {
  const response = await t.as(token, { method: 'GET', url: '/api/v1/sterilizations?page=1' });
  expectContract('listSterilizations', response, 200);
  return response.json().data.data;
}

/** The modal's form as docs/product.md §7 describes it: every field a string, a null one as "". */
const specFormOf = (row: Listed) => {
  const fields: Record<string, string> = {
    hashing_version: String(row.blockchain_data!.hashing_version),
    blockchain_data_block_id: String(row.blockchain_data!.blockchain_data_block_id),
  };
  for (const field of INTEGRITY_FIELDS) fields[field] = row[field] === null ? '' : String(row[field]);
  return fields;
};

const calculate = (caller: string, fields: Record<string, string>) =>
  t.as(caller, { method: 'POST', url: '/api/v1/transactions/calculateHash', ...formBody(fields) });

/**
 * The v1 fixture block as the code before hashing_version 2 stored it: its own blockchain-enabled
 * customer and device, the records with their block id, version 1 and proofs, and the block PENDING
 * with its frozen root, so the anchor worker anchors it like any block left by an earlier devnet.
 */
async function insertV1Block(): Promise<{ customerId: number; blockId: number }> {
  const pool = t.database.pool;
  const customer = await pool.query(
    `insert into customers (name, country, enable_blockchain) values ('V1 fixture clinic', 'IT', true) returning id`,
  );
  const customerId = Number(customer.rows[0].id);
  const deviceId = await makeDevice(t, customerId);
  await pool.query('update devices set device_serial = $1 where id = $2', [
    V1_BLOCK.records[0]!.device_serial,
    deviceId,
  ]);
  const block = await pool.query(
    `insert into blockchain_data_blocks (status, network, merkle_root, hashing_version)
     values ('PENDING', 'devnet', $1, 1) returning id`,
    [V1_BLOCK.root],
  );
  const blockId = Number(block.rows[0].id);
  for (const [i, r] of V1_BLOCK.records.entries()) {
    await pool.query(
      `insert into sterilizations (id, device_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot,
         lot_progressive_id, notes, hashing_version, blockchain_data_block_id, merkle_proof, customer_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1, $15, $16, $17)`,
      [
        r.id,
        deviceId,
        r.received_ts,
        r.progressive_id,
        r.supplied_energy,
        r.nominal_time,
        r.effective_time,
        r.residual_lamp_life,
        r.status_code,
        r.latitude,
        r.longitude,
        r.consumables_lot,
        r.lot_progressive_id,
        r.notes,
        blockId,
        V1_BLOCK.proofs[i],
        customerId,
      ],
    );
  }
  return { customerId, blockId };
}

/** Records of the demo customer with every nullable field null, and with "" stored in the text ones. */
async function insertRecordsWithoutValues(): Promise<number[]> {
  const customerId = await customerIdOf(t, DEMO.customer);
  const enabled = await t.database.pool.query('select enable_blockchain from customers where id = $1', [
    customerId,
  ]);
  expect(enabled.rows[0].enable_blockchain).toBe(true);
  const deviceId = await makeDevice(t, customerId);
  const inserted = await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id,
       notes)
     values ($1, $2, 1, 10.5, 15, 14, 800, 0, null, null, null, null, null),
            ($1, $2, 2, 10.5, 15, 14, 800, 0, 45.1, 9.2, '', 3, ''),
            ($1, $2, 3, 10.5, 15, 14, 800, 0, null, null, 'LOT-9', 4, null)
     returning id`,
    [deviceId, customerId],
  );
  return inserted.rows.map((row) => Number(row.id));
}

/** The version the row's block was made with (1 for the fixture block, 2 for new ones). */
const versionOf = (row: Listed) => row.blockchain_data!.hashing_version as HashingVersion;

let v1: { customerId: number; blockId: number };
let withoutValues: number[];

const formOf = (row: Listed, overrides: Record<string, string> = {}) => {
  const fields: Record<string, string> = {
    hashing_version: String(row.blockchain_data?.hashing_version ?? HASHING_VERSION),
    blockchain_data_block_id: String(row.blockchain_data?.blockchain_data_block_id ?? ''),
  };
  for (const field of INTEGRITY_FIELDS) {
    const value = row[field];
    if (value !== null && value !== undefined) fields[field] = String(value);
  }
  return { ...fields, ...overrides };
};

/** A version 3 leaf's evidence fields: the token's digest from the record's evidence, the rest from its row. */
const evidenceFieldsOf = async (row: Listed) => {
  const { token_sha256, token_position, cycle_ts } = recordTexts(
    await verifiableRecord(t, token, row as unknown as Sterilization),
  );
  return { token_sha256, token_position, cycle_ts };
};

beforeAll(async () => {
  t = await createTestApp({ ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '8' });
  token = await t.login(DEMO.super);
  v1 = await insertV1Block();
  withoutValues = await insertRecordsWithoutValues();
  await waitForAnchoring();
}, 60_000);
afterAll(() => t?.close());

describe('anchoring in the app', () => {
  it('lists anchored records with their proof; the proof leads to the anchored root', async () => {
    const rows = await listed();
    const anchored = rows.filter((row) => row.blockchain_data !== null);
    expect(anchored.length).toBeGreaterThan(0);
    for (const row of anchored) {
      const data = row.blockchain_data!;
      expect(['MINED', 'FINAL']).toContain(data.blockchain_data_block.status);
      expect(data.blockchain_data_block.network).toBe('devnet');
      // A list row does not carry its token's digest (its evidence does).
      expect(row).not.toHaveProperty('token_sha256');
      const leaf = leafHash(
        recordFromForm({ ...formOf(row), ...(await evidenceFieldsOf(row)) }),
        versionOf(row),
      );
      expect(processProof(leaf, data.proof)).toBe(data.blockchain_data_block.merkle_root);
    }
    // records of customers without blockchain stay without blockchain data
    const off = await t.database.db.execute<{ n: string }>(sql`
      select count(*) as n from sterilizations s join devices d on d.id = s.device_id
      join customers c on c.id = d.customer_id where not c.enable_blockchain and s.blockchain_data_block_id is not null`);
    expect(Number(off.rows[0]!.n)).toBe(0);
    // The worker makes new blocks with the current hashing_version, on the block and on its records;
    // only the v1 fixture block keeps 1.
    const versions = await t.database.db.execute<{ block: number; record: number | null; v1: boolean }>(sql`
      select distinct b.hashing_version as block, s.hashing_version as record, b.id = ${v1.blockId} as v1
      from blockchain_data_blocks b join sterilizations s on s.blockchain_data_block_id = b.id order by 1`);
    expect(versions.rows).toEqual([
      { block: 1, record: 1, v1: true },
      { block: HASHING_VERSION, record: HASHING_VERSION, v1: false },
    ]);
    // Each record says whether its customer anchors at all, so the modal can tell "not yet" from "never".
    expect(anchored.every((row) => row.blockchain_enabled === true)).toBe(true);
    const disabled = await t.database.db.execute<{ id: number }>(
      sql`select c.id from customers c where not c.enable_blockchain and exists
          (select 1 from sterilizations s join devices d on d.id = s.device_id where d.customer_id = c.id) limit 1`,
    );
    const response = await t.as(token, {
      method: 'GET',
      url: `/api/v1/sterilizations?customerId=${disabled.rows[0]!.id}`,
    });
    expectContract('listSterilizations', response, 200);
    const offRows = response.json().data.data as Listed[];
    expect(offRows.length).toBeGreaterThan(0);
    expect(offRows.every((row) => row.blockchain_enabled === false && row.blockchain_data === null)).toBe(
      true,
    );
  });

  it('GET /transactions/{id}: raw and decoded inputs, the root second', async () => {
    const row = (await listed()).find((item) => item.blockchain_data)!;
    const block = row.blockchain_data!.blockchain_data_block;
    const response = await t.as(token, {
      method: 'GET',
      url: `/api/v1/transactions/${block.transaction_hash}`,
    });
    expectContract('getTransaction', response, 200);
    const data = response.json().data;
    expect(data.decoded_inputs.function_name).toBe('anchor');
    expect(data.decoded_inputs.params[0]).toEqual({
      name: 'blockId',
      type: 'uint256',
      value: String(row.blockchain_data!.blockchain_data_block_id),
    });
    expect(data.decoded_inputs.params[1]).toEqual({
      name: 'root',
      type: 'bytes32',
      value: block.merkle_root,
    });
    const unknown = await t.as(token, { method: 'GET', url: `/api/v1/transactions/0x${'ab'.repeat(32)}` });
    expectContract('getTransaction', unknown, 404);
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/api/v1/transactions/${block.transaction_hash}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('POST /transactions/calculateHash: the leaf and the root with this leaf in place', async () => {
    const row = (await listed()).find((item) => item.blockchain_data)!;
    const root = row.blockchain_data!.blockchain_data_block.merkle_root;
    const same = await t.as(token, {
      method: 'POST',
      url: '/api/v1/transactions/calculateHash',
      ...formBody(formOf(row)),
    });
    expectContract('calculateHash', same, 200);
    expect(same.json().data).toEqual({
      // The form holds the 14 fields; the server adds the stored record's evidence to a version 3 leaf.
      hash: leafHash(recordFromForm({ ...formOf(row), ...(await evidenceFieldsOf(row)) }), versionOf(row)),
      hashing_version: HASHING_VERSION,
      block_hash: root,
    });
    expect(row.blockchain_data!.hashing_version).toBe(HASHING_VERSION);
    // 12.50 typed for 12.5: the same leaf
    const padded = await t.as(token, {
      method: 'POST',
      url: '/api/v1/transactions/calculateHash',
      ...formBody(
        formOf(row, { supplied_energy: `${row.supplied_energy}.000`.replace(/\.(\d+)\.000$/, '.$1000') }),
      ),
    });
    expect(padded.json().data.block_hash).toBe(root);
    const changed = await t.as(token, {
      method: 'POST',
      url: '/api/v1/transactions/calculateHash',
      ...formBody(formOf(row, { notes: 'tampered' })),
    });
    expect(changed.json().data.block_hash).not.toBe(root);
    expect(changed.json().data.hash).not.toBe(same.json().data.hash);
    const otherId = await t.as(token, {
      method: 'POST',
      url: '/api/v1/transactions/calculateHash',
      ...formBody(formOf(row, { id: '999999999' })),
    });
    expect(otherId.json().data.block_hash).not.toBe(root);
    const noBlock = await t.as(token, {
      method: 'POST',
      url: '/api/v1/transactions/calculateHash',
      ...formBody(formOf(row, { blockchain_data_block_id: '' })),
    });
    expect(noBlock.json().data.block_hash).toBeNull();
    const badVersion = await t.as(token, {
      method: 'POST',
      url: '/api/v1/transactions/calculateHash',
      ...formBody(formOf(row, { hashing_version: '7' })),
    });
    expectContract('calculateHash', badVersion, 422);
  });

  it("calculateHash: a member's root follows its stored proof, the same as the rebuilt block's", async () => {
    const rows = await listed();
    const sizes = new Map<number, number>();
    for (const row of rows.filter((item) => item.blockchain_data))
      sizes.set(
        row.blockchain_data!.blockchain_data_block_id,
        (sizes.get(row.blockchain_data!.blockchain_data_block_id) ?? 0) + 1,
      );
    const row = rows.find(
      (item) => item.blockchain_data && sizes.get(item.blockchain_data.blockchain_data_block_id)! > 1,
    )!;
    const other = rows.find(
      (item) =>
        item.id !== row.id &&
        item.blockchain_data?.blockchain_data_block_id === row.blockchain_data!.blockchain_data_block_id,
    )!;
    const root = row.blockchain_data!.blockchain_data_block.merkle_root;
    const answer = async () => (await calculate(token, formOf(row))).json().data.block_hash;
    expect(await answer()).toBe(root);
    // Without its stored proof the block is rebuilt from its records: the same root.
    const [saved] = (
      await t.database.db.execute<{ merkle_proof: string[] }>(
        sql`select merkle_proof from sterilizations where id = ${row.id}`,
      )
    ).rows;
    await t.database.db.execute(sql`update sterilizations set merkle_proof = null where id = ${row.id}`);
    try {
      expect(await answer()).toBe(root);
      // Rebuilt, another record changed in the database changes every member's root...
      await asDatabaseOwner(t.database, `update sterilizations set notes = 'tampered' where id = $1`, [
        other.id,
      ]);
      expect(await answer()).not.toBe(root);
    } finally {
      await t.database.db.execute(
        sql`update sterilizations set merkle_proof = string_to_array(${saved!.merkle_proof.join(',')}, ',') where id = ${row.id}`,
      );
    }
    try {
      // ...while through its proof this record, itself untouched, still leads to the anchored root,
      // and the changed one does not.
      expect(await answer()).toBe(root);
      const changed = (await listed()).find((item) => item.id === other.id)!;
      expect((await calculate(token, formOf(changed))).json().data.block_hash).not.toBe(root);
    } finally {
      await asDatabaseOwner(t.database, 'update sterilizations set notes = $1 where id = $2', [
        other.notes,
        other.id,
      ]);
    }
  });

  it('calculateHash: the spec form, "" for every null field, gives the anchored root (current hashing_version)', async () => {
    const rows = (await listed()).filter((row) => withoutValues.includes(row.id));
    expect(rows.map((row) => row.id).sort()).toEqual([...withoutValues].sort());
    for (const row of rows) {
      expect(row.blockchain_data!.hashing_version).toBe(HASHING_VERSION);
      const root = row.blockchain_data!.blockchain_data_block.merkle_root;
      const response = await calculate(token, specFormOf(row));
      expectContract('calculateHash', response, 200);
      expect(response.json().data, `record ${row.id}`).toMatchObject({
        hashing_version: HASHING_VERSION,
        block_hash: root,
      });
      // Without hashing_version the block's own version is used.
      const { hashing_version: _, ...unversioned } = specFormOf(row);
      expect((await calculate(token, unversioned)).json().data.block_hash).toBe(root);
    }
    // The nulls are what the test is about: null notes, null coordinates, null and "" lots.
    expect(
      rows.some((row) => row.notes === null && row.latitude === null && row.consumables_lot === null),
    ).toBe(true);
    expect(rows.some((row) => row.consumables_lot === '' && row.notes === '')).toBe(true);
    // Clearing a field that has a value changes the root.
    const withLot = rows.find((row) => row.consumables_lot === 'LOT-9')!;
    const cleared = await calculate(token, { ...specFormOf(withLot), consumables_lot: '' });
    expect(cleared.json().data.block_hash).not.toBe(
      withLot.blockchain_data!.blockchain_data_block.merkle_root,
    );
  });

  it('calculateHash: a block made with hashing_version 1 before version 2 still verifies', async () => {
    const response = await t.as(token, {
      method: 'GET',
      url: `/api/v1/sterilizations?customerId=${v1.customerId}`,
    });
    const rows = (response.json().data.data as Listed[]).sort((a, b) => a.id - b.id);
    expect(rows.map((row) => row.id)).toEqual(V1_BLOCK.records.map((record) => record.id));
    for (const [i, row] of rows.entries()) {
      const data = row.blockchain_data!;
      expect(data.hashing_version).toBe(1);
      expect(['MINED', 'FINAL']).toContain(data.blockchain_data_block.status);
      expect(data.blockchain_data_block.merkle_root).toBe(V1_BLOCK.root);
      // Version 1 leaves, as the proofs and the chain have them.
      expect(leafHash(recordFromForm(formOf(row)), 1)).toBe(V1_BLOCK.leaves[i]);
      expect(processProof(V1_BLOCK.leaves[i]!, data.proof)).toBe(V1_BLOCK.root);
      // multipart/form-data turns a value's "\n" into "\r\n" (HTML's form encoding), so a multi-line
      // note cannot travel through this form unchanged (reported separately); its proof is checked above.
      if (String(row.notes).includes('\n')) continue;
      const verified = await calculate(token, formOf(row));
      expect(verified.json().data).toEqual({
        hash: V1_BLOCK.leaves[i],
        hashing_version: 1,
        block_hash: V1_BLOCK.root,
      });
      // The same record hashed as version 2 is another leaf: it does not give the v1 root.
      const asV2 = await calculate(token, formOf(row, { hashing_version: '2' }));
      expect(asV2.json().data.hashing_version).toBe(2);
      expect(asV2.json().data.block_hash).not.toBe(V1_BLOCK.root);
    }
    // The chain holds the v1 root for this block id.
    const block = rows[0]!.blockchain_data!.blockchain_data_block;
    const anchoredTx = await t.as(token, {
      method: 'GET',
      url: `/api/v1/transactions/${block.transaction_hash}`,
    });
    expect(anchoredTx.json().data.decoded_inputs.params[1].value).toBe(V1_BLOCK.root);
  });

  it('calculateHash answers only about blocks the caller can see', async () => {
    const customer = await t.login(DEMO.customer);
    const v1Row = (
      await t.as(token, { method: 'GET', url: `/api/v1/sterilizations?customerId=${v1.customerId}` })
    ).json().data.data[0] as Listed;
    // Another tenant's block with its record's fields: not found, in the same envelope as other 404s.
    const foreign = await calculate(customer, formOf(v1Row));
    expectContract('calculateHash', foreign, 404);
    expect(foreign.json()).toMatchObject({ status: 'error', message: 'not_found' });
    const unknown = await calculate(customer, formOf(v1Row, { blockchain_data_block_id: '999999' }));
    expectContract('calculateHash', unknown, 404);
    expect(unknown.json()).toEqual(foreign.json());
    // Its own block answers; staff answer for every block.
    const own = (await listed()).find((row) => withoutValues.includes(row.id))!;
    const mine = await calculate(customer, specFormOf(own));
    expectContract('calculateHash', mine, 200);
    expect(mine.json().data.block_hash).toBe(own.blockchain_data!.blockchain_data_block.merkle_root);
    for (const email of [DEMO.admin, DEMO.care]) {
      const staff = await calculate(await t.login(email), formOf(v1Row));
      expect(staff.statusCode, email).toBe(200);
      expect(staff.json().data.block_hash).toBe(V1_BLOCK.root);
    }
    // Without a block id nothing is disclosed: the leaf only.
    const leafOnly = await calculate(customer, formOf(v1Row, { blockchain_data_block_id: '' }));
    expect(leafOnly.json().data.block_hash).toBeNull();
  });

  it('a third party verifies through the read-only JSON-RPC endpoint alone', async () => {
    const info = await t.app.inject({ method: 'GET', url: '/api/v1/chain' });
    expectContract('getChainInfo', info, 200);
    const chain = info.json().data;
    expect(chain).toMatchObject({
      network: 'devnet',
      chain_id: 31337,
      rpc_url: '/chain-rpc',
      rpc_urls: ['/chain-rpc'],
      explorer_tx_url: null,
    });

    const row = (await listed()).find((item) => item.blockchain_data)!;
    const data = row.blockchain_data!;
    const rpc = async (method: string, params: unknown[]) => {
      const response = await postChainRpc(t.app, rpcCall(method, params));
      expectContract('chainRpc', response, 200);
      return response.json();
    };
    const transaction = (await rpc('eth_getTransactionByHash', [data.blockchain_data_block.transaction_hash]))
      .result;
    expect(transaction.to.toLowerCase()).toBe(chain.contract_address.toLowerCase());
    const { args } = decodeFunctionData({ abi: ANCHOR_ABI, data: transaction.input });
    const leaf = leafHash(recordFromForm(formOf(row)), versionOf(row));
    expect(processProof(leaf, data.proof)).toBe(args?.[1]);
    const receipt = (await rpc('eth_getTransactionReceipt', [transaction.hash])).result;
    expect(receipt.status).toBe('0x1');

    const refused = await rpc('eth_sendRawTransaction', ['0x00']);
    expect(refused.error.code).toBe(-32601);
    const batch = await postChainRpc(t.app, [
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_accounts' },
    ]);
    expect(batch.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'method not available: eth_accounts' } },
    ]);
  });
});
