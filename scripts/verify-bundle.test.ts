// Proof bundles against the embedded devnet: 40 records in two blocks anchored with the
// server's chain helpers and one record not anchored, verified by the shared bundle verifier (what the
// /verify page's worker runs) and by `npm run verify-receipt` (its exit codes), with one record edited.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { custom } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { type Chain, connectChain } from '#server/modules/integrity/chain.ts';
import {
  BUNDLE_FORMAT,
  type BundleEntry,
  memoisedFold,
  type ProofBundle,
  verifyBundle,
} from '#shared/integrity/bundle.ts';
import {
  canonicalValue,
  HASHING_VERSION,
  INTEGRITY_FIELDS,
  type IntegrityField,
  type IntegrityRecord,
  leafHash,
  merkleTree,
  processProof,
} from '#shared/integrity/index.ts';

const run = promisify(execFile);

const recordOf = (id: number): IntegrityRecord => ({
  id,
  received_ts: `2025-04-0${1 + (id % 9)}T10:15:00.${String(id % 1000).padStart(3, '0')}Z`,
  device_serial: 'NP000301',
  progressive_id: 500 + id,
  supplied_energy: `${id}.25`,
  nominal_time: 120,
  effective_time: '118.5',
  residual_lamp_life: 9000 - id,
  status_code: id % 7 === 0 ? 2 : 0,
  latitude: id % 3 === 0 ? null : '45.4642',
  longitude: id % 3 === 0 ? null : '9.19',
  consumables_lot: id % 4 === 0 ? null : 'LOT-9',
  lot_progressive_id: id,
  notes: id % 5 === 0 ? null : `cycle ${id} — ok`,
});

const canonical = (record: IntegrityRecord) =>
  Object.fromEntries(
    INTEGRITY_FIELDS.map((field) => [field, canonicalValue(field, record[field])]),
  ) as Record<IntegrityField, string | null>;

let chain: Chain;
let bundle: ProofBundle;
let server: Server;
let rpcUrl: string;
let dir: string;
const transport = () => custom({ request: chain.request });

async function anchorBlock(records: IntegrityRecord[]): Promise<BundleEntry[]> {
  const leaves = records.map((record) => leafHash(record));
  const { root, proofs } = merkleTree(leaves);
  const blockId = 7_000_000 + Math.floor(Math.random() * 1_000_000);
  const prepared = await chain.prepareAnchor(blockId, root);
  await chain.broadcast(prepared.serialized);
  expect((await chain.client.waitForTransactionReceipt({ hash: prepared.hash })).status).toBe('success');
  return records.map((record, index) => ({
    anchored: true,
    hashing_version: HASHING_VERSION,
    record: canonical(record),
    leaf: leaves[index]!,
    proof: proofs[index]!,
    root,
    block_id: blockId,
    network: 'devnet',
    transaction_hash: prepared.hash,
  }));
}

beforeAll(async () => {
  chain = await connectChain(loadConfig({}).chain);
  const ids = Array.from({ length: 40 }, (_, i) => i + 1);
  const first = await anchorBlock(ids.slice(0, 25).map(recordOf));
  const second = await anchorBlock(ids.slice(25).map(recordOf));
  bundle = {
    format: BUNDLE_FORMAT,
    created_at: new Date().toISOString(),
    network: 'devnet',
    chain_id: chain.chainId,
    contract_address: chain.contractAddress,
    records: [
      ...first,
      {
        anchored: false,
        anchor_status: 'waiting',
        hashing_version: HASHING_VERSION,
        record: canonical(recordOf(41)),
      },
      ...second,
    ],
  };
  // The node over HTTP, for the command line.
  server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const call = JSON.parse(body);
    let reply: unknown;
    try {
      reply = { jsonrpc: '2.0', id: call.id, result: await chain.request(call) };
    } catch (error) {
      reply = { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: String(error) } };
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'uvtrace-bundle-'));
}, 60_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The bundle with one record's field changed (a canonical value, so only the leaf can tell). */
function edited(index: number, field: IntegrityField, value: string): ProofBundle {
  const records = bundle.records.map((entry, i) =>
    i === index ? { ...entry, record: { ...entry.record, [field]: value } } : entry,
  );
  return { ...bundle, records };
}

