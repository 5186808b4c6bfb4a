/**
 * Build: a block's Merkle tree from its records' leaves, then its report versions' leaves, computed in
 * time slices and outside any transaction, and their proofs in the form the store writes them.
 */
import { type MerkleLevels, merkleLevelsAsync, type Slicer } from '#shared/integrity/index.ts';
import type { BlockContents } from './collect.ts';

/**
 * A built block: its records' ids and device serials (as hashed) in id order, its report versions' ids
 * in id order, and its tree (leaf i < ids.length is record i, the next ones the report versions).
 */
export type BuiltBlock = {
  ids: string[];
  serials: string[];
  reportVersionIds: string[];
  /** Key event ids: the leaves after the report versions'. */
  keyEventIds: string[];
  tree: MerkleLevels;
};

export async function buildBlock(
  { records, reports, keyEvents }: BlockContents,
  slicer: Slicer,
): Promise<BuiltBlock> {
  return {
    ids: records.map((record) => record.id),
    serials: records.map((record) => record.serial),
    reportVersionIds: reports.map((report) => report.versionId),
    keyEventIds: keyEvents.map((event) => event.eventId),
    tree: await merkleLevelsAsync(
      [
        ...records.map((record) => record.leaf),
        ...reports.map((report) => report.leaf),
        ...keyEvents.map((event) => event.leaf),
      ],
      slicer,
    ),
  };
}

/**
 * The proofs of records [from, to) as one array literal of comma-joined hex, made in one go from the
 * tree's shared hex nodes: a part's worth takes milliseconds, and building it without pauses lets its
 * pieces die young instead of being copied around by the garbage collector.
 */
export function proofsLiteral(block: BuiltBlock, from: number, to: number): string {
  const pieces = ['{'];
  for (let i = from; i < to; i += 1) {
    pieces.push(i === from ? '"' : ',"');
    const proof = block.tree.proof(i);
    for (let j = 0; j < proof.length; j += 1) pieces.push(j === 0 ? proof[j]! : `,${proof[j]}`);
    pieces.push('"');
  }
  pieces.push('}');
  return pieces.join('');
}
