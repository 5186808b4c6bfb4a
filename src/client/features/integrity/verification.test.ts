import { describe, expect, it } from 'vitest';
import type { BlockchainData, RecordEvidence, Sterilization } from '#shared/api/index.ts';
import { leafHash, merkleTree, recordFromForm } from '#shared/integrity/index.ts';
import { V1_BLOCK } from '#shared/integrity/v1-block.fixture.ts';
import {
  type AnchorTransaction,
  type ChainRead,
  changedFields,
  computeHashes,
  explorerTxUrl,
  formRecord,
  hasFormData,
  initialForm,
  isPristine,
  proofReceipt,
  type VerifiableRecord,
  type VerificationInput,
  verification,
  withEvidence,
} from './verification';

const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const TX = `0x${'ab'.repeat(32)}`;

/** The worked example of docs/integrity.md: record 101 of a 3-leaf block. */
const record101 = {
  id: 101,
  device_id: 1,
  received_ts: '2025-03-14T09:26:53.589Z',
  device_serial: 'UVB00017',
  progressive_id: 41,
  supplied_energy: 12.5,
  nominal_time: 15,
  effective_time: 14.75,
  residual_lamp_life: 8421,
  status_code: 0,
  latitude: 45.464211,
  longitude: 9.191383,
  consumables_lot: 'LOT2503',
  lot_progressive_id: 7,
  notes: null,
  created_at: '2025-03-14T09:26:53.589Z',
  device: { device_serial: 'UVB00017', customer: { name: 'Clinic' } },
  blockchain_data: null,
  token_sha256: null,
} as unknown as VerifiableRecord;

const LEAF_101 = '0xbcc65b9047797be3ce82558d4ec3728b28d35985189ab23f38302674ed8badd8';
const LEAF_102 = '0x86d88d0254f87f0aea9229cb5146d36c8c69b7ec2e651a88598c0bf40f172fa4';
const LEAF_103 = '0xca2b59302d835b90cdd009a76e5e275ead164bb5df7b7122f7ee4a21cf1b1332';
const ROOT = '0x7a52ef18c7220a351b809d6f909839243a8c54d40b4e436c58d4822fe7d34cbb';
/** The same records in a version 2 block (docs/integrity.md §5.2). */
const V2_LEAF_101 = '0x8c19f41dd23833c3e894924971e6b2af02f9c35099fba8e0a9e6a5cd384e1bd9';
const V2_LEAF_102 = '0xc8f2417747da513fa6d2b567f74188a5f7e17c21411aef4972df92f3c55b13bf';
const V2_LEAF_103 = '0xc2ffb1b96c8f365f903751e15a8477f94a1c57991a0804998452c1580946ef4c';
const V2_ROOT = '0x8e16235981f3587964b801f782f9a8e60cb41bd59fff5d04c874e3173b905c22';

function blockchainData(status: 'PENDING' | 'SENT' | 'MINED' | 'FINAL' | 'FAILED' = 'MINED'): BlockchainData {
  return {
    hashing_version: 1,
    blockchain_data_block_id: 7,
    blockchain_data_block: {
      id: 7,
      status,
      network: 'devnet',
      transaction_hash: status === 'PENDING' ? null : TX,
      merkle_root: ROOT,
      hashing_version: 1,
      created_at: '2025-03-14T10:00:00.000Z',
      sent_at: null,
      mined_at: null,
      final_at: null,
    },
    proof: [LEAF_102, LEAF_103],
  };
}

function anchorTx(overrides: Partial<AnchorTransaction> = {}): AnchorTransaction {
  return {
    hash: TX,
    to: CONTRACT.toLowerCase(),
    input: '0xa0ca2d08',
    succeeded: true,
    functionName: 'anchor',
    params: [
      { name: 'blockId', type: 'uint256', value: '7' },
      { name: 'root', type: 'bytes32', value: ROOT },
    ],
    ...overrides,
  };
}

