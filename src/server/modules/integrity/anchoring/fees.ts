/**
 * Fees of anchor transactions (docs/integrity.md §8): what the node's fee history suggests, never above
 * the ceiling (ANCHOR_MAX_FEE_GWEI); a replacement raises both fees by at least the 10 % that nodes
 * require to replace a transaction of the same nonce. A block that cannot be sent or replaced under the
 * ceiling waits, and a staff-only anchor_fee_ceiling alert says so until the block is mined.
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { conditionKeys, raiseAlert, resolveAlertsFor } from '#server/modules/alerts/index.ts';
import type { AnchorFees, FeeSuggestion } from '../chain.ts';
import type { AnchoringContext } from './context.ts';

/** Wei in a gwei, the unit fees are spoken of in (ANCHOR_MAX_FEE_GWEI). */
export const GWEI = 10n ** 9n;

const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** The suggested fees capped at the ceiling, or null while the next base fee alone is at or above it. */
export function feesUnderCeiling(suggested: FeeSuggestion, ceiling: bigint): AnchorFees | null {
  if (suggested.baseFeePerGas >= ceiling) return null;
  const maxFeePerGas = min(suggested.maxFeePerGas, ceiling);
  const maxPriorityFeePerGas = min(suggested.maxPriorityFeePerGas, maxFeePerGas - suggested.baseFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** The least a replacement of a transaction with this fee must offer: 10 % more, rounded up. */
export const replacementMinimum = (fee: bigint): bigint => fee + (fee + 9n) / 10n;

/**
 * Fees for replacing a transaction that paid `current`: the suggestion or 10 % more than before,
 * whichever is higher, capped at the ceiling; null when the cap leaves less than the 10 % (at the
 * ceiling: the transaction stays as it is).
 */
export function replacementFees(
  current: AnchorFees,
  suggested: FeeSuggestion,
  ceiling: bigint,
): AnchorFees | null {
  const leastMaxFee = replacementMinimum(current.maxFeePerGas);
  const leastTip = replacementMinimum(current.maxPriorityFeePerGas);
  const maxFeePerGas = min(max(suggested.maxFeePerGas, leastMaxFee), ceiling);
  const maxPriorityFeePerGas = min(max(suggested.maxPriorityFeePerGas, leastTip), maxFeePerGas);
  if (maxFeePerGas < leastMaxFee || maxPriorityFeePerGas < leastTip) return null;
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** Wei per gas as gwei text with up to 9 decimals ("12.5"). */
export function gweiText(wei: bigint): string {
  const whole = wei / GWEI;
  const fraction = (wei % GWEI).toString().padStart(9, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** The block waits at the ceiling: its staff-only alert (once per block until the block is mined). */
export async function raiseFeeCeiling(
  context: AnchoringContext,
  block: { id: number; transaction_hash: string | null },
  baseFeePerGas: bigint,
): Promise<void> {
  const { db, chain, log, maxFeePerGas } = context;
  const id = await raiseAlert(db, {
    kind: 'anchor_fee_ceiling',
    customerId: null,
    subjectId: block.id,
    conditionKey: conditionKeys.anchorFeeCeiling(block.id),
    details: {
      block_id: block.id,
      network: chain.network,
      transaction_hash: block.transaction_hash,
      max_fee_gwei: gweiText(maxFeePerGas),
      base_fee_gwei: gweiText(baseFeePerGas),
    },
  });
  if (id === null) return;
  log.warn(
    `anchor: block ${block.id} waits: the chain asks ${gweiText(baseFeePerGas)} gwei per gas, the ceiling is ${gweiText(maxFeePerGas)} (ANCHOR_MAX_FEE_GWEI)`,
  );
  await context.onAlertsRaised?.([id]).catch(() => {});
}

/** The block is mined (or given up): its fee alert, if any, is cleared. */
export async function clearFeeCeiling(db: Db | Tx, blockId: number): Promise<void> {
  await resolveAlertsFor(db, conditionKeys.anchorFeeCeiling(blockId));
}

/**
 * Sets a block's gas used and fee paid from its transactions' receipts: the gas of the one that anchored
 * it, the fees of every one that was mined (reverted ones cost too).
 */
export async function settleCosts(db: Db | Tx, blockId: number, anchoringHash: string): Promise<void> {
  await db.execute(sql`
    update blockchain_data_blocks b set
      gas_used = (select t.gas_used from anchor_transactions t where t.hash = ${anchoringHash.toLowerCase()}),
      fee_paid_wei = (select sum(t.fee_paid_wei) from anchor_transactions t where t.block_id = b.id)
    where b.id = ${blockId}`);
}
