/**
 * The anchor worker: puts unanchored records of blockchain-enabled customers into blockchain data
 * blocks, anchors each block's Merkle root on chain, and follows the transaction until it is MINED.
 *
 * Every step is a state in the database, so a restart (or a second process) picks up where things were.
 * One module per step, under anchoring/:
 *   collect.ts  — the waiting records of the next block, read without locks, kept as their leaves
 *   build.ts    — the block's tree and proofs, in time slices, outside any transaction
 *   store.ts    — records locked (FOR UPDATE SKIP LOCKED) and written into a PENDING block; half-stored
 *                 blocks of a crashed run undone
 *   send.ts     — the anchor transaction: hash stored (SENT) before broadcasting; an existing anchor adopted
 *   confirm.ts  — receipts of every transaction sent → MINED or FAILED; stuck ones replaced with higher
 *                 fees, lost ones broadcast again; devnet blocks re-queued at start
 *   fees.ts     — fees from the node's fee history under ANCHOR_MAX_FEE_GWEI, replacements, the alert
 *   worker.ts   — the passes, start and stop
 * record-leaf.ts is the one place a record becomes a leaf. This file is what the rest of the server uses.
 */

export { resetEphemeralBlocks } from './anchoring/confirm.ts';
export type { AnchorWorkerOptions } from './anchoring/context.ts';
export { integrityRecord, RECORD_FIELDS_SQL } from './anchoring/record-leaf.ts';
export { blockSideLeaves, KEY_EVENT_FIELDS_SQL } from './anchoring/side-leaves.ts';
export { type AnchorWorker, createAnchorWorker } from './anchoring/worker.ts';
