// The app with its anchor worker on (as in production): seeded records get anchored after start, and
// the calls give a verifier everything it needs — including a check that trusts only the chain.
import { sql } from 'drizzle-orm';
import { decodeFunctionData, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HASHING_VERSION,
  INTEGRITY_FIELDS,
  leafHash,
  processProof,
  recordFromForm,
} from '../../../shared/integrity/index.ts';
import { ANCHOR_ABI } from '../../chain/artifact.ts';
import { expectContract } from '../../test/response-checks.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let token: string;

async function waitForAnchoring(timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const left = await t.database.db.execute<{ n: string }>(sql`
      select count(*) as n from sterilizations s join devices d on d.id = s.device_id
      join customers c on c.id = d.customer_id
      left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where c.enable_blockchain and (b.id is null or b.status <> 'MINED')`);
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

beforeAll(async () => {
  t = await createTestApp({ ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '8' });
  token = await t.login(DEMO.super);
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
      expect(data.blockchain_data_block.status).toBe('MINED');
      expect(data.blockchain_data_block.network).toBe('devnet');
      const leaf = leafHash(recordFromForm(formOf(row)));
      expect(processProof(leaf, data.proof)).toBe(data.blockchain_data_block.merkle_root);
    }
    // records of customers without blockchain stay without blockchain data
    const off = await t.database.db.execute<{ n: string }>(sql`
      select count(*) as n from sterilizations s join devices d on d.id = s.device_id
      join customers c on c.id = d.customer_id where not c.enable_blockchain and s.blockchain_data_block_id is not null`);
    expect(Number(off.rows[0]!.n)).toBe(0);
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
      hash: leafHash(recordFromForm(formOf(row))),
      hashing_version: 1,
      block_hash: root,
    });
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

  it('a third party verifies through the read-only JSON-RPC endpoint alone', async () => {
    const info = await t.app.inject({ method: 'GET', url: '/api/v1/chain' });
    expectContract('getChainInfo', info, 200);
    const chain = info.json().data;
    expect(chain).toMatchObject({
      network: 'devnet',
      chain_id: 31337,
      rpc_url: '/chain-rpc',
      explorer_tx_url: null,
    });

    const row = (await listed()).find((item) => item.blockchain_data)!;
    const data = row.blockchain_data!;
    const rpc = async (method: string, params: unknown[]) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/chain-rpc',
        payload: { jsonrpc: '2.0', id: 1, method, params },
      });
      expectContract('chainRpc', response, 200);
      return response.json();
    };
    const transaction = (await rpc('eth_getTransactionByHash', [data.blockchain_data_block.transaction_hash]))
      .result;
    expect(transaction.to.toLowerCase()).toBe(chain.contract_address.toLowerCase());
    const { args } = decodeFunctionData({ abi: ANCHOR_ABI, data: transaction.input });
    const leaf = leafHash(recordFromForm(formOf(row)));
    expect(processProof(leaf, data.proof)).toBe(args?.[1]);
    const receipt = (await rpc('eth_getTransactionReceipt', [transaction.hash])).result;
    expect(receipt.status).toBe('0x1');

    const refused = await rpc('eth_sendRawTransaction', ['0x00']);
    expect(refused.error.code).toBe(-32601);
    const batch = await t.app.inject({
      method: 'POST',
      url: '/chain-rpc',
      payload: [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'eth_accounts' },
      ],
    });
    expect(batch.json()).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7a69' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'method not available: eth_accounts' } },
    ]);
  });
});
