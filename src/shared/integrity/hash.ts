/**
 * The keccak256 every integrity computation uses. By default viem's (pure JavaScript, runs in the
 * browser); the server swaps in a native implementation of the same function (EDR's) that is several
 * times faster, via setKeccak256. Any implementation must be Ethereum's keccak256 (not NIST SHA3-256).
 */
import { keccak256 as viemKeccak256 } from 'viem';

export type Keccak256 = (data: Uint8Array) => Uint8Array;

let implementation: Keccak256 = (data) => viemKeccak256(data, 'bytes');

export function keccak256Bytes(data: Uint8Array): Uint8Array {
  return implementation(data);
}

/** Replaces the keccak256 implementation (checked against a known vector first). */
export function setKeccak256(candidate: Keccak256): void {
  const empty = candidate(new Uint8Array(0));
  const expected = viemKeccak256(new Uint8Array(0), 'bytes');
  if (empty.length !== 32 || !empty.every((byte, i) => byte === expected[i])) {
    throw new Error('not keccak256');
  }
  implementation = candidate;
}
