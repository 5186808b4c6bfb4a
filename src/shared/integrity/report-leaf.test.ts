/** The worked example of docs/integrity.md §10: a signed report's leaf, in a block with records 101 and 102. */
import { describe, expect, it } from 'vitest';
import { merkleTree, processProof } from './merkle.ts';
import { REPORT_LEAF_DOMAIN, reportLeafHash, reportLeafText, sha256Hex } from './report-leaf.ts';

const L101 = '0x8c19f41dd23833c3e894924971e6b2af02f9c35099fba8e0a9e6a5cd384e1bd9';
const L102 = '0xc8f2417747da513fa6d2b567f74188a5f7e17c21411aef4972df92f3c55b13bf';
const PDF_SHA256 = '7e9b581e2807da8cd2cdc85d0b9b1e8fced5842eac084786d64c465179434a0f';
const REPORT_LEAF = '0x03dc91567b5908404383363282abab0ac3cb518ad3ba0c632d76a40097b88010';
const N = '0xfd7fbaa8f9e8074ee092a66366c900806591e0a51e7b44ca7fc78c1046e17146';
const ROOT = '0xac87093a314ef7bae2467889dc3dee041a80ab4dabd186117e2928b987f9a8a2';

describe('report leaves (docs/integrity.md §10)', () => {
  it('hashes the worked example', async () => {
    expect(await sha256Hex(new TextEncoder().encode('%PDF-1.7 uvtrace worked example'))).toBe(PDF_SHA256);
    expect(reportLeafText('12', '2', PDF_SHA256)).toBe(`["${REPORT_LEAF_DOMAIN}","12","2","${PDF_SHA256}"]`);
    expect(reportLeafHash('12', '2', PDF_SHA256)).toBe(REPORT_LEAF);
    // Upper-case hex names the same document.
    expect(reportLeafHash('12', '2', PDF_SHA256.toUpperCase())).toBe(REPORT_LEAF);
  });

  it('puts the report after the records in the block and proves it with [N]', () => {
    const tree = merkleTree([L101, L102, REPORT_LEAF]);
    expect(tree.root).toBe(ROOT);
    expect(tree.proofs[2]).toEqual([N]);
    expect(processProof(REPORT_LEAF, [N])).toBe(ROOT);
  });

  it('changes with any byte of the document, the version or the report', async () => {
    const altered = await sha256Hex(new TextEncoder().encode('%PDF-1.7 uvtrace worked examplf'));
    expect(reportLeafHash('12', '2', altered)).not.toBe(REPORT_LEAF);
    expect(reportLeafHash('12', '1', PDF_SHA256)).not.toBe(REPORT_LEAF);
    expect(reportLeafHash('13', '2', PDF_SHA256)).not.toBe(REPORT_LEAF);
  });
});
