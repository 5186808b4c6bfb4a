/**
 * A command-line device fleet: signs realistic sterilization records with each seeded device's private
 * key (RS256, the claims of src/shared/ingestion/claims.ts) and posts them to the ingestion call, so a
 * new user sees records arrive live.
 *
 *   npm run simulate-devices -- [--rate 2] [--count 100] [--url http://localhost:3000] [--devices NP000201,SB000203]
 *
 * Keys: `<DATA_DIR or ./data>/device-keys/<serial>.pem`, written by the seed; the file name is the serial.
 *
 * A device goes on from where it is: before sending, the simulator asks the server (signed in as
 * `--email`, by default the demo SUPER_ADMIN) for each device's last stored progressive id and for the
 * lots that have a certificate in force, and its records continue that sequence and use those lots
 * (`--uncertified-lots` uses made-up lot codes instead, which raise the lot alert). So a demo shows no
 * missing records and no uncertified lots that the simulator made up. Each record carries the device's
 * own time (`cycle_ts`).
 */
import type { KeyObject } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { deviceKeysDir, loadDeviceKeys } from '#server/db/seed/device-key-files.ts';
import { ingestionClaims, type SterilizationClaim } from '#shared/ingestion/claims.ts';

export interface DeviceState {
  /** The last progressive_id sent. */
  progressive: number;
  /** Residual lamp life in hours, going down with every cycle. */
  lampLife: number;
  /** Current sleeve batch: its number (→ lot code and progressive) and the cycles already on it. */
  batch: number;
  usedInBatch: number;
}

export const BATCH_QUANTITY = 100;

/** Neck plugs (serials NP…) run 5 or 10 minute cycles; baths (SB…) 10 minutes with more energy. */
export function productOf(serial: string): 'plug' | 'bath' {
  return serial.startsWith('SB') ? 'bath' : 'plug';
}

/** A device's state before its first simulated record: it goes on after `lastProgressive`. */
export function initialState(random: () => number, lastProgressive = 0): DeviceState {
  return { progressive: lastProgressive, lampLife: 6000 + random() * 3000, batch: 1, usedInBatch: 0 };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));

/**
 * The next record of a device and its new state. Status: 92 % ok, then nulled, lamp and probe
 * malfunction; an interrupted cycle has a shorter effective time; a lamp failure less energy. Every
 * BATCH_QUANTITY cycles a new sleeve batch starts; a worn lamp is replaced.
 */
export function nextRecord(
  serial: string,
  state: DeviceState,
  random: () => number,
  now: Date,
  /** Lot codes with a certificate in force; none: the simulator's own codes (uncertified). */
  certifiedLots: readonly string[] = [],
): { record: SterilizationClaim; state: DeviceState } {
  const plug = productOf(serial) === 'plug';
  const roll = random();
  const status = roll < 0.92 ? 0 : roll < 0.96 ? 1 : roll < 0.98 ? 2 : 3;
  const nominal = plug ? (random() < 0.85 ? 5 : 10) : 10;
  const effective = status === 0 ? nominal * (0.97 + random() * 0.03) : nominal * (0.1 + random() * 0.6);
  const energy = (plug ? 250 : 300) + random() * 100;
  let lampLife = state.lampLife - effective / 60;
  if (lampLife < 50) lampLife = 9000 + random() * 1000;
  let { batch, usedInBatch } = state;
  if (usedInBatch >= BATCH_QUANTITY) {
    batch += 1;
    usedInBatch = 0;
  }
  usedInBatch += 1;
  const progressive = state.progressive + 1;
  const lot =
    certifiedLots.length > 0
      ? (certifiedLots[(batch - 1) % certifiedLots.length] as string)
      : `SIM-${serial}-${String(Math.ceil(batch / 20)).padStart(3, '0')}`;
  const record: SterilizationClaim = {
    progressive_id: progressive,
    supplied_energy: round(status === 2 ? energy * 0.4 : energy, 2),
    nominal_time: nominal,
    effective_time: round(Math.min(nominal, effective), 2),
    residual_lamp_life: round(lampLife, 2),
    status_code: status,
    latitude: round(45.4642 + (random() - 0.5) * 0.02, 6),
    longitude: round(9.19 + (random() - 0.5) * 0.02, 6),
    consumables_lot: lot,
    lot_progressive_id: ((batch - 1) % 20) + 1,
    batch_quantity: BATCH_QUANTITY,
    notes: status === 0 ? null : 'Simulated device: cycle interrupted',
    cycle_ts: now.toISOString(),
  };
  return { record, state: { progressive, lampLife, batch, usedInBatch } };
}

/** The token a device posts to the ingestion call: its records, signed with its private key (RS256). */
export function signRecords(
  serial: string,
  records: SterilizationClaim[],
  key: CryptoKey | KeyObject,
): Promise<string> {
  return new SignJWT({ ...ingestionClaims(serial, records) })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .sign(key);
}

interface Options {
  rate: number;
  count: number;
  url: string;
  dataDir: string;
  devices: string[] | null;
  concurrency: number;
  email: string;
  password: string;
  uncertifiedLots: boolean;
}

