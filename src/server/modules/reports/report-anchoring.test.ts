/**
 * A signed report's hash is anchored like a record (docs/integrity.md §10): the app's anchor worker puts
 * the version's leaf in a block on the devnet; its receipt and the PDF verify against the chain, and
 * one byte changed in the PDF makes the verification fail.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainRpcTransport } from '#server/test/chain-rpc.ts';
import { makeCustomer } from '#server/test/fixtures.ts';
import { createTestApp, DEMO, DEMO_PASSWORD, formBody, type TestApp } from '#server/test/test-app.ts';
import { processProof, reportLeafHash } from '#shared/integrity/index.ts';
import { type ReportReceipt, verifyReportReceipt } from '#shared/integrity/report-receipt.ts';

let t: TestApp;
let admin: string;
let customerId: number;
let reportId: number;

/** The devnet as the public /chain-rpc endpoint serves it (what /verify asks by default). */
const chainRpc = () => chainRpcTransport(t);

async function waitForMinedVersions(count: number, timeoutMs = 60_000) {
  const started = Date.now();
  for (;;) {
    const mined = await t.database.db.execute<{ n: string }>(sql`
      select count(*) as n from report_versions v join blockchain_data_blocks b on b.id = v.blockchain_data_block_id
      where v.report_id = ${reportId} and b.status in ('MINED', 'FINAL')`);
    if (Number(mined.rows[0]!.n) === count) return;
    if (Date.now() - started > timeoutMs) throw new Error('report versions were not anchored in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const url = (path: string) => `/api/v1/customers/${customerId}/reports/${reportId}${path}`;

beforeAll(async () => {
  t = await createTestApp({ ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '8' });
  admin = await t.login(DEMO.admin);
  // A customer without blockchain: a signed report is anchored whatever the customer's records are.
  customerId = await makeCustomer(t);
  const created = await t.as(admin, {
    method: 'POST',
    url: `/api/v1/customers/${customerId}/reports`,
    ...formBody({ from: '2025-01-01', to: '2025-01-31', language: 'en' }),
  });
  reportId = created.json().data.id;
}, 60_000);
afterAll(() => t?.close());

describe('anchoring signed reports', () => {
  it('anchors each signed version; the PDF and its receipt verify with the chain, one changed byte does not', async () => {
    expect((await t.as(admin, { method: 'GET', url: url('/versions/1/receipt') })).statusCode).toBe(404);
    for (const meaning of ['reviewed', 'approved']) {
      const signed = await t.as(admin, {
        method: 'POST',
        url: url('/signatures'),
        ...formBody({ password: DEMO_PASSWORD, meaning }),
      });
      expect(signed.statusCode, signed.body).toBe(201);
    }
    await waitForMinedVersions(2);

    const report = (await t.as(admin, { method: 'GET', url: url('') })).json().data;
    for (const version of report.versions) {
      expect(version.anchoring).toMatchObject({
        status: expect.stringMatching(/^(MINED|FINAL)$/),
        network: 'devnet',
      });
      expect(version.anchoring.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);

      const receiptAnswer = await t.as(admin, {
        method: 'GET',
        url: url(`/versions/${version.version}/receipt`),
      });
      expect(receiptAnswer.statusCode, receiptAnswer.body).toBe(200);
      const receipt = receiptAnswer.json().data as ReportReceipt;
      expect(receipt).toMatchObject({
        format: 'uvtrace-report-receipt/1',
        sha256: version.sha256,
        chain_id: 31337,
      });
      expect(receipt.leaf).toBe(reportLeafHash(String(reportId), String(version.version), version.sha256));
      expect(processProof(receipt.leaf as `0x${string}`, receipt.proof as `0x${string}`[])).toBe(
        receipt.root,
      );

      const pdf = new Uint8Array(
        (await t.as(admin, { method: 'GET', url: url(`/versions/${version.version}`) })).rawPayload,
      );
      const verified = await verifyReportReceipt(pdf, receipt, { transport: chainRpc() });
      expect(verified.checks.filter((check) => !check.ok)).toEqual([]);
      expect(verified.ok).toBe(true);

      const altered = pdf.slice();
      const middle = Math.floor(altered.length / 2);
      altered[middle] = (altered[middle] ?? 0) ^ 0x01;
      const tampered = await verifyReportReceipt(altered, receipt, { transport: chainRpc() });
      expect(tampered.ok).toBe(false);
      expect(tampered.checks.find((check) => check.name === 'document')?.ok).toBe(false);

      // A receipt edited to the altered PDF's hash no longer folds to the anchored root.
      const { createHash } = await import('node:crypto');
      const forged = { ...receipt, sha256: createHash('sha256').update(altered).digest('hex') };
      const forgedCheck = await verifyReportReceipt(altered, forged, { transport: chainRpc() });
      expect(forgedCheck.ok).toBe(false);
      expect(forgedCheck.checks.find((check) => check.name === 'leaf')?.ok).toBe(false);
    }
  }, 120_000);
});
