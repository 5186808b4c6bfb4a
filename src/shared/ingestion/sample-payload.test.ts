import { describe, expect, it } from 'vitest';
import { recordsOf, sterilizationClaimSchema } from './claims.ts';
import { SAMPLE_STERILIZATION, sampleIngestionClaims } from './sample-payload.ts';

describe('sample ingestion claims', () => {
  it('carry the device serial, a 5 minute lifetime and one valid record', () => {
    const claims = sampleIngestionClaims('AB12CD34', new Date('2026-01-02T03:04:05.678Z'));
    const iat = Math.floor(Date.parse('2026-01-02T03:04:05Z') / 1000);
    expect(claims).toEqual({ iss: 'AB12CD34', iat, exp: iat + 300, sterilization: SAMPLE_STERILIZATION });
    const records = recordsOf(claims) as unknown[];
    expect(records).toHaveLength(1);
    expect(sterilizationClaimSchema.validateSync(records[0], { strict: true })).toEqual(SAMPLE_STERILIZATION);
  });
});
