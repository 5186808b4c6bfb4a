/**
 * Fixtures the API tests share: rows made directly in the database (so a test never depends on the
 * demo data beyond the demo users), and table snapshots to prove that a refused request changed nothing.
 */
import { createHash, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { WriteRequest } from '#server/modules/sterilizations/record-writer.ts';
import type { Role } from '#shared/access/index.ts';
import { ingestionClaims, type SterilizationClaim } from '#shared/ingestion/claims.ts';
import { ensureKeyEvents } from '../modules/devices/key-history.ts';
import type { TestApp } from './test-app.ts';

let counter = 0;
/** A short token unique within the test run (8-character serials need it short). */
export function unique(): string {
  counter += 1;
  return `${(Date.now() % 100_000).toString(36)}${counter.toString(36)}`
    .toUpperCase()
    .slice(-6)
    .padStart(6, '0');
}

export async function makeCustomer(
  t: TestApp,
  values: { name?: string; deleted?: boolean } = {},
): Promise<number> {
  const result = await t.database.pool.query(
    `insert into customers (name, country, deleted_at) values ($1, 'IT', $2) returning id`,
    [values.name ?? `Fixture clinic ${unique()}`, values.deleted ? new Date() : null],
  );
  return Number(result.rows[0].id);
}

/** A user that cannot log in (its hash is not an argon2 hash); enough for reads and writes about it. */
export async function makeUser(t: TestApp, customerId: number, role: Role = 'CUSTOMER'): Promise<number> {
  const tag = unique().toLowerCase();
  const result = await t.database.pool.query(
    `insert into users (customer_id, name, email, password_hash, role) values ($1, $2, $3, 'x', $4) returning id`,
    [customerId, `Fixture user ${tag}`, `fixture-${tag}@example.com`, role],
  );
  return Number(result.rows[0].id);
}

export async function productId(t: TestApp, type: 1 | 2 = 1): Promise<number> {
  const found = await t.database.pool.query(
    `select id from products where type = $1 and deleted_at is null order by id limit 1`,
    [type],
  );
  if (found.rows[0]) return Number(found.rows[0].id);
  const made = await t.database.pool.query(`insert into products (name, type) values ($1, $2) returning id`, [
    type === 1 ? 'Sterilizing Neck Plug' : 'Sterilizing Bath',
    type,
  ]);
  return Number(made.rows[0].id);
}

export async function makeDevice(
  t: TestApp,
  customerId: number,
  publicKey: string | null = null,
): Promise<number> {
  const serial = `F${unique()}X`.slice(0, 8);
  const result = await t.database.pool.query(
    `insert into devices (customer_id, product_id, device_serial, label, public_key) values ($1, $2, $3, $4, $5) returning id`,
    [customerId, await productId(t), serial, `Fixture device ${serial}`, publicKey],
  );
  return Number(result.rows[0].id);
}

export async function customerIdOf(t: TestApp, email: string): Promise<number> {
  const result = await t.database.pool.query(`select customer_id from users where email = $1`, [email]);
  return Number(result.rows[0].customer_id);
}

export async function userIdOf(t: TestApp, email: string): Promise<number> {
  const result = await t.database.pool.query(`select id from users where email = $1`, [email]);
  return Number(result.rows[0].id);
}

/** Every row of the tables this issue writes, to compare before and after a refused request. */
export async function snapshot(t: TestApp): Promise<unknown> {
  const tables: Record<string, unknown[]> = {};
  for (const [table, order] of [
    ['customers', 'id'],
    ['users', 'id'],
    ['devices', 'id'],
    ['products', 'id'],
    // A refused request writes no audit entry either.
    ['audit_log', 'id'],
  ] as const) {
    tables[table] = (await t.database.pool.query(`select * from ${table} order by ${order}`)).rows;
  }
  tables.sessions = (
    await t.database.pool.query(
      `select id, revoked_at from sessions where revoked_at is not null order by id`,
    )
  ).rows;
  return tables;
}

export function rsaPublicKeyPem(bits = 2048): string {
  return generateKeyPairSync('rsa', { modulusLength: bits })
    .publicKey.export({ type: 'spki', format: 'pem' })
    .toString();
}

/** A successful cycle as a device reports it, without a lot unless the overrides name one. */
export function cycleClaim(
  progressive: number,
  overrides: Partial<SterilizationClaim> = {},
): SterilizationClaim {
  return {
    progressive_id: progressive,
    supplied_energy: 300,
    nominal_time: 10,
    effective_time: 10,
    residual_lamp_life: 4000,
    status_code: 0,
    latitude: null,
    longitude: null,
    consumables_lot: null,
    lot_progressive_id: null,
    batch_quantity: null,
    notes: null,
    ...overrides,
  };
}

/** The key event of a device's slot 1 (written now when its key has none yet): what a token of its key names. */
export async function slotOneKeyEvent(t: TestApp, deviceId: number): Promise<number> {
  await ensureKeyEvents(t.database.db, deviceId);
  const found = await t.database.pool.query('select key_event_1 from devices where id = $1', [deviceId]);
  return Number(found.rows[0].key_event_1);
}

const base64url = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64url');

/**
 * A record writer's request for a seed device, as ingestion makes it: a real RS256 token over the
 * records, signed with the device's private key (synchronously, so a test can hand several requests
 * to the writer in one tick), naming the key event of the slot that verifies it.
 */
export function signedWriteRequest(
  device: { id: number; serial: string; privateKeyPem: string },
  records: SterilizationClaim[],
  keyEventId: number,
): WriteRequest {
  const claims = ingestionClaims(device.serial, records);
  const signingInput = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}`;
  const signature = sign(
    'sha256',
    Buffer.from(signingInput, 'ascii'),
    createPrivateKey(device.privateKeyPem),
  );
  const jws = `${signingInput}.${base64url(signature)}`;
  return {
    deviceId: device.id,
    records,
    token: {
      jws,
      sha256: createHash('sha256').update(jws, 'ascii').digest('hex'),
      issuedAt: claims.iat,
      keyEventId,
    },
  };
}

/**
 * Runs a statement as someone holding the database's owner rights could, past the triggers that
 * refuse a change of a record's values to everyone else (they switch off with every other trigger for
 * this one transaction): how a test plays the insider that evidence must catch.
 */
export async function asDatabaseOwner(
  database: { pool: { connect(): Promise<PoolClient> } },
  statement: string,
  params: unknown[] = [],
): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    await client.query(statement, params);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}
