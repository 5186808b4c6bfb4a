// verify-receipt against the embedded devnet: a block of 3 records anchored with the server's own chain
// helpers, a receipt built from it as the browser does, and viem reaching the in-process node through a
// custom transport.
import { custom, type Hex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { type Chain, connectChain } from '#server/modules/integrity/chain.ts';
import {
  canonicalValue,
  HASHING_VERSION,
  INTEGRITY_FIELDS,
  type IntegrityField,
  type IntegrityRecord,
  leafHash,
  merkleTree,
} from '#shared/integrity/index.ts';
import { verifyReceipt as verifyWithConfirmations } from '#shared/integrity/receipt.ts';
import { V1_BLOCK } from '#shared/integrity/v1-block.fixture.ts';
import { type ProofReceipt, type ReceiptInput, verifyReceipt } from './verify-receipt.ts';

const RECORDS: IntegrityRecord[] = [1, 2, 3].map((id) => ({
  id,
  received_ts: `2025-03-0${id}T10:15:00.25+01:00`,
  device_serial: 'NP000201',
  progressive_id: 100 + id,
  supplied_energy: '12.50',
  nominal_time: 120,
  effective_time: 118,
  residual_lamp_life: 9000 - id,
  status_code: 0,
  latitude: '45.4642',
  longitude: '9.19',
  consumables_lot: id === 2 ? '' : 'LOT-7',
  lot_progressive_id: id,
  notes: id === 3 ? null : `cycle ${id} — ok`,
}));

let chain: Chain;
let receipt: ProofReceipt;
const verify = (candidate: ReceiptInput) =>
  verifyReceipt(candidate, { transport: custom({ request: chain.request }) });

beforeAll(async () => {
  chain = await connectChain(loadConfig({}).chain);
  const leaves = RECORDS.map((record) => leafHash(record));
  const { root, proofs } = merkleTree(leaves);
  const blockId = 4000 + Math.floor(Math.random() * 1_000_000);
  const prepared = await chain.prepareAnchor(blockId, root);
  await chain.broadcast(prepared.serialized);
  const mined = await chain.client.waitForTransactionReceipt({ hash: prepared.hash });
  expect(mined.status).toBe('success');

  const index = 1;
  receipt = {
    format: 'uvtrace-proof-receipt/1',
    hashing_version: HASHING_VERSION,
    record: Object.fromEntries(
      INTEGRITY_FIELDS.map((field) => [field, canonicalValue(field, RECORDS[index]![field])]),
    ) as Record<IntegrityField, string | null>,
    leaf: leaves[index]!,
    proof: proofs[index]!,
    root,
    block_id: blockId,
    network: 'devnet',
    chain_id: chain.chainId,
    contract_address: chain.contractAddress,
    transaction_hash: prepared.hash,
  };
}, 60_000);

const failing = (result: Awaited<ReturnType<typeof verifyReceipt>>) =>
  result.checks.filter((check) => !check.ok).map((check) => check.name);

describe('verifyReceipt', () => {
  it('passes every check for a genuine receipt', async () => {
    const result = await verify(receipt);
    expect(result.checks.map((check) => check.name)).toEqual([
      'format',
      'leaf',
      'root',
      'chain_id',
      'transaction',
      'contract',
      'status',
      'anchor_call',
    ]);
    expect(failing(result)).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it('fails the leaf check when a record field is tampered with', async () => {
    const result = await verify({ ...receipt, record: { ...receipt.record, supplied_energy: '12.6' } });
    expect(result.ok).toBe(false);
    expect(failing(result)).toEqual(['leaf']);
    // hashing_version 2: "" and null are one value (the record's stored "" lot), another text is not.
    expect(receipt.record.consumables_lot).toBeNull();
    expect(failing(await verify({ ...receipt, record: { ...receipt.record, consumables_lot: '' } }))).toEqual(
      [],
    );
    expect(
      failing(await verify({ ...receipt, record: { ...receipt.record, consumables_lot: 'LOT-7' } })),
    ).toEqual(['leaf']);
    expect(failing(await verify({ ...receipt, hashing_version: 1 }))).toEqual(['leaf']);
    expect(failing(await verify({ ...receipt, hashing_version: 4 as 1 }))).toEqual(['format', 'leaf']);
  });

  it('verifies a receipt of a block made with hashing_version 1 before version 2', async () => {
    // The frozen v1 block, anchored under its own id: its receipt as the modal gives it.
    const blockId = 5_000_000 + Math.floor(Math.random() * 1_000_000);
    const prepared = await chain.prepareAnchor(blockId, V1_BLOCK.root);
    await chain.broadcast(prepared.serialized);
    await chain.client.waitForTransactionReceipt({ hash: prepared.hash });
    const index = 2; // the record with "" in two text fields: version 1 keeps "" apart from null
    const stored = V1_BLOCK.records[index]!;
    const v1Receipt: ReceiptInput = {
      ...receipt,
      hashing_version: 1,
      record: Object.fromEntries(
        INTEGRITY_FIELDS.map((field) => [field, canonicalValue(field, stored[field], 1)]),
      ) as Record<IntegrityField, string | null>,
      leaf: V1_BLOCK.leaves[index]!,
      proof: V1_BLOCK.proofs[index]!,
      root: V1_BLOCK.root,
      block_id: blockId,
      transaction_hash: prepared.hash,
    };
    expect(v1Receipt.record.notes).toBe('');
    expect(failing(await verify(v1Receipt))).toEqual([]);
    expect(failing(await verify({ ...v1Receipt, hashing_version: 2 }))).toEqual(['leaf']);
    expect(failing(await verify({ ...v1Receipt, record: { ...v1Receipt.record, notes: null } }))).toEqual([
      'leaf',
    ]);
  });

  it('fails the root and anchor checks for a wrong root', async () => {
    const wrongRoot = `0x${'ab'.repeat(32)}` as Hex;
    const result = await verify({ ...receipt, root: wrongRoot });
    expect(result.ok).toBe(false);
    expect(failing(result)).toEqual(['root', 'anchor_call']);
    // A proof that does not lead to the anchored root fails the root check alone.
    expect(failing(await verify({ ...receipt, proof: [...receipt.proof].reverse() }))).toEqual(['root']);
  });

  it('fails the contract check for a wrong contract', async () => {
    const result = await verify({ ...receipt, contract_address: `0x${'12'.repeat(20)}` });
    expect(result.ok).toBe(false);
    expect(failing(result)).toEqual(['contract']);
  });

  it('fails the chain checks for a wrong chain, a wrong block id, an unknown transaction', async () => {
    expect(failing(await verify({ ...receipt, chain_id: 1 }))).toEqual(['chain_id']);
    expect(failing(await verify({ ...receipt, block_id: receipt.block_id + 1 }))).toEqual(['anchor_call']);
    const unknown = await verify({ ...receipt, transaction_hash: `0x${'00'.repeat(31)}01` });
    expect(failing(unknown)).toEqual(['transaction', 'contract', 'status', 'anchor_call']);
  });

  it('counts confirmations for the /verify page, which shares these checks', async () => {
    const transport = custom({ request: chain.request });
    const result = await verifyWithConfirmations(receipt, { transport, confirmations: true });
    expect(result.checks.map((check) => check.name)).toContain('confirmations');
    const confirmations = result.checks.find((check) => check.name === 'confirmations');
    expect(confirmations?.ok).toBe(true);
    expect(Number(confirmations?.values?.count)).toBeGreaterThanOrEqual(1);
    // The devnet's finalized block is its latest: a mined anchor is final there at once.
    expect(confirmations?.values?.final).toBe('yes');
    const unknown = await verifyWithConfirmations(
      { ...receipt, transaction_hash: `0x${'00'.repeat(31)}02` },
      { transport, confirmations: true },
    );
    expect(failing(unknown)).toEqual(['transaction', 'contract', 'status', 'confirmations', 'anchor_call']);
  });

  it('fails the chain checks when there is no node to ask', async () => {
    const result = await verifyReceipt(receipt, {});
    expect(failing(result)).toEqual(['chain_id', 'transaction', 'contract', 'status', 'anchor_call']);
    expect(result.checks.find((check) => check.name === 'chain_id')?.detail).toMatch(/--rpc/);
  });
});
