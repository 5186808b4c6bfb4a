/**
 * A listed record completed from its evidence, as the verification window completes it before it
 * hashes (withEvidence): the API tests that recompute a version 3 leaf read the token's digest where a
 * verifier reads it.
 */
import type { RecordEvidence, Sterilization } from '#shared/api/index.ts';
import { type VerifiableRecord, withEvidence } from '#shared/integrity/verifiable-record.ts';
import { expectContract } from './response-checks.ts';
import type { TestApp } from './test-app.ts';

/** GET /sterilizations/evidence/{id} as `session`, checked against the contract. */
export async function evidenceOf(t: TestApp, session: string, id: number): Promise<RecordEvidence> {
  const response = await t.as(session, { method: 'GET', url: `/api/v1/sterilizations/evidence/${id}` });
  expectContract('getSterilizationEvidence', response, 200);
  return response.json().data as RecordEvidence;
}

/** The record with its evidence's digest and position. */
export async function verifiableRecord(
  t: TestApp,
  session: string,
  row: Sterilization,
): Promise<VerifiableRecord> {
  return withEvidence(row, await evidenceOf(t, session, row.id));
}

/** Every field as the text a form holds (null stays null): what recordFromForm reads. */
export function recordTexts(record: object): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [key, value === null ? null : String(value)]),
  );
}