describe('form and hashes', () => {
  it('computes the worked example leaf and root from the record as the API gives it', () => {
    const data = blockchainData();
    const hashes = computeHashes(initialForm(record101), record101, data);
    expect(hashes.leaf).toBe(LEAF_101);
    expect(hashes.root).toBe(ROOT);
  });

  it('treats typed decimals canonically and keeps null text apart from edits', () => {
    const form = { ...initialForm(record101), supplied_energy: '12.50', nominal_time: '015.0' };
    expect(computeHashes(form, record101, blockchainData())).toEqual({ leaf: LEAF_101, root: ROOT });
    // notes was null: an empty input stays null; a stored "" stays "".
    expect(formRecord(form, record101).notes).toBeNull();
    expect(formRecord(form, { ...record101, notes: '' }).notes).toBe('');
    // Any edit changes the leaf.
    expect(computeHashes({ ...form, progressive_id: '42' }, record101, blockchainData()).leaf).not.toBe(
      LEAF_101,
    );
  });

  it('matches the shared module, which needs null (not the input\'s "") for an absent text', () => {
    const leaves = [LEAF_101, LEAF_102, LEAF_103] as `0x${string}`[];
    const { root, proofs } = merkleTree(leaves);
    expect(root).toBe(ROOT);
    expect(proofs[0]).toEqual([LEAF_102, LEAF_103]);
    expect(leafHash(formRecord(initialForm(record101), record101), 1)).toBe(LEAF_101);
    // Version 1: the raw form says notes = "", a different value from the stored null.
    expect(leafHash(recordFromForm(initialForm(record101)), 1)).not.toBe(LEAF_101);
  });

  it("hashes with the version of the record's block: version 2 reads an empty input as no value", () => {
    const v2 = { ...blockchainData(), hashing_version: 2, proof: [V2_LEAF_102, V2_LEAF_103] };
    const hashes = computeHashes(initialForm(record101), record101, v2);
    expect(hashes).toEqual({ leaf: V2_LEAF_101, root: V2_ROOT });
    // The raw form ("" for null, as docs/product.md §7 sends it) is the same record in version 2.
    expect(leafHash(recordFromForm(initialForm(record101)), 2)).toBe(V2_LEAF_101);
    // A record not in a block yet is hashed as the current version (3: with its evidence, here none).
    expect(computeHashes(initialForm(record101), record101, null).leaf).toBe(
      leafHash(recordFromForm(initialForm(record101)), 3),
    );
    expect(computeHashes(initialForm(record101), record101, null).leaf).not.toBe(V2_LEAF_101);
    // Clearing a note that has a value changes the leaf.
    const withNotes = { ...record101, notes: 'ok' } as Sterilization;
    const cleared = { ...initialForm(withNotes), notes: '' };
    expect(computeHashes(cleared, withNotes, v2).leaf).toBe(V2_LEAF_101);
    expect(computeHashes(initialForm(withNotes), withNotes, v2).leaf).not.toBe(V2_LEAF_101);
  });

  it('verifies a block made with version 1 before version 2 (frozen fixture)', () => {
    for (const [i, stored] of V1_BLOCK.records.entries()) {
      const record = { ...record101, ...stored } as unknown as VerifiableRecord;
      const data = { ...blockchainData(), proof: V1_BLOCK.proofs[i]! };
      expect(computeHashes(initialForm(record), record, data)).toEqual({
        leaf: V1_BLOCK.leaves[i],
        root: V1_BLOCK.root,
      });
      expect(proofReceipt({ ...record, blockchain_data: data }, undefined)?.leaf).toBe(V1_BLOCK.leaves[i]);
    }
  });

  it("hashes a version 3 record with its token's digest and position from its evidence", () => {
    const listed = { ...record101, token_id: 5, token_position: 2, cycle_ts: null } as Sterilization;
    const sha256 = 'c'.repeat(64);
    const evidence = {
      record_id: 101,
      token: {
        id: 5,
        jws: 'a.b.c',
        sha256,
        issued_at: record101.received_ts,
        received_at: record101.received_ts,
      },
      position: 2,
      key_event: null,
    } as RecordEvidence;
    const complete = withEvidence(listed, evidence);
    expect(complete).toMatchObject({ token_sha256: sha256, token_position: 2 });
    const expected = leafHash(
      recordFromForm({ ...initialForm(listed), token_sha256: sha256, token_position: '2' }),
      3,
    );
    expect(computeHashes(initialForm(complete), complete, null).leaf).toBe(expected);
    // Without the evidence the digest is unknown: another leaf, which would not verify.
    const bare = withEvidence(listed, undefined);
    expect(bare.token_sha256).toBeNull();
    expect(computeHashes(initialForm(bare), bare, null).leaf).not.toBe(expected);
  });

  it('names the fields that differ from the stored record, as the leaf compares them', () => {
    const form = initialForm(record101);
    expect(changedFields(form, record101, 2)).toEqual([]);
    expect(isPristine(form, record101)).toBe(true);
    // The same value typed differently is no change, but there is something to restore.
    const retyped = { ...form, supplied_energy: '12.50' };
    expect(changedFields(retyped, record101, 2)).toEqual([]);
    expect(isPristine(retyped, record101)).toBe(false);
    const edited = { ...form, supplied_energy: '13', notes: 'added', consumables_lot: '' };
    expect(changedFields(edited, record101, 2)).toEqual(['supplied_energy', 'consumables_lot', 'notes']);
    // A stored "" lot cleared in the input: no change in either version.
    const emptyLot = { ...record101, consumables_lot: '' } as Sterilization;
    expect(changedFields(initialForm(emptyLot), emptyLot, 1)).toEqual([]);
  });

  it('has no root for a malformed proof', () => {
    const data = { ...blockchainData(), proof: ['0x12'] };
    expect(computeHashes(initialForm(record101), record101, data).root).toBeNull();
  });

  it('recognises missing form data', () => {
    expect(hasFormData(record101)).toBe(true);
    expect(hasFormData(null)).toBe(false);
    expect(hasFormData({ id: 1 })).toBe(false);
  });

  it('shows objects where text is expected as empty text', () => {
    expect(initialForm({ ...record101, notes: { x: 1 } } as unknown as Sterilization).notes).toBe('');
  });
});

