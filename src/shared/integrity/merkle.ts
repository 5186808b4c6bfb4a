/**
 * The Merkle tree of one blockchain data block, docs/integrity.md §4 (the same for every hashing_version:
 * versions differ in their leaves only).
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
import { createSlicer, type Slicer } from './slices.ts';

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

/** Hashes between two points where a sliced run may pause. */
const STEP = 256;

/**
 * A built tree: one buffer per level (n × 32 bytes, not n objects, so that a block of 100,000 records
 * costs the garbage collector almost nothing), the root, and any leaf's proof on demand.
 */
export interface MerkleLevels {
  root: Hex;
  /** Number of leaves. */
  size: number;
  /** The proof of the leaf at index: siblings from the leaf up, 0x-hex. */
  proof(index: number): Hex[];
}

/**
 * Builds the levels as a generator that yields every STEP hashes: drained at once by the sync
 * functions and with pauses by the sliced ones, so both run the same code.
 */
function* buildLevels(leaves: readonly (Hex | Uint8Array)[]): Generator<void, MerkleLevels> {
  if (leaves.length === 0) throw new Error('a Merkle tree needs at least one leaf');
  const size = leaves.length;
  let level = new Uint8Array(size * 32);
  for (let i = 0; i < size; i += 1) {
    level.set(toNode(leaves[i]!), i * 32);
    if ((i + 1) % (STEP * 8) === 0) yield;
  }
  const levels: Uint8Array[] = [level];
  let work = 0;
  for (let count = size; count > 1; ) {
    const parentCount = Math.ceil(count / 2);
    const parents = new Uint8Array(parentCount * 32);
    for (let i = 0; i + 1 < count; i += 2) {
      parents.set(
        hashPairBytes(level.subarray(i * 32, i * 32 + 32), level.subarray(i * 32 + 32, i * 32 + 64)),
        i * 16,
      );
      if (++work % STEP === 0) yield;
    }
    if (count % 2 === 1) parents.set(level.subarray((count - 1) * 32, count * 32), (parentCount - 1) * 32);
    levels.push(parents);
    level = parents;
    count = parentCount;
  }
  // Each node's hex is made once, when a proof first needs it; proofs share these strings.
  const hex: Hex[][] = levels.map((nodes) => new Array<Hex>(nodes.length / 32));
  return {
    root: bytesToHex(level.subarray(0, 32)),
    size,
    proof(leafIndex) {
      if (!Number.isInteger(leafIndex) || leafIndex < 0 || leafIndex >= size) throw new Error('no such leaf');
      const proof: Hex[] = [];
      let index = leafIndex;
      for (let depth = 0; depth < levels.length - 1; depth += 1) {
        const sibling = index ^ 1;
        const nodes = levels[depth]!;
        if (sibling * 32 < nodes.length) {
          const known = hex[depth]!;
          known[sibling] ??= bytesToHex(nodes.subarray(sibling * 32, sibling * 32 + 32));
          proof.push(known[sibling]);
        }
        index >>= 1;
      }
      return proof;
    },
  };
}

function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

async function drainSliced<T>(steps: Generator<void, T>, slicer: Slicer): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (slicer.due()) await slicer.pause();
  }
}

/** The levels of the tree over leaves already in record-id order. */
export function merkleLevels(leaves: readonly (Hex | Uint8Array)[]): MerkleLevels {
  return drain(buildLevels(leaves));
}

/** merkleLevels in slices (see slices.ts): what the anchor worker runs for a block. */
export function merkleLevelsAsync(
  leaves: readonly (Hex | Uint8Array)[],
  slicer: Slicer = createSlicer(),
): Promise<MerkleLevels> {
  return drainSliced(buildLevels(leaves), slicer);
}

/** The root over leaves already in record-id order. */
export function merkleRoot(leaves: readonly (Hex | Uint8Array)[]): Hex {
  return merkleLevels(leaves).root;
}

/** merkleRoot in slices (see slices.ts): for large blocks on a thread that must stay responsive. */
export async function merkleRootAsync(
  leaves: readonly (Hex | Uint8Array)[],
  slicer: Slicer = createSlicer(),
): Promise<Hex> {
  return (await merkleLevelsAsync(leaves, slicer)).root;
}

/** The root and every leaf's proof. */
export function merkleTree(leaves: readonly (Hex | Uint8Array)[]): { root: Hex; proofs: Hex[][] } {
  const levels = merkleLevels(leaves);
  return { root: levels.root, proofs: Array.from({ length: levels.size }, (_, i) => levels.proof(i)) };
}

/** The proof of the leaf at index. */
export function merkleProof(leaves: readonly (Hex | Uint8Array)[], index: number): Hex[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new Error('no such leaf');
  return merkleLevels(leaves).proof(index);
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
