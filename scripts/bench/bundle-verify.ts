/**
 * A proof bundle of 10,000 records verified in the browser: target ≤ 10 s. Not a test:
 * prints figures (docs/benchmarks.md).
 *
 *   npm run build && node scripts/bench/bundle-verify.ts [--records 10000] [--block 1000] [--runs 3]
 *
 * 1. Records like the device simulator's, hashed with the shared integrity module into blocks of
 *    --block records, each block's root anchored on the embedded devnet (one transaction per block),
 *    and the bundle written as the server writes it (canonical strings, leaf, proof, root, block,
 *    transaction).
 * 2. The built app (dist/client) served statically with the devnet behind /chain-rpc, no API at all;
 *    Chromium (Playwright, the e2e suite's browser) opens /verify, and the time is measured from the
 *    file being handed to the page's file input to the verdict shown: reading and parsing the file,
 *    the Web Worker's start, every record's leaf and proof, each transaction read once over HTTP, the
 *    list rendered. Median of --runs page loads. The same verification under Node (the worker's code,
 *    in process, no HTTP) is printed beside it for reference.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { custom } from 'viem';
import { loadConfig } from '#server/config.ts';
import { connectChain } from '#server/modules/integrity/chain.ts';
import { BUNDLE_FORMAT, type BundleEntry, verifyBundle } from '#shared/integrity/bundle.ts';
import {
  canonicalValue,
  HASHING_VERSION,
  INTEGRITY_FIELDS,
  type IntegrityField,
  type IntegrityRecord,
  leafHash,
  merkleTree,
} from '#shared/integrity/index.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '10000' },
    block: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
  },
});
const total = Number(values.records);
const blockSize = Number(values.block);
const runs = Number(values.runs);
const dist = path.resolve(import.meta.dirname, '../../dist/client');
if (!existsSync(path.join(dist, 'index.html'))) throw new Error('build the app first: npm run build');

const record = (id: number): IntegrityRecord => ({
  id,
  received_ts: new Date(Date.UTC(2025, 0, 1) + id * 61_000).toISOString(),
  device_serial: `NP${String(1 + (id % 40)).padStart(6, '0')}`,
  progressive_id: id,
  supplied_energy: `${300 + (id % 97)}.${id % 100}`,
  nominal_time: '10',
  effective_time: `${9 + (id % 3) * 0.25}`,
  residual_lamp_life: String(9000 - (id % 5000)),
  status_code: id % 50 === 0 ? 2 : 0,
  latitude: id % 7 === 0 ? null : '45.4642035',
  longitude: id % 7 === 0 ? null : '9.1899820',
  consumables_lot: id % 11 === 0 ? null : `LOT-${id % 13}`,
  lot_progressive_id: id % 11 === 0 ? null : id % 500,
  notes: id % 9 === 0 ? `cycle ${id}: ok, "checked"` : null,
});

const chain = await connectChain(loadConfig({}).chain);
let started = performance.now();
const records: BundleEntry[] = [];
for (let first = 1; first <= total; first += blockSize) {
  const block = Array.from({ length: Math.min(blockSize, total - first + 1) }, (_, i) => record(first + i));
  const leaves = block.map((item) => leafHash(item));
  const { root, proofs } = merkleTree(leaves);
  const blockId = 9_000_000 + first;
  const prepared = await chain.prepareAnchor(blockId, root);
  await chain.broadcast(prepared.serialized);
  await chain.client.waitForTransactionReceipt({ hash: prepared.hash });
  block.forEach((item, i) => {
    records.push({
      anchored: true,
      hashing_version: HASHING_VERSION,
      record: Object.fromEntries(
        INTEGRITY_FIELDS.map((field) => [field, canonicalValue(field, item[field])]),
      ) as Record<IntegrityField, string | null>,
      leaf: leaves[i]!,
      proof: proofs[i]!,
      root,
      block_id: blockId,
      network: 'devnet',
      transaction_hash: prepared.hash,
    });
  });
}
// Newest first, as the list (and so the bundle) orders them.
records.reverse();
const bundle = {
  format: BUNDLE_FORMAT,
  created_at: new Date().toISOString(),
  network: 'devnet',
  chain_id: chain.chainId,
  contract_address: chain.contractAddress,
  records,
};
const text = JSON.stringify(bundle);
const file = path.join(await mkdtemp(path.join(tmpdir(), 'uvtrace-bench-')), 'bundle.json');
await writeFile(file, text);
console.log(
  `bundle: ${total} records in ${Math.ceil(total / blockSize)} blocks, ${(text.length / 1e6).toFixed(1)} MB ` +
    `(made in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
);

// Under Node: the worker's code in process.
started = performance.now();
const nodeResult = await verifyBundle(JSON.parse(text), {
  transport: custom({ request: chain.request }),
  confirmations: true,
});
const nodeSeconds = (performance.now() - started) / 1000;
if (!nodeResult.ok || nodeResult.passed !== total) throw new Error('the bundle did not verify under Node');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname === '/chain-rpc' && request.method === 'POST') {
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
    return;
  }
  if (url.pathname.startsWith('/api/')) {
    response.statusCode = 503;
    response.end();
    return;
  }
  const asset = path.join(dist, path.normalize(url.pathname));
  const target =
    asset.startsWith(dist) && existsSync(asset) && path.extname(asset)
      ? asset
      : path.join(dist, 'index.html');
  response.setHeader('content-type', TYPES[path.extname(target)] ?? 'application/octet-stream');
  response.end(await readFile(target));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({
  executablePath: existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const times: number[] = [];
try {
  for (let run = 0; run < runs; run += 1) {
    const page = await browser.newPage();
    await page.goto(`${origin}/verify`);
    await page.getByTestId('verify-file').waitFor({ state: 'attached' });
    const input = page.getByTestId('verify-file');
    const start = performance.now();
    await input.setInputFiles(file);
    const verdict = page.locator('[data-testid="verify-bundle-verdict"]:not([data-verdict="verifying"])');
    await verdict.waitFor({ timeout: 120_000 });
    const seconds = (performance.now() - start) / 1000;
    const outcome = await verdict.getAttribute('data-verdict');
    if (outcome !== 'success') throw new Error(`the bundle did not verify in the browser: ${outcome}`);
    times.push(seconds);
    console.log(`browser run ${run + 1}: ${seconds.toFixed(2)} s`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] as number;
console.log(
  `\n${total} records, ${nodeResult.transactions} transactions: browser (Chromium, Web Worker, /verify) ` +
    `median ${median.toFixed(2)} s of ${runs} (target ≤ 10 s) ${median <= 10 ? 'OK' : 'OVER'}; ` +
    `under Node (same code, in process) ${nodeSeconds.toFixed(2)} s`,
);
process.exit(0);