describe('explorerTxUrl', () => {
  it('links mainnet, sepolia and rinkeby, and not the devnet', () => {
    expect(explorerTxUrl('mainnet', TX)).toBe(`https://etherscan.io/tx/${TX}`);
    expect(explorerTxUrl('sepolia', TX)).toBe(`https://sepolia.etherscan.io/tx/${TX}`);
    expect(explorerTxUrl('rinkeby', TX)).toBe(`https://rinkeby.etherscan.io/tx/${TX}`);
    expect(explorerTxUrl('devnet', TX)).toBeNull();
    expect(explorerTxUrl(null, TX)).toBeNull();
    expect(explorerTxUrl('sepolia', null)).toBeNull();
  });
});

describe('verification state machine', () => {
  const hashes = { leaf: LEAF_101, root: ROOT } as const;
  const done = (transaction = anchorTx()): ChainRead => ({ status: 'done', transaction });
  const input = (overrides: Partial<VerificationInput> = {}): VerificationInput => ({
    hasForm: true,
    blockchainData: blockchainData(),
    hashes,
    contractAddress: CONTRACT,
    chain: done(),
    ...overrides,
  });
  const verdict = (overrides: Partial<VerificationInput> = {}) => verification(input(overrides)).verdict;

  it('an error without form data, then not sent, then not mined', () => {
    expect(verdict({ hasForm: false })).toBe('error');
    expect(verdict({ blockchainData: null })).toBe('not_sent');
    expect(verdict({ blockchainData: blockchainData('PENDING') })).toBe('not_mined');
    expect(verdict({ blockchainData: blockchainData('SENT') })).toBe('not_mined');
  });

  it('verifies while calculating or reading the chain', () => {
    expect(verdict({ hashes: null })).toBe('verifying');
    expect(verdict({ chain: { status: 'loading' } })).toBe('verifying');
    expect(verdict({ contractAddress: undefined })).toBe('verifying');
  });

  it('succeeds only when every check passes', () => {
    const result = verification(input());
    expect(result.verdict).toBe('success');
    expect(result.checks.map((check) => [check.id, check.status])).toEqual([
      ['computed', 'pass'],
      ['transaction', 'pass'],
      ['root_match', 'pass'],
    ]);
  });

  it('fails on a different root, transaction, contract, block or a failed read', () => {
    expect(verdict({ hashes: { leaf: LEAF_102, root: LEAF_103 } })).toBe('failed');
    expect(verdict({ hashes: { leaf: LEAF_101, root: null } })).toBe('failed');
    expect(verdict({ chain: done(anchorTx({ to: `0x${'1'.repeat(40)}` })) })).toBe('failed');
    expect(verdict({ chain: done(anchorTx({ succeeded: false })) })).toBe('failed');
    expect(verdict({ chain: done(anchorTx({ succeeded: null })) })).toBe('failed');
    expect(verdict({ chain: done(anchorTx({ functionName: null, params: [] })) })).toBe('failed');
    const otherBlock = anchorTx();
    otherBlock.params[0] = { name: 'blockId', type: 'uint256', value: '8' };
    expect(verdict({ chain: done(otherBlock) })).toBe('failed');
    const failed = verification(input({ chain: { status: 'error', message: 'timeout' } }));
    expect(failed.verdict).toBe('failed');
    expect(failed.checks.find((check) => check.id === 'transaction')?.status).toBe('fail');
  });

  it('compares hashes without regard to hex case', () => {
    const upper = anchorTx();
    upper.params[1] = { name: 'root', type: 'bytes32', value: `0x${ROOT.slice(2).toUpperCase()}` };
    expect(verdict({ chain: done(upper) })).toBe('success');
  });
});

describe('proofReceipt', () => {
  it('holds the canonical record, leaf, proof, root and the chain coordinates', () => {
    const record = { ...record101, blockchain_data: blockchainData() } as VerifiableRecord;
    const receipt = proofReceipt(record, { chain_id: 31337, contract_address: CONTRACT });
    expect(receipt).toMatchObject({
      hashing_version: 1,
      leaf: LEAF_101,
      root: ROOT,
      proof: [LEAF_102, LEAF_103],
      block_id: 7,
      chain_id: 31337,
      contract_address: CONTRACT,
      transaction_hash: TX,
    });
    expect(receipt?.record.supplied_energy).toBe('12.5');
    expect(receipt?.record.notes).toBeNull();
    expect(proofReceipt(record101, undefined)).toBeNull();
  });
});
