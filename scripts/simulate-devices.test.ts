import { describe, expect, it } from 'vitest';
import { createPrng } from '#server/db/seed/prng.ts';
import { sterilizationClaimSchema } from '#shared/ingestion/claims.ts';
import { BATCH_QUANTITY, initialState, nextRecord, productOf } from './simulate-devices.ts';

describe('simulate-devices record builder', () => {
  it('builds records the server accepts, numbered upwards from the current time', async () => {
    const random = createPrng(7);
    let state = initialState(random);
    const now = 1_800_000_000;
    const seen: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < 500; i++) {
      // Several records within one second still get distinct, increasing numbers.
      const built = nextRecord('NP000201', state, random, now + Math.floor(i / 10));
      await expect(sterilizationClaimSchema.validate(built.record, { strict: true })).resolves.toBeTruthy();
      expect(built.record.effective_time).toBeLessThanOrEqual(built.record.nominal_time);
      seen.push(built.record.progressive_id);
      statuses.add(built.record.status_code);
      state = built.state;
    }
    expect(seen[0]).toBe(now);
    expect(seen.every((value, i) => i === 0 || value > (seen[i - 1] as number))).toBe(true);
    expect(statuses).toEqual(new Set([0, 1, 2, 3]));
  });

  it('continues after the last number sent when that is ahead of the clock', () => {
    const random = createPrng(1);
    const state = { ...initialState(random), progressive: 1_900_000_000 };
    expect(nextRecord('SB000203', state, random, 1_800_000_000).record.progressive_id).toBe(1_900_000_001);
  });

  it('moves to a new sleeve batch every BATCH_QUANTITY cycles', () => {
    const random = createPrng(3);
    let state = initialState(random);
    const lots: string[] = [];
    for (let i = 0; i < BATCH_QUANTITY + 1; i++) {
      const built = nextRecord('SB000203', state, random, 1_800_000_000);
      lots.push(`${built.record.consumables_lot}/${built.record.lot_progressive_id}`);
      state = built.state;
    }
    expect(new Set(lots.slice(0, BATCH_QUANTITY)).size).toBe(1);
    expect(lots[BATCH_QUANTITY]).not.toBe(lots[0]);
    expect(productOf('SB000203')).toBe('bath');
    expect(productOf('NP000201')).toBe('plug');
  });
});
