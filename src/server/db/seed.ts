// Demo data: the manufacturer, a handful of clinics with users and devices, consumable batches at
// every colour level and a configurable number of sterilization records. Every value comes from a
// seeded PRNG; only the time axis is anchored to today (records span the last 120 days), so two
// seeds on the same day produce identical rows.
import { createPrivateKey, createPublicKey, generateKeyPair } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PoolClient } from 'pg';
import { hashPassword } from '../auth/passwords.ts';
import type { Database } from './client.ts';
import { deferDailyOkCounts, recountDailyOkCounts } from './daily-ok-counts.ts';

export const DEMO_PASSWORD = 'demo-password';
const PRNG_SEED = 20_260_131;
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 120;
const INSERT_BATCH_ROWS = 5_000;

export interface SeedOptions {
  /** Number of sterilization records (default 3000). */
  sterilizations?: number;
  /**
   * Data directory: each device's private key is written to `<keysDir>/device-keys/<serial>.pem`
   * (an existing file is reused, so a re-seed keeps the simulator's keys valid). Absent or null:
   * no files.
   */
  keysDir?: string | null;
  /** 'shared': one key pair for all devices (fast, for tests). Default 'per-device'. */
  deviceKeys?: 'per-device' | 'shared';
}

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
  elapsedMs: number;
  /** Demo accounts, all with DEMO_PASSWORD. */
  accounts: { email: string; role: string; customerId: number; disabled: boolean }[];
}

/** mulberry32: small, fast, good enough for demo data, and the same on every platform. */
export function createPrng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface ClinicSpec {
  name: string;
  address: string;
  postcode: string;
  city: string;
  country: string;
  email: string;
  phone: string;
  referrer: string | null;
  enableBlockchain: boolean;
  disabled: boolean;
  lat: number;
  lon: number;
  devices: { type: 1 | 2; label: string }[];
}

const MANUFACTURER = {
  name: 'UV Tech S.r.l.',
  address: 'Via Enrico Fermi 21',
  postcode: '37135',
  city: 'Verona',
  country: 'IT',
  email: 'info@uvtech.example.com',
  phone: '+39 045 555 0100',
};

const CLINICS: ClinicSpec[] = [
  {
    name: 'Clinica San Marco',
    address: 'Corso Vittorio Emanuele II 112',
    postcode: '10121',
    city: 'Torino',
    country: 'IT',
    email: 'segreteria@clinicasanmarco.example.com',
    phone: '+39 011 555 0142',
    referrer: 'Marco Bianchi',
    enableBlockchain: true,
    disabled: false,
    lat: 45.0703,
    lon: 7.6869,
    devices: [
      { type: 1, label: 'Ambulatorio 1' },
      { type: 1, label: 'Ambulatorio 2' },
      { type: 2, label: 'Sala sterilizzazione' },
      { type: 2, label: 'Pronto soccorso' },
    ],
  },
  {
    name: 'Poliambulatorio Santa Chiara',
    address: 'Via dei Servi 28',
    postcode: '50122',
    city: 'Firenze',
    country: 'IT',
    email: 'info@santachiara.example.com',
    phone: '+39 055 555 0177',
    referrer: 'Giulia Romano',
    enableBlockchain: false,
    disabled: false,
    lat: 43.7696,
    lon: 11.2558,
    devices: [
      { type: 1, label: 'Studio medico A' },
      { type: 2, label: 'Sala piccoli interventi' },
      { type: 1, label: 'Studio medico B' },
    ],
  },
  {
    name: 'Clinica Veterinaria Ticino',
    address: 'Via Nassa 15',
    postcode: '6900',
    city: 'Lugano',
    country: 'CH',
    email: 'ambulatorio@vet-ticino.example.com',
    phone: '+41 91 555 01 23',
    referrer: null,
    enableBlockchain: true,
    disabled: false,
    lat: 46.0037,
    lon: 8.9511,
    devices: [
      { type: 1, label: 'Ambulatorio piccoli animali' },
      { type: 2, label: 'Sala chirurgica' },
    ],
  },
  {
    name: 'Centre Médical Riviera',
    address: '12 Boulevard Victor Hugo',
    postcode: '06000',
    city: 'Nice',
    country: 'FR',
    email: 'contact@cm-riviera.example.com',
    phone: '+33 4 93 55 50 12',
    referrer: 'Marco Bianchi',
    enableBlockchain: false,
    disabled: false,
    lat: 43.7102,
    lon: 7.262,
    devices: [
      { type: 1, label: 'Cabinet 1' },
      { type: 1, label: 'Cabinet 2' },
      { type: 2, label: 'Salle de stérilisation' },
    ],
  },
  {
    name: 'Studio Dentistico Lago Maggiore',
    address: 'Via Cavour 9',
    postcode: '28921',
    city: 'Verbania',
    country: 'IT',
    email: 'studio@dentisticolago.example.com',
    phone: '+39 0323 555 019',
    referrer: null,
    enableBlockchain: false,
    disabled: true,
    lat: 45.9216,
    lon: 8.5518,
    devices: [{ type: 1, label: 'Poltrona 1' }],
  },
];

