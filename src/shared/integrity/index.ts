/** Integrity, hashing_version 1 and 2 (docs/integrity.md): canonical leaves, the block Merkle tree, proofs. */
export * from './canonical.ts';
export { type Keccak256, setKeccak256 } from './hash.ts';
export * from './key-event-leaf.ts';
export * from './merkle.ts';
export * from './report-leaf.ts';
export * from './rpc-url.ts';
export * from './slices.ts';