describe('verifyBundle', () => {
  it('folds proofs as processProof does, each pair hashed once', () => {
    const fold = memoisedFold();
    for (const entry of bundle.records) {
      if (!entry.anchored) continue;
      const proof = entry.proof as `0x${string}`[];
      const expected = processProof(entry.leaf as `0x${string}`, proof);
      expect(fold(entry.leaf as `0x${string}`, proof)).toBe(expected);
      // Upper-case hex is the same node.
      expect(fold(entry.leaf.toUpperCase().replace('0X', '0x') as `0x${string}`, proof)).toBe(expected);
    }
  });

  it('passes every anchored record, reading each transaction once, and lists the unanchored one', async () => {
    const requests: string[] = [];
    const counting = custom({
      request: (call: { method: string; params?: unknown }) => {
        requests.push(call.method);
        return chain.request(call as Parameters<Chain['request']>[0]);
      },
    });
    const progress: number[] = [];
    const result = await verifyBundle(bundle, {
      transport: counting,
      progressEvery: 10,
      onProgress: ({ done }) => progress.push(done),
    });
    expect(result.failed).toEqual([]);
    expect(result).toMatchObject({ ok: true, total: 41, passed: 40, transactions: 2 });
    expect(result.notAnchored).toEqual([{ index: 25, id: '41', status: 'waiting' }]);
    expect(requests.filter((method) => method === 'eth_getTransactionByHash')).toHaveLength(2);
    expect(requests.filter((method) => method === 'eth_chainId')).toHaveLength(1);
    expect(progress).toEqual([10, 20, 30, 40, 41]);
  });

  it('fails exactly the edited record, saying which check', async () => {
    const result = await verifyBundle(edited(30, 'supplied_energy', '31.5'), { transport: transport() });
    expect(result.ok).toBe(false);
    expect(result.passed).toBe(39);
    expect(result.failed.map((failure) => [failure.index, failure.id])).toEqual([[30, '30']]);
    expect(result.failed[0]!.checks.map((check) => check.name)).toEqual(['leaf']);
  });

  it('fails a record whose proof or transaction was changed, and a file that is not a bundle', async () => {
    const records = [...bundle.records];
    const entry = records[3] as Extract<BundleEntry, { anchored: true }>;
    records[3] = { ...entry, root: (records[30] as typeof entry).root };
    const result = await verifyBundle({ ...bundle, records }, { transport: transport() });
    expect(result.failed.map((failure) => failure.index)).toEqual([3]);
    expect(result.failed[0]!.checks.map((check) => check.name)).toEqual(['root', 'anchor_call']);
    const notBundle = await verifyBundle({ format: 'something' }, { transport: transport() });
    expect(notBundle.ok).toBe(false);
    expect(notBundle.failed[0]!.checks[0]!.name).toBe('format');
  });
});

describe('npm run verify-receipt with a bundle', () => {
  const cli = async (file: string) => {
    try {
      const { stdout } = await run(process.execPath, ['scripts/verify-receipt.ts', file, '--rpc', rpcUrl]);
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, stdout: failed.stdout };
    }
  };

  it('exits 0 when every record verifies', async () => {
    const file = join(dir, 'bundle.json');
    await writeFile(file, JSON.stringify(bundle));
    const { code, stdout } = await cli(file);
    expect(stdout).toContain('40 of 41 records verified, 0 failed, 1 not anchored (2 transactions read)');
    expect(stdout).toContain('not anchored  record 41 (#26)  waiting');
    expect(stdout).toContain('bundle verified');
    expect(code).toBe(0);
  }, 30_000);

  it('exits 1 naming the failing record', async () => {
    const file = join(dir, 'edited.json');
    await writeFile(file, JSON.stringify(edited(7, 'notes', 'cycle 8 — not ok')));
    const { code, stdout } = await cli(file);
    expect(stdout).toMatch(/FAILED {2}record 8 \(#8\) {2}leaf/);
    expect(stdout).toContain('bundle NOT verified: failing records 8');
    expect(stdout.match(/FAILED/g)).toHaveLength(1);
    expect(code).toBe(1);
  }, 30_000);
});
