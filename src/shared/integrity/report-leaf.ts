/**
 * A signed report version as a leaf of a block (docs/integrity.md §10): keccak256 of the UTF-8 JSON
 * `["uvtrace/report/1", "<report id>", "<version>", "<sha256 of the PDF, lower-case hex>"]`. Its own
 * domain string keeps it from ever equalling a record's leaf; a block's hashing_version governs its
 * record leaves only, this format is versioned by its domain.
 */
import { bytesToHex, type Hex, stringToBytes } from 'viem';
import { keccak256Bytes } from './hash.ts';

export const REPORT_LEAF_DOMAIN = 'uvtrace/report/1';

/** The leaf preimage's text. */
export function reportLeafText(reportId: string, version: string, sha256: string): string {
  return JSON.stringify([REPORT_LEAF_DOMAIN, reportId, version, sha256.toLowerCase()]);
}

export function reportLeafBytes(reportId: string, version: string, sha256: string): Uint8Array {
  return keccak256Bytes(stringToBytes(reportLeafText(reportId, version, sha256)));
}

export function reportLeafHash(reportId: string, version: string, sha256: string): Hex {
  return bytesToHex(reportLeafBytes(reportId, version, sha256));
}

/** SHA-256 of a document, lower-case hex, with the Web Crypto API (the browser and Node alike). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
