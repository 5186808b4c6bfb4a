// The fee arithmetic of anchor transactions: never above the ceiling, replacements at least 10 % up.
import { describe, expect, it } from 'vitest';
import { feesUnderCeiling, GWEI, gweiText, replacementFees, replacementMinimum } from './fees.ts';

describe('anchor fees', () => {
  it('caps the suggestion at the ceiling, and gives none while the base fee alone reaches it', () => {
    const suggested = {
      baseFeePerGas: 10n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
      maxFeePerGas: 22n * GWEI,
    };
    expect(feesUnderCeiling(suggested, 100n * GWEI)).toEqual({
      maxFeePerGas: 22n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
    });
    expect(feesUnderCeiling(suggested, 11n * GWEI)).toEqual({
      maxFeePerGas: 11n * GWEI,
      maxPriorityFeePerGas: GWEI,
    });
    expect(feesUnderCeiling(suggested, 10n * GWEI)).toBeNull();
  });

  it('raises a replacement by at least 10 % on both fees, up to the ceiling and no further', () => {
    const current = { maxFeePerGas: 20n * GWEI, maxPriorityFeePerGas: GWEI };
    const calm = { baseFeePerGas: 5n * GWEI, maxPriorityFeePerGas: GWEI, maxFeePerGas: 11n * GWEI };
    expect(replacementFees(current, calm, 100n * GWEI)).toEqual({
      maxFeePerGas: 22n * GWEI,
      maxPriorityFeePerGas: 1_100_000_000n,
    });
    const spike = { baseFeePerGas: 50n * GWEI, maxPriorityFeePerGas: 3n * GWEI, maxFeePerGas: 103n * GWEI };
    expect(replacementFees(current, spike, 30n * GWEI)).toEqual({
      maxFeePerGas: 30n * GWEI,
      maxPriorityFeePerGas: 3n * GWEI,
    });
    expect(
      replacementFees({ maxFeePerGas: 30n * GWEI, maxPriorityFeePerGas: 3n * GWEI }, spike, 30n * GWEI),
    ).toBeNull();
    expect(replacementMinimum(10n)).toBe(11n);
    expect(replacementMinimum(11n)).toBe(13n);
  });

  it('writes gwei with the decimals it needs', () => {
    expect(gweiText(5n * GWEI)).toBe('5');
    expect(gweiText(1_250_000_000n)).toBe('1.25');
    expect(gweiText(7n)).toBe('0.000000007');
  });
});
