/**
 * A device of a blockchain clinic that signs its records as a real one does (RS256, its own key) and
 * posts them through POST /api/v1/ingest/sterilizations; and a wait until the anchor worker has put
 * records in MINED blocks. For the tests of what is stored, backed up and swept (docs/backups.md).
 */
import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { cycleClaim, unique } from './fixtures.ts';
import { postRecords } from './ingest.ts';

export interface SigningDevice {
  customerId: number;
  deviceId: number;
  serial: string;
  privateKeyPem: string;
  /** The next progressive id it will send. */
  next: number;
}

/** A new blockchain-enabled clinic with one device holding a fresh key pair (its public key registered). */
export async function signingDevice(pool: pg.Pool): Promise<SigningDevice> {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const customer = await pool.query(
    `insert into customers (name, country, enable_blockchain) values ($1, 'IT', true) returning id`,
    [`Signing clinic ${unique()}`],
  );
  const customerId = Number(customer.rows[0].id);
  const product = await pool.query(`select id from products where deleted_at is null order by id limit 1`);
  const serial = `S${unique()}Z`.slice(0, 8);
  const device = await pool.query(
    `insert into devices (customer_id, product_id, device_serial, label, public_key) values ($1, $2, $3, $4, $5) returning id`,
    [
      customerId,
      product.rows[0].id,
      serial,
      `Signing device ${serial}`,
      pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    ],
  );
  return {
    customerId,
    deviceId: Number(device.rows[0].id),
    serial,
    privateKeyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    next: 1,
  };
}

/**
 * Signs `count` new records of the device in one token and posts it; answers the stored records' ids,
 * or throws with the server's answer.
 */
export async function postSigned(
  app: FastifyInstance,
  device: SigningDevice,
  count = 1,
  overrides: Partial<SterilizationClaim> = {},
): Promise<number[]> {
  const records = Array.from({ length: count }, () => cycleClaim(device.next++, overrides));
  const response = await postRecords(app, device, records);
  if (response.statusCode !== 200)
    throw new Error(`ingestion answered ${response.statusCode}: ${response.body}`);
  const data = response.json().data as { id: number } | { id: number }[] | { data: { id: number }[] };
  const list = Array.isArray(data) ? data : 'data' in data ? data.data : [data];
  return list.map((record) => Number(record.id));
}

/** Waits until every record of blockchain-enabled clinics is in a MINED block. */
export async function waitUntilMined(pool: pg.Pool, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const left = await pool.query<{ n: string }>(`
      select count(*) as n from sterilizations s join customers c on c.id = s.customer_id
      left join blockchain_data_blocks b on b.id = s.blockchain_data_block_id
      where c.enable_blockchain and (b.id is null or b.status not in ('MINED', 'FINAL'))`);
    if (Number(left.rows[0]!.n) === 0) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`${left.rows[0]!.n} records were not anchored in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