/** customerId 1 is the manufacturer; clinic i (0-based) becomes customer i + 2. */
const ACCOUNTS = [
  { email: 'super@example.com', name: 'Sofia Ferrari', role: 'SUPER_ADMIN', customerId: 1, disabled: false },
  { email: 'admin@example.com', name: 'Marco Bianchi', role: 'ADMIN', customerId: 1, disabled: false },
  { email: 'care@example.com', name: 'Giulia Romano', role: 'CUSTOMER_CARE', customerId: 1, disabled: false },
  { email: 'customer@example.com', name: 'Luca Conti', role: 'CUSTOMER', customerId: 2, disabled: false },
  {
    email: 'reception@sanmarco.example.com',
    name: 'Elena Ricci',
    role: 'CUSTOMER',
    customerId: 2,
    disabled: false,
  },
  {
    email: 'former@sanmarco.example.com',
    name: 'Paolo Greco',
    role: 'CUSTOMER',
    customerId: 2,
    disabled: true,
  },
  {
    email: 'direzione@santachiara.example.com',
    name: 'Francesca Marino',
    role: 'CUSTOMER',
    customerId: 3,
    disabled: false,
  },
  { email: 'vet@ticino.example.com', name: 'Andrea Galli', role: 'CUSTOMER', customerId: 4, disabled: false },
  {
    email: 'accueil@cm-riviera.example.com',
    name: 'Camille Laurent',
    role: 'CUSTOMER',
    customerId: 5,
    disabled: false,
  },
] as const;

const NOTES = [
  'Ciclo ripetuto su richiesta del medico',
  'Manutenzione programmata eseguita',
  'Manicotto sostituito prima del ciclo',
  'Sleeve replaced before cycle',
  'Operatore: verifica visiva OK',
  'Cycle started after lamp warm-up',
];
const NOTE_BY_STATUS: Record<number, string> = {
  1: 'Ciclo annullato dall’operatore',
  2: 'Lamp malfunction detected',
  3: 'Probe malfunction detected',
};

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

interface KeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

function newKeyPair(): Promise<KeyPair> {
  return new Promise((resolve, reject) => {
    // Async: RSA generation runs on libuv's pool, in parallel, off the event loop.
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (error, publicKeyPem, privateKeyPem) =>
        error ? reject(error) : resolve({ publicKeyPem, privateKeyPem }),
    );
  });
}

async function keyPairFor(serial: string, dir: string | null): Promise<KeyPair> {
  if (dir) {
    const file = path.join(dir, `${serial}.pem`);
    const existing = await readFile(file, 'utf8').catch(() => undefined);
    if (existing) {
      const publicKeyPem = createPublicKey(createPrivateKey(existing))
        .export({ type: 'spki', format: 'pem' })
        .toString();
      return { publicKeyPem, privateKeyPem: existing };
    }
    const pair = await newKeyPair();
    await writeFile(file, pair.privateKeyPem, { mode: 0o600 });
    return pair;
  }
  return newKeyPair();
}

