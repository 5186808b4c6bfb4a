// Demo data, what `npm start` seeds on first start: the manufacturer, a handful of clinics with users
// and devices (seed/demo-fleet.ts), consumable batches at every colour level and a configurable number
// of sterilization records (seed/sterilization-history.ts). Every value comes from a seeded PRNG; only
// the time axis is anchored to today (records span the last 120 days), so two seeds on the same day
// produce identical rows. Device private keys: seed/device-key-files.ts.

import { keyThumbprint } from '#shared/integrity/device-key.ts';
import { deferDeviceProgress, rebuildDeviceProgress } from '../modules/devices/device-progress.ts';
import { deferDailyOkCounts, recountDailyOkCounts } from '../modules/sterilizations/daily-ok-counts.ts';
import { recountLotFlagCounts, supplyLotStatus } from '../modules/sterilizations/lot-flag-counts.ts';
import { hashPassword } from '../security/passwords.ts';
import type { Database } from './client.ts';
import { copySterilizationHistory, type LoadPhases } from './seed/bulk-load.ts';
import { ACCOUNTS, CLINICS, type ClinicSpec, MANUFACTURER } from './seed/demo-fleet.ts';
import {
  createDeviceKeysDir,
  type DeviceKeyPair,
  deviceKeyPair,
  newKeyPair,
} from './seed/device-key-files.ts';
import { deviceTokenGroups, TokenSigner } from './seed/device-tokens.ts';
import { createPrng } from './seed/prng.ts';
import {
  DAY_MS,
  type DevicePlan,
  HISTORY_DAYS,
  insertSterilizationHistory,
  lotOf,
  sterilizationHistoryRows,
} from './seed/sterilization-history.ts';

export const DEMO_PASSWORD = 'demo-password';
const PRNG_SEED = 20_260_131;

export interface SeedOptions {
  /** Number of sterilization records (default 3000). */
  sterilizations?: number;
  /**
   * Data directory: each device's private key is written to `<keysDir>/device-keys/<serial>.pem`
   * (an existing file is reused, so a re-seed keeps the simulator's keys valid). Absent or null:
   * no files.
   */
  keysDir?: string | null;
  /**
   * 'shared': one new key pair for all devices (fast, for tests); a key pair: that one for all devices
   * (two seeds that must sign alike). Default 'per-device'.
   */
  deviceKeys?: 'per-device' | 'shared' | DeviceKeyPair;
  /**
   * How the records are written: 'copy' through COPY with the table's indexes, foreign keys and
   * triggers off while loading (PostgreSQL server only; seed/bulk-load.ts), 'insert' in batched INSERTs
   * with the triggers at work. Default: 'copy' on a PostgreSQL server from BULK_LOAD_MIN_RECORDS
   * records, else 'insert'.
   */
  load?: 'copy' | 'insert';
  /**
   * The most records a device puts in one token (1–100); each token's size is drawn from 1 to it.
   * Default 4, and 100 from BULK_LOAD_MIN_RECORDS records (fewer signatures for millions).
   */
  recordsPerToken?: number;
}

/** From this many records a PostgreSQL seed loads them with COPY (seed/bulk-load.ts). */
export const BULK_LOAD_MIN_RECORDS = 100_000;

export interface SeedDevice {
  id: number;
  serial: string;
  customerId: number;
  productType: 1 | 2;
  publicKeyPem: string;
  privateKeyPem: string;
}

export interface SeedSummary {
  /** true when the database already held demo data: nothing was written. */
  alreadySeeded: boolean;
  customers: number;
  users: number;
  products: number;
  devices: SeedDevice[];
  consumableBatches: number;
  sterilizations: number;
  /** Insert throughput of the sterilization records. */
  sterilizationRowsPerSecond: number;
  /** A COPY load's phases (ms): copy, index builds, foreign key checks, rebuilt bookkeeping. */
  loadPhases?: LoadPhases;
  elapsedMs: number;
  /** Demo accounts, all with DEMO_PASSWORD. */
  accounts: { email: string; role: string; customerId: number; disabled: boolean }[];
}

