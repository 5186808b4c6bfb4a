/** The compiled Anchor contract (scripts/compile-contract.ts writes src/shared/integrity/anchor-contract/Anchor.json from Anchor.sol). */
import type { Abi, Hex } from 'viem';
import artifact from '#shared/integrity/anchor-contract/Anchor.json' with { type: 'json' };

export const ANCHOR_ABI = artifact.abi as Abi;
export const ANCHOR_BYTECODE = artifact.bytecode as Hex;
export const ANCHOR_COMPILER = artifact.compiler;

/** The one event, typed for viem's getLogs. */
export const ANCHORED_EVENT = {
  type: 'event',
  name: 'Anchored',
  inputs: [
    { name: 'blockId', type: 'uint256', indexed: true },
    { name: 'root', type: 'bytes32', indexed: false },
  ],
} as const;

export const ANCHOR_FUNCTIONS = [
  {
    type: 'function',
    name: 'anchor',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'blockId', type: 'uint256' },
      { name: 'root', type: 'bytes32' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'roots',
    stateMutability: 'view',
    inputs: [{ name: '', type: 'uint256' }],
    outputs: [{ name: '', type: 'bytes32' }],
  },
] as const;