const USAGE = `usage: npm run simulate-devices -- [--rate 2] [--count 100] [--url http://localhost:3000]
    [--devices S1,S2] [--concurrency 4] [--email super@example.com] [--password …] [--uncertified-lots]

  Device keys are read from $DATA_DIR/device-keys (DATA_DIR: ${process.env.DATA_DIR || 'not set, so ./data'}),
  where the seed writes them: run it against the same DATA_DIR as the server.
  --email/--password: a staff account the simulator reads each device's last progressive id and the
  certified lots with (default: the demo SUPER_ADMIN; env SIMULATOR_EMAIL, SIMULATOR_PASSWORD).
  --uncertified-lots: use made-up lot codes without certificates (they raise the lot alert).`;

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '2' },
      count: { type: 'string', default: '100' },
      url: { type: 'string', default: 'http://localhost:3000' },
      devices: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      email: { type: 'string', default: process.env.SIMULATOR_EMAIL ?? 'super@example.com' },
      password: { type: 'string', default: process.env.SIMULATOR_PASSWORD ?? 'demo-password' },
      'uncertified-lots': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const positive = (name: string, raw: string) => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
      console.error(`--${name} must be a positive number, got "${raw}"`);
      process.exit(2);
    }
    return value;
  };
  return {
    rate: positive('rate', values.rate),
    count: Math.floor(positive('count', values.count)),
    url: values.url.replace(/\/$/, ''),
    dataDir: path.resolve(process.env.DATA_DIR || 'data'),
    devices: values.devices ? values.devices.split(',').map((serial) => serial.trim()) : null,
    concurrency: Math.floor(positive('concurrency', values.concurrency)),
    email: values.email,
    password: values.password,
    uncertifiedLots: values['uncertified-lots'],
  };
}

/** What the server knows that a device continues from: its last progressive id, and the certified lots. */
export async function serverState(options: Pick<Options, 'url' | 'email' | 'password'>, serials: string[]) {
  const api = `${options.url}/api/v1`;
  const form = new FormData();
  form.append('email', options.email);
  form.append('password', options.password);
  const login = await fetch(`${api}/auth/login`, { method: 'POST', body: form });
  const session = (await login.json().catch(() => ({}))) as { data?: { token?: string } };
  const token = session.data?.token;
  if (!login.ok || !token) {
    console.error(
      `cannot sign in as ${options.email} to read the devices' state (${login.status}): see --help`,
    );
    process.exit(1);
  }
  const get = async <T>(url: string): Promise<T> => {
    const response = await fetch(`${api}${url}`, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
    return ((await response.json()) as { data: T }).data;
  };
  const last = new Map<string, number>();
  for (const serial of serials) {
    const found = await get<{ data: { id: number; customer_id: number; device_serial: string }[] }>(
      `/devices?q=${encodeURIComponent(serial)}`,
    );
    const device = found.data.find((d) => d.device_serial === serial);
    if (!device) continue;
    const records = await get<{ data: { progressive_id: number }[] }>(
      `/sterilizations?customerId=${device.customer_id}&deviceId=${device.id}&sortBy=received_ts&sortDir=desc`,
    );
    last.set(serial, Math.max(0, ...records.data.map((record) => record.progressive_id)));
  }
  const today = new Date().toISOString().slice(0, 10);
  const certificates = await get<{ data: { lot_number: string; expiration_date: string }[] }>(
    '/certificates?page=1&sortBy=expiration_date&sortDir=desc',
  );
  const lots = [
    ...new Set(certificates.data.filter((c) => c.expiration_date >= today).map((c) => c.lot_number)),
  ];
  return { last, lots };
}

async function main(): Promise<void> {
  const options = parseOptions();
  const keysDir = deviceKeysDir(options.dataDir);
  const keys = await loadDeviceKeys(options.dataDir, options.devices);
  const serials = [...keys.keys()];
  if (serials.length === 0) {
    console.error(`no device keys in ${keysDir}: run "npm run seed" (or start the server once) first`);
    process.exit(1);
  }
  const known = await serverState(options, serials);
  const lots = options.uncertifiedLots ? [] : known.lots;
  const states: Record<string, DeviceState> = {};
  const refused = new Set<string>();
  const tally = { accepted: 0, failed: 0 };
  const endpoint = `${options.url}/api/v1/ingest/sterilizations`;
  console.log(
    `simulating ${serials.length} devices → ${endpoint}: ${options.count} records at ${options.rate}/s (keys: ${keysDir})`,
  );

  const started = performance.now();
  let next = 0;
  let deviceTurn = 0;
  async function worker(): Promise<void> {
    while (next < options.count) {
      const index = next++;
      const wait = started + (index * 1000) / options.rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const live = serials.filter((serial) => !refused.has(serial));
      if (live.length === 0) return;
      const serial = live[deviceTurn++ % live.length] as string;
      const state = states[serial] ?? initialState(Math.random, known.last.get(serial) ?? 0);
      const built = nextRecord(serial, state, Math.random, new Date(), lots);
      states[serial] = built.state;
      const token = await signRecords(serial, [built.record], keys.get(serial) as CryptoKey);
      const label = `[${index + 1}/${options.count}] ${serial} #${built.record.progressive_id}`;
      try {
        const response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
        });
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        if (response.ok) {
          tally.accepted += 1;
          console.log(`${label} status ${built.record.status_code} accepted`);
        } else {
          tally.failed += 1;
          console.log(`${label} refused: ${response.status} ${body.message ?? ''}`);
          // A disabled device, or one the server does not know (another database was seeded): stop using it.
          if (response.status === 401) refused.add(serial);
        }
      } catch (error) {
        tally.failed += 1;
        console.log(`${label} failed: ${(error as Error).message}`);
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `done in ${seconds.toFixed(1)} s: ${tally.accepted} accepted, ${tally.failed} failed` +
      (refused.size > 0 ? ` (devices left out: ${[...refused].join(', ')})` : ''),
  );
  if (tally.failed > 0) process.exitCode = 1;
}

if (import.meta.main) await main();
