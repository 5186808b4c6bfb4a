/**
 * A record as a verifier hashes it: its list row completed with what only its evidence carries. A list
 * row does not carry its token's digest (a version 3 leaf's `token_sha256`, docs/integrity.md §12); the
 * record's evidence (GET /sterilizations/evidence/{id}) does.
 */
import type { RecordEvidence, Sterilization } from '#shared/api/index.ts';

/** A record with its token's digest, which a version 3 leaf holds and a list row does not carry. */
export type VerifiableRecord = Sterilization & { token_sha256: string | null };

/** The record completed from its evidence; none, or no token kept: no digest. */
export function withEvidence(record: Sterilization, evidence: RecordEvidence | undefined): VerifiableRecord {
  return {
    ...record,
    token_sha256: evidence?.token?.sha256 ?? null,
    token_position: evidence?.position ?? record.token_position,
  };
}
