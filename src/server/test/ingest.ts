/**
 * Records sent as a device sends them, for the API tests that need stored records: claims signed with
 * the device's RS256 key (signDeviceToken) and posted to POST /api/v1/ingest/sterilizations through
 * inject(). The ingestion tests themselves build their bad and odd requests by hand.
 */
import { expect } from 'vitest';
import type { Sterilization } from '#shared/api/index.ts';
import { ingestionClaims, type SterilizationClaim } from '#shared/ingestion/claims.ts';
import { signDeviceToken } from './contract-support.ts';
import type { TestApp } from './test-app.ts';

/** A device as it signs: its serial (the token's `iss`) and its private key (PKCS#8 PEM). */
export interface SigningKey {
  serial: string;
  privateKeyPem: string;
}

/** What can take a request: an app, or a peer app on the same database. */
type Injecting = Pick<TestApp['app'], 'inject'>;

/** One token of these records, signed by the device. */
export function signRecords(device: SigningKey, records: SterilizationClaim[]): Promise<string> {
  return signDeviceToken(ingestionClaims(device.serial, records), device.privateKeyPem);
}

/** Posts a device token; answers the response as it came. */
export function postToken(app: Injecting, token: string, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/v1/ingest/sterilizations', headers, payload: { token } });
}

/** Signs the records in one token and posts it; answers the response as it came. */
export async function postRecords(
  app: Injecting,
  device: SigningKey,
  records: SterilizationClaim[],
  headers: Record<string, string> = {},
) {
  return postToken(app, await signRecords(device, records), headers);
}

/** Signs and posts records that must be stored (200); answers the stored records. */
export async function ingestRecords(
  app: Injecting,
  device: SigningKey,
  records: SterilizationClaim[],
  headers: Record<string, string> = {},
): Promise<Sterilization[]> {
  const response = await postRecords(app, device, records, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}