export async function seedDemoData(database: Database, opts: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const total = opts.sterilizations ?? 3000;
  if (!Number.isInteger(total) || total < 0) throw new Error('sterilizations must be a non-negative integer');
  const keysDir = opts.keysDir ? path.join(opts.keysDir, 'device-keys') : null;
  if (keysDir) await mkdir(keysDir, { recursive: true });

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
  const sharedKey = opts.deviceKeys === 'shared' ? newKeyPair() : undefined;
  const keysPromise = Promise.all(serials.map((s) => sharedKey ?? keyPairFor(s.serial, keysDir)));
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
    const plans = devices.map((d, i) => {
      const quantity = [100, 200, 250, 500][Math.floor(rand() * 4)]!;
      const level = i % 3;
      const fraction =
        level === 0 ? 0.1 + rand() * 0.65 : level === 1 ? 0.8 + rand() * 0.19 : 1 + rand() * 0.1;
      const count = Math.max(1, Math.floor(quantity * fraction));
      return {
        device: d,
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
    await deferDailyOkCounts(client);
    await insertSterilizations(client, rand, plans, total, anchor);
    await recountDailyOkCounts(client);
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

/** Consumable lot n → code and progressive: 20 sleeve batches per lot code. */
function lotOf(n: number): { code: string; progressive: number } {
  return { code: `L2026-${String(Math.floor(n / 20) % 1000).padStart(3, '0')}`, progressive: (n % 20) + 1 };
}

interface Plan {
  device: SeedDevice & { clinic: number };
  quantity: number;
  count: number;
  base: number;
}

/** Per-device stream of records in time order; streams are merged so ids grow with time. */
interface Stream {
  plan: Plan;
  n: number;
  i: number;
  firstProgressive: number;
  startMs: number;
  spanMs: number;
  nextTs: number;
  lampLife: number;
  lat: number;
  lon: number;
}

const WORK_START_MS = 7 * 3_600_000; // 07:00 UTC
const WORK_SPAN_MS = 11 * 3_600_000; // until 18:00 UTC

async function insertSterilizations(
  client: PoolClient,
  rand: () => number,
  plans: Plan[],
  total: number,
  anchor: number,
): Promise<void> {
  if (total === 0 || plans.length === 0) return;
  // The disabled clinic stopped sending records when it was disabled, 60 days ago.
  const weights = plans.map((p) => (CLINICS[p.device.clinic]!.disabled ? 0.2 : 0.6 + rand() * 0.9));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((total * w) / weightSum));
  let remainder = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; remainder > 0; i = (i + 1) % counts.length, remainder--) counts[i]!++;

  // Working time only (Mon–Sat, 07–18 UTC): a position on that axis maps monotonically to a date.
  const workDays: number[] = [];
  for (let d = HISTORY_DAYS; d >= 1; d--) {
    const day = anchor - d * DAY_MS;
    if (new Date(day).getUTCDay() !== 0) workDays.push(day);
  }
  const toTimestamp = (workMs: number) => {
    const index = Math.min(workDays.length - 1, Math.floor(workMs / WORK_SPAN_MS));
    return workDays[index]! + WORK_START_MS + (workMs - index * WORK_SPAN_MS);
  };
  // Records stop at the end of yesterday, so the rows depend on the day only, not the hour.
  const endWorkMs = workDays.length * WORK_SPAN_MS;
  const disabledEnd = (workDays.length - 60) * WORK_SPAN_MS;

  const streams: Stream[] = plans.map((plan, k) => {
    const clinic = CLINICS[plan.device.clinic]!;
    const end = clinic.disabled ? disabledEnd : endWorkMs;
    const stream: Stream = {
      plan,
      n: counts[k]!,
      i: 0,
      firstProgressive: 1 + Math.floor(rand() * 800),
      startMs: 0,
      spanMs: Math.max(1, end - 1),
      nextTs: 0,
      lampLife: 6000 + rand() * 3000,
      lat: clinic.lat,
      lon: clinic.lon,
    };
    stream.nextTs = streamTs(stream, rand);
    return stream;
  });

  const columns = {
    deviceId: [] as number[],
    // The record's owner: the device's customer, as ingestion stores it.
    customerId: [] as number[],
    receivedTs: [] as string[],
    progressiveId: [] as number[],
    suppliedEnergy: [] as string[],
    nominalTime: [] as string[],
    effectiveTime: [] as string[],
    residualLampLife: [] as string[],
    statusCode: [] as number[],
    latitude: [] as (string | null)[],
    longitude: [] as (string | null)[],
    consumablesLot: [] as string[],
    lotProgressiveId: [] as number[],
    notes: [] as (string | null)[],
  };
  const flush = async () => {
    if (columns.deviceId.length === 0) return;
    // One statement per batch with one array parameter per column: parsing stays cheap and the
    // parameter count does not grow with the batch.
    await client.query(
      `INSERT INTO sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot,
         lot_progressive_id, notes, created_at)
       SELECT u.device_id, u.customer_id, u.received_ts, u.progressive_id, u.supplied_energy, u.nominal_time, u.effective_time,
         u.residual_lamp_life, u.status_code, u.latitude, u.longitude, u.consumables_lot, u.lot_progressive_id,
         u.notes, u.received_ts
       FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::int[], $5::numeric[], $6::numeric[], $7::numeric[],
         $8::numeric[], $9::int[], $10::numeric[], $11::numeric[], $12::text[], $13::int[], $14::text[])
         AS u(device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time, effective_time,
           residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes)`,
      Object.values(columns),
    );
    for (const column of Object.values(columns)) column.length = 0;
  };

  const live = streams.filter((s) => s.n > 0);
  while (live.length > 0) {
    let k = 0;
    for (let j = 1; j < live.length; j++) if (live[j]!.nextTs < live[k]!.nextTs) k = j;
    const s = live[k]!;
    const { plan } = s;
    const isPlug = plan.device.productType === 1;
    const r = rand();
    const status = r < 0.92 ? 0 : r < 0.96 ? 1 : r < 0.98 ? 2 : 3;
    const nominal = isPlug ? (rand() < 0.85 ? 5 : 10) : 10;
    const effective =
      status === 0
        ? nominal * (0.97 + rand() * 0.03)
        : status === 1
          ? nominal * (0.1 + rand() * 0.6)
          : nominal * rand();
    const energy = (isPlug ? 250 : 300) + rand() * 100;
    s.lampLife -= effective / 60;
    if (s.lampLife < 50) s.lampLife = 9000 + rand() * 1000; // lamp replaced
    // The last `count` records use the device's current batch; earlier ones older batches.
    const fromEnd = s.n - 1 - s.i;
    const lot = lotOf(
      fromEnd < plan.count ? plan.base : plan.base - 1 - Math.floor((fromEnd - plan.count) / plan.quantity),
    );
    const noteRoll = rand();
    const gps = rand() > 0.03;

    columns.deviceId.push(plan.device.id);
    columns.customerId.push(plan.device.customerId);
    columns.receivedTs.push(new Date(s.nextTs).toISOString());
    columns.progressiveId.push(s.firstProgressive + s.i);
    columns.suppliedEnergy.push((status === 2 ? energy * 0.4 : energy).toFixed(2));
    columns.nominalTime.push(nominal.toFixed(2));
    columns.effectiveTime.push(Math.min(nominal, effective).toFixed(2));
    columns.residualLampLife.push(s.lampLife.toFixed(2));
    columns.statusCode.push(status);
    columns.latitude.push(gps ? (s.lat + (rand() - 0.5) * 0.01).toFixed(6) : null);
    columns.longitude.push(gps ? (s.lon + (rand() - 0.5) * 0.01).toFixed(6) : null);
    columns.consumablesLot.push(lot.code);
    columns.lotProgressiveId.push(lot.progressive);
    columns.notes.push(
      status !== 0 && noteRoll < 0.6
        ? NOTE_BY_STATUS[status]!
        : noteRoll < 0.03
          ? NOTES[Math.floor(rand() * NOTES.length)]!
          : null,
    );

    s.i++;
    if (s.i >= s.n) live.splice(k, 1);
    else s.nextTs = streamTs(s, rand);
    if (columns.deviceId.length >= INSERT_BATCH_ROWS) await flush();
  }
  await flush();

  function streamTs(stream: Stream, random: () => number): number {
    // Evenly spaced slots with jitter inside each slot: strictly increasing per device.
    const slot = stream.spanMs / stream.n;
    return Math.floor(toTimestamp(stream.startMs + (stream.i + random()) * slot));
  }
}
