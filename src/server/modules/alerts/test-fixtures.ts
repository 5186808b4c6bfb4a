/**
 * Clinics with one signing device, for the tests of the alerts that ingestion and the sweep raise:
 * the device's records in sequence, posted as the device posts them, then a wait for their alert
 * evaluation, so that a test sees the alerts of what it sent.
 */
import { generateKeyPairSync } from 'node:crypto';
import { cycleClaim, makeCustomer, makeDevice } from '#server/test/fixtures.ts';
import { ingestRecords, type SigningKey } from '#server/test/ingest.ts';
import type { TestApp } from '#server/test/test-app.ts';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

// Every clinic's device holds the same key pair: a pair per device would only slow the tests down,
// and no alert depends on which key signed.
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const privatePem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A clinic and its device, which signs as itself (its serial and private key). */
export interface Clinic extends SigningKey {
  customerId: number;
  deviceId: number;
  /** The progressive id of the device's last record. */
  progressive: number;
}

export async function makeClinic(t: TestApp): Promise<Clinic> {
  const customerId = await makeCustomer(t);
  const deviceId = await makeDevice(t, customerId, publicPem);
  const found = await t.database.pool.query('select device_serial from devices where id = $1', [deviceId]);
  return {
    customerId,
    deviceId,
    serial: found.rows[0].device_serial,
    privateKeyPem: privatePem,
    progressive: 0,
  };
}

/** The next record of the clinic's device (in sequence unless `progressive_id` is given). */
export function nextRecord(c: Clinic, overrides: Partial<SterilizationClaim> = {}): SterilizationClaim {
  c.progressive = overrides.progressive_id ?? c.progressive + 1;
  return cycleClaim(c.progressive, overrides);
}

/** Posts signed records as the device would, and waits for their alert evaluation. */
export async function ingest(t: TestApp, c: Clinic, records: SterilizationClaim[]) {
  const stored = await ingestRecords(t.app, c, records);
  await t.app.alerts.idle();
  return stored;
}
