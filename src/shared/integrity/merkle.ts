/**
 * The Merkle tree of one blockchain data block (hashing_version 1), docs/integrity.md §3.
 * - Leaves in the order of their records' ids (ascending).
 * - A parent is keccak256(min(a, b) ‖ max(a, b)): the two 32-byte children compared as big-endian
 *   unsigned numbers, the smaller first (sorted pairs, as OpenZeppelin's MerkleProof expects).
 * - Nodes are paired left to right, (0,1), (2,3), …; when a level has an odd number of nodes the last
 *   one is promoted unchanged to the next level (it is not hashed with itself).
 * - The root of a single leaf is the leaf. A tree has at least one leaf.
 * - A proof is the list of siblings from the leaf up; a promoted level adds nothing. Because pairs are
 *   sorted, a proof needs no left/right flags: fold hashPair over it and compare with the root.
 * Isomorphic: no node: imports, no DOM.
 */
import { bytesToHex, type Hex, hexToBytes } from 'viem';
import { keccak256Bytes } from './hash.ts';

type Node = Uint8Array;

function compareBytes(a: Node, b: Node): number {
  for (let i = 0; i < 32; i += 1) {
    const difference = a[i]! - b[i]!;
    if (difference !== 0) return difference;
  }
  return 0;
}

const pairBuffer = new Uint8Array(64);
function hashPairBytes(a: Node, b: Node): Node {
  const [low, high] = compareBytes(a, b) <= 0 ? [a, b] : [b, a];
  pairBuffer.set(low, 0);
  pairBuffer.set(high, 32);
  return keccak256Bytes(pairBuffer);
}

function toNode(value: Hex | Uint8Array): Node {
  const bytes = typeof value === 'string' ? hexToBytes(value) : value;
  if (bytes.length !== 32) throw new Error('a Merkle node is 32 bytes');
  return bytes;
}

/** keccak256(min(a, b) ‖ max(a, b)). */
export function hashPair(a: Hex, b: Hex): Hex {
  return bytesToHex(hashPairBytes(toNode(a), toNode(b)));
}

function nextLevel(level: Node[]): Node[] {
  const parents: Node[] = [];
  for (let i = 0; i + 1 < level.length; i += 2) parents.push(hashPairBytes(level[i]!, level[i + 1]!));
  if (level.length % 2 === 1) parents.push(level[level.length - 1]!);
  return parents;
}

/** Every level of the tree, leaves first, root last. */
function buildLevels(leaves: readonly (Hex | Uint8Array)[]): Node[][] {
  if (leaves.length === 0) throw new Error('a Merkle tree needs at least one leaf');
  const levels: Node[][] = [leaves.map(toNode)];
  while (levels[levels.length - 1]!.length > 1) levels.push(nextLevel(levels[levels.length - 1]!));
  return levels;
}

/** The root over leaves already in record-id order. */
export function merkleRoot(leaves: readonly (Hex | Uint8Array)[]): Hex {
  const levels = buildLevels(leaves);
  return bytesToHex(levels[levels.length - 1]![0]!);
}

/** The root and every leaf's proof in one pass (what the anchor worker stores per record). */
export function merkleTree(leaves: readonly (Hex | Uint8Array)[]): { root: Hex; proofs: Hex[][] } {
  const levels = buildLevels(leaves);
  const hexLevels = levels.slice(0, -1).map((level) => level.map((node) => bytesToHex(node)));
  const proofs = leaves.map((_, leafIndex) => {
    const proof: Hex[] = [];
    let index = leafIndex;
    for (const level of hexLevels) {
      const sibling = index ^ 1;
      if (sibling < level.length) proof.push(level[sibling]!);
      index >>= 1;
    }
    return proof;
  });
  return { root: bytesToHex(levels[levels.length - 1]![0]!), proofs };
}

/** The proof of the leaf at index. */
export function merkleProof(leaves: readonly (Hex | Uint8Array)[], index: number): Hex[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new Error('no such leaf');
  const proof = merkleTree(leaves).proofs[index];
  return proof ?? [];
}

/** The root a leaf and its proof lead to. */
export function processProof(leaf: Hex, proof: readonly Hex[]): Hex {
  let node = toNode(leaf);
  for (const sibling of proof) node = hashPairBytes(node, toNode(sibling));
  return bytesToHex(node);
}

/** Whether the leaf with this proof leads to the root (hex compared case-insensitively). */
export function verifyProof(leaf: Hex, proof: readonly Hex[], root: Hex): boolean {
  return processProof(leaf, proof).toLowerCase() === root.toLowerCase();
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The root over many leaves without holding the thread: it yields to the event loop every
 * `chunk` hashes, so a server keeps answering requests (and a page keeps painting) meanwhile.
 */
export async function merkleRootAsync(leaves: readonly (Hex | Uint8Array)[], chunk = 4096): Promise<Hex> {
  if (leaves.length === 0) throw new Error('a Merkle tree needs at least one leaf');
  let level: Node[] = [];
  for (let i = 0; i < leaves.length; i += 1) {
    level.push(toNode(leaves[i]!));
    if (i % chunk === chunk - 1) await yieldToEventLoop();
  }
  let work = 0;
  while (level.length > 1) {
    const parents: Node[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) {
      parents.push(hashPairBytes(level[i]!, level[i + 1]!));
      work += 1;
      if (work % chunk === 0) await yieldToEventLoop();
    }
    if (level.length % 2 === 1) parents.push(level[level.length - 1]!);
    level = parents;
  }
  return bytesToHex(level[0]!);
}
