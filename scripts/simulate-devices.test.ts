import { describe, expect, it } from 'vitest';
import { createPrng } from '#server/db/seed/prng.ts';
import { sterilizationClaimSchema } from '#shared/ingestion/claims.ts';
import { BATCH_QUANTITY, initialState, nextRecord, productOf, serverState } from './simulate-devices.ts';

describe('simulate-devices record builder', () => {
  it('builds records the server accepts, numbered on from the last stored one, with their own time', async () => {
    const random = createPrng(7);
    let state = initialState(random, 41);
    const now = new Date('2026-11-28T10:00:00Z');
    const seen: number[] = [];
    const statuses = new Set<number>();
    for (let i = 0; i < 500; i++) {
      // Several records within one second still get distinct, increasing numbers.
      const built = nextRecord('NP000201', state, random, now, ['L2026-031']);
      expect(built.record.consumables_lot).toBe('L2026-031');
      expect(built.record.cycle_ts).toBe(now.toISOString());
      await expect(sterilizationClaimSchema.validate(built.record, { strict: true })).resolves.toBeTruthy();
      expect(built.record.effective_time).toBeLessThanOrEqual(built.record.nominal_time);
      seen.push(built.record.progressive_id);
      statuses.add(built.record.status_code);
      state = built.state;
    }
    // No gap: the first is the one after the last stored, each the one after the previous.
    expect(seen[0]).toBe(42);
    expect(seen.every((value, i) => i === 0 || value === (seen[i - 1] as number) + 1)).toBe(true);
    expect(statuses).toEqual(new Set([0, 1, 2, 3]));
  });

  it('uses its own lot codes only when no certified lot is given', () => {
    const random = createPrng(1);
    const built = nextRecord('SB000203', initialState(random), random, new Date());
    expect(built.record.consumables_lot).toMatch(/^SIM-SB000203-/);
  });

  it('moves to a new sleeve batch every BATCH_QUANTITY cycles', () => {
    const random = createPrng(3);
    let state = initialState(random);
    const lots: string[] = [];
    for (let i = 0; i < BATCH_QUANTITY + 1; i++) {
      const built = nextRecord('SB000203', state, random, new Date());
      lots.push(`${built.record.consumables_lot}/${built.record.lot_progressive_id}`);
      state = built.state;
    }
    expect(new Set(lots.slice(0, BATCH_QUANTITY)).size).toBe(1);
    expect(lots[BATCH_QUANTITY]).not.toBe(lots[0]);
    expect(productOf('SB000203')).toBe('bath');
    expect(productOf('NP000201')).toBe('plug');
  });
});

describe('simulate-devices against a server', () => {
  it("goes on from each device's last stored progressive id and finds the certified lots", async () => {
    const { createTestApp } = await import('#server/test/test-app.ts');
    const t = await createTestApp();
    try {
      const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const device = t.seed.devices[0]!;
      const stored = await t.database.pool.query(
        'select max(progressive_id)::int as last from sterilizations where device_id = $1',
        [device.id],
      );
      const lot = `L-SIM-${Date.now()}`;
      await t.database.pool.query(
        `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name, en_file_name)
         values ($1, 'VT-1', current_date + 30, 'it.pdf', 'en.pdf')`,
        [lot],
      );
      const state = await serverState({ url, email: 'super@example.com', password: 'demo-password' }, [
        device.serial,
      ]);
      expect(state.last.get(device.serial)).toBe(stored.rows[0].last);
      expect(state.lots).toContain(lot);
    } finally {
      await t.close();
    }
  });
});