let cachedPasswordHash: Promise<string> | undefined;
/** argon2id of DEMO_PASSWORD, hashed once per process (hashing is deliberately slow). */
export function demoPasswordHash(): Promise<string> {
  cachedPasswordHash ??= hashPassword(DEMO_PASSWORD);
  return cachedPasswordHash;
}

export async function isSeeded(database: Database): Promise<boolean> {
  const { rows } = await database.pool.query<{ seeded: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM customers) OR EXISTS (SELECT 1 FROM users) AS seeded',
  );
  return rows[0]?.seeded === true;
}

export async function seedDemoData(database: Database, opts: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const total = opts.sterilizations ?? 3000;
  if (!Number.isInteger(total) || total < 0) throw new Error('sterilizations must be a non-negative integer');
  const recordsPerToken = opts.recordsPerToken ?? (total >= BULK_LOAD_MIN_RECORDS ? 100 : 4);
  if (!Number.isInteger(recordsPerToken) || recordsPerToken < 1 || recordsPerToken > 100)
    throw new Error('recordsPerToken must be an integer from 1 to 100');
  const load =
    opts.load ?? (database.kind === 'postgres' && total >= BULK_LOAD_MIN_RECORDS ? 'copy' : 'insert');
  if (load === 'copy' && database.kind !== 'postgres')
    throw new Error('the COPY load needs a PostgreSQL server');
  const keysDir = opts.keysDir ? await createDeviceKeysDir(opts.keysDir) : null;

  const rand = createPrng(PRNG_SEED);
  const anchor = Math.floor(Date.now() / DAY_MS) * DAY_MS; // today 00:00 UTC
  const iso = (ms: number) => new Date(ms).toISOString();

  // Key generation and password hashing are slow; start them before taking the connection.
  const serials: { serial: string; clinic: number; spec: ClinicSpec['devices'][number] }[] = [];
  CLINICS.forEach((clinic, c) => {
    clinic.devices.forEach((spec, d) => {
      const prefix = spec.type === 1 ? 'NP' : 'SB';
      serials.push({ serial: `${prefix}000${c + 2}${String(d + 1).padStart(2, '0')}`, clinic: c, spec });
    });
  });
  const sharedKey =
    opts.deviceKeys === 'shared'
      ? newKeyPair()
      : typeof opts.deviceKeys === 'object'
        ? Promise.resolve(opts.deviceKeys)
        : undefined;
  const keysPromise = Promise.all(serials.map((s) => sharedKey ?? deviceKeyPair(s.serial, keysDir)));
  const hashPromise = demoPasswordHash();
  // Avoid an unhandled rejection if we bail out below before awaiting them.
  keysPromise.catch(() => {});
  hashPromise.catch(() => {});

  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    // Two processes seeding at once on a real server: the second waits here, then sees the data.
    await client.query('SELECT pg_advisory_xact_lock(4242017002)');
    const { rows: seededRows } = await client.query<{ seeded: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM customers) OR EXISTS (SELECT 1 FROM users) AS seeded',
    );
    if (seededRows[0]?.seeded) {
      await client.query('ROLLBACK');
      return {
        alreadySeeded: true,
        customers: 0,
        users: 0,
        products: 0,
        devices: [],
        consumableBatches: 0,
        sterilizations: 0,
        sterilizationRowsPerSecond: 0,
        elapsedMs: Math.round(performance.now() - started),
        accounts: [],
      };
    }

    const { rows: productRows } = await client.query<{ id: number; type: number }>(
      `INSERT INTO products (name, type, created_at) VALUES
         ('Sterilizing Neck Plug', 1, $1), ('Sterilizing Bath', 2, $1) RETURNING id, type`,
      [iso(anchor - 400 * DAY_MS)],
    );
    const productIdByType = new Map(productRows.map((r) => [r.type, r.id]));

    // Customers with explicit ids: customer 1 must be the manufacturer.
    const customerValues: unknown[] = [];
    const customerTuples: string[] = [];
    const allCustomers = [
      { ...MANUFACTURER, referrer: null, enableBlockchain: false, disabled: false, createdDaysAgo: 400 },
      ...CLINICS.map((c, i) => ({ ...c, createdDaysAgo: 300 - i * 20 })),
    ];
    allCustomers.forEach((c, i) => {
      const p = customerValues.length;
      customerTuples.push(`(${Array.from({ length: 12 }, (_, k) => `$${p + k + 1}`).join(', ')})`);
      const createdAt = anchor - c.createdDaysAgo * DAY_MS;
      customerValues.push(
        i + 1,
        c.name,
        c.address,
        c.postcode,
        c.city,
        c.country,
        c.email,
        c.phone,
        c.referrer,
        c.enableBlockchain,
        iso(createdAt),
        c.disabled ? iso(anchor - 60 * DAY_MS) : null,
      );
    });
    await client.query(
      `INSERT INTO customers (id, name, address, postcode, city, country, email, phone, referrer,
         enable_blockchain, created_at, deleted_at) VALUES ${customerTuples.join(', ')}`,
      customerValues,
    );
    await client.query(
      "SELECT setval(pg_get_serial_sequence('customers', 'id'), (SELECT max(id) FROM customers))",
    );

    const passwordHash = await hashPromise;
    for (const [i, a] of ACCOUNTS.entries()) {
      await client.query(
        `INSERT INTO users (customer_id, name, email, password_hash, role, password_changed_at, created_at, deleted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`,
        [
          a.customerId,
          a.name,
          a.email,
          passwordHash,
          a.role,
          iso(anchor - (380 - i * 15) * DAY_MS),
          a.disabled ? iso(anchor - 30 * DAY_MS) : null,
        ],
      );
    }

    const keys = await keysPromise;
    const devices: (SeedDevice & { clinic: number })[] = [];
    const keyEvents = new Map<number, number>();
    for (const [i, s] of serials.entries()) {
      const key = keys[i]!;
      const clinic = CLINICS[s.clinic]!;
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO devices (customer_id, product_id, device_serial, label, public_key, created_at, deleted_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          s.clinic + 2,
          productIdByType.get(s.spec.type),
          s.serial,
          s.spec.label,
          key.publicKeyPem,
          iso(anchor - (HISTORY_DAYS + 10 + i) * DAY_MS),
          clinic.disabled ? iso(anchor - 60 * DAY_MS) : null,
        ],
      );
      // The key's history starts when the device was made: the demo's past, as its devices lived it
      // (the API never takes a time for a key change; only the seed writes history).
      const { rows: events } = await client.query<{ id: number }>(
        `INSERT INTO device_key_events (device_id, device_serial, slot, action, public_key, thumbprint, effective_at)
         VALUES ($1, $2, 1, 'registered', $3, $4, $5) RETURNING id`,
        [
          rows[0]!.id,
          s.serial,
          key.publicKeyPem,
          await keyThumbprint(key.publicKeyPem),
          iso(anchor - (HISTORY_DAYS + 10 + i) * DAY_MS),
        ],
      );
      await client.query('UPDATE devices SET key_event_1 = $2 WHERE id = $1', [rows[0]!.id, events[0]!.id]);
      keyEvents.set(rows[0]!.id, events[0]!.id);
      devices.push({
        id: rows[0]!.id,
        serial: s.serial,
        customerId: s.clinic + 2,
        productType: s.spec.type,
        publicKeyPem: key.publicKeyPem,
        privateKeyPem: key.privateKeyPem,
        clinic: s.clinic,
      });
    }

    // One current batch per device; its level cycles green → orange → red so that every colour
    // shows up, then a second (older, full) batch on every third device.
    const plans = devices.map((d, i): DevicePlan => {
      const quantity = [100, 200, 250, 500][Math.floor(rand() * 4)]!;
      const level = i % 3;
      const fraction =
        level === 0 ? 0.1 + rand() * 0.65 : level === 1 ? 0.8 + rand() * 0.19 : 1 + rand() * 0.1;
      const count = Math.max(1, Math.floor(quantity * fraction));
      return {
        device: d,
        clinic: CLINICS[d.clinic]!,
        quantity,
        count: level === 1 ? Math.min(count, quantity - 1) : count,
        base: 600 + i * 37,
      };
    });
    let batchCount = 0;
    for (const plan of plans) {
      const current = lotOf(plan.base);
      const rows: [string, number, number][] = [[current.code, current.progressive, plan.count]];
      if (plan.device.id % 3 === 0) {
        const previous = lotOf(plan.base - 1);
        rows.push([previous.code, previous.progressive, plan.quantity]);
      }
      for (const [code, progressive, count] of rows) {
        await client.query(
          `INSERT INTO consumable_batches (device_id, customer_id, lot_code, lot_progressive, batch_quantity,
             sterilization_count, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
          [
            plan.device.id,
            plan.device.customerId,
            code,
            progressive,
            plan.quantity,
            count,
            iso(anchor - 2 * DAY_MS),
          ],
        );
        batchCount++;
      }
    }

    const insertStarted = performance.now();
    const load =
      opts.load ?? (database.kind === 'postgres' && total >= BULK_LOAD_MIN_RECORDS ? 'copy' : 'insert');
    let loadPhases: SeedSummary['loadPhases'];
    // Each device sends its cycles in tokens signed with its key (seed/device-tokens.ts); both loads
    // replay the same groups from the generators' current state.
    const signer = new TokenSigner(
      new Map(
        devices.map((device) => [
          device.id,
          {
            serial: device.serial,
            privateKeyPem: device.privateKeyPem,
            keyEventId: keyEvents.get(device.id)!,
          },
        ]),
      ),
    );
    const sizes = createPrng(PRNG_SEED + 1);
    const tokenGroups = () => {
      const history = rand.clone();
      const size = sizes.clone();
      return deviceTokenGroups(
        sterilizationHistoryRows(history, plans, total, anchor),
        () => 1 + Math.floor(size() * recordsPerToken),
      );
    };
    if (load === 'copy') {
      if (database.kind !== 'postgres') throw new Error('the COPY load needs a PostgreSQL server');
      // The triggers are off while it loads: it flags the late records and keeps their tables itself.
      loadPhases = await copySterilizationHistory(client, tokenGroups, signer, total);
      await client.query('analyze sterilizations, device_tokens');
    } else {
      await deferDailyOkCounts(client);
      await deferDeviceProgress(client);
      await supplyLotStatus(client);
      await insertSterilizationHistory(client, tokenGroups(), signer);
      await recountDailyOkCounts(client);
      await rebuildDeviceProgress(client);
      await recountLotFlagCounts(client);
    }
    const insertMs = performance.now() - insertStarted;

    await client.query('COMMIT');
    return {
      alreadySeeded: false,
      customers: allCustomers.length,
      users: ACCOUNTS.length,
      products: productRows.length,
      devices: devices.map(({ clinic: _clinic, ...d }) => d),
      consumableBatches: batchCount,
      sterilizations: total,
      sterilizationRowsPerSecond: insertMs > 0 ? Math.round((total / insertMs) * 1000) : 0,
      ...(loadPhases ? { loadPhases } : {}),
      elapsedMs: Math.round(performance.now() - started),
      accounts: ACCOUNTS.map((a) => ({
        email: a.email,
        role: a.role,
        customerId: a.customerId,
        disabled: a.disabled,
      })),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
