import { generateKeyPairSync } from 'node:crypto';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '#server/security/tokens.ts';
import { mintTicket } from '#server/test/contract-support.ts';
import { customerIdOf, makeCustomer, makeDevice, userIdOf } from '#server/test/fixtures.ts';
import { ingestRecords } from '#server/test/ingest.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createPeerApp, createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { FILTERED_HEADER, filteredExport, type LinesBatch, linesBatch, OK_HEADER } from './exports.ts';
import { expectedIds, type Fixture, makeFixture, parseCsv, TRICKY_NOTES } from './test-fixtures.ts';
import { TICKET_TTL_SECONDS } from './tickets.ts';

let t: TestApp;
let fx: Fixture;
let admin: string;
let care: string;
let customer: string;

/** The stream's text, byte order mark included (TextDecoder would drop it). */
const text = async (stream: Readable) => (await buffer(stream)).toString('utf8');

beforeAll(async () => {
  t = await createTestApp();
  fx = await makeFixture(t);
  admin = await t.login(DEMO.admin);
  care = await t.login(DEMO.care);
  customer = await t.login(DEMO.customer);
});
afterAll(() => t?.close());

type ExportName = 'sterilizations-filtered' | 'sterilizations-ok';

const requestTicket = (token: string, exportName: string) =>
  t.as(token, { method: 'POST', url: '/api/v1/export-tickets', payload: { export: exportName } });

async function ticketFor(token: string, exportName: ExportName): Promise<string> {
  const response = await requestTicket(token, exportName);
  expectContract('createExportTicket', response, 201);
  return response.json().data.ticket;
}

const download = (exportName: ExportName, query: string) =>
  t.app.inject({ method: 'GET', url: `/export/${exportName}?${query}` });

function expectInvalidTicket(response: {
  statusCode: number;
  json(): unknown;
  headers: Record<string, unknown>;
}) {
  expect(response.statusCode).toBe(401);
  expect(String(response.headers['content-type'])).toContain('application/json');
  expect(response.json()).toEqual({ status: 'error', message: 'invalid_ticket', data: null });
}

describe('POST /export-tickets', () => {
  it('needs a session and the ability for that export', async () => {
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/export-tickets',
      payload: { export: 'sterilizations-filtered' },
    });
    expect(anonymous.statusCode).toBe(401);
    for (const token of [customer, care]) {
      const refused = await requestTicket(token, 'sterilizations-ok');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('forbidden');
    }
    expect((await requestTicket(admin, 'something-else')).statusCode).toBe(422);
  });

  it('returns a random ticket valid for a minute and stores only its hash', async () => {
    const started = Date.now();
    const response = await requestTicket(customer, 'sterilizations-filtered');
    expectContract('createExportTicket', response, 201);
    const { ticket, expires_at } = response.json().data;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expires_at) - started).toBeGreaterThan((TICKET_TTL_SECONDS - 5) * 1000);
    expect(Date.parse(expires_at) - started).toBeLessThanOrEqual((TICKET_TTL_SECONDS + 5) * 1000);
    const stored = await t.database.pool.query('select ticket_hash, user_id, export from export_tickets');
    expect(stored.rows.some((row) => row.ticket_hash === ticket)).toBe(false);
    expect(stored.rows).toContainEqual({
      ticket_hash: hashToken(ticket),
      user_id: await userIdOf(t, DEMO.customer),
      export: 'sterilizations-filtered',
    });
  });
});

describe('GET /export/sterilizations-filtered', () => {
  it("streams the list's records for the filters as Excel-friendly CSV", async () => {
    const ticket = await ticketFor(admin, 'sterilizations-filtered');
    const response = await download('sterilizations-filtered', `ticket=${ticket}&customerId=${fx.alpha}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="sterilizations-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.body).toContain('\r\n');
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual(FILTERED_HEADER);
    expect(rows.map((row) => Number(row[0]))).toEqual(
      await expectedIds(t, `s.customer_id = ${fx.alpha}`, 's.received_ts desc, s.id desc'),
    );
    const first = rows.find((row) => row[1] === '2024-03-04 00:00:00.000');
    expect(first).toEqual([
      expect.any(String),
      '2024-03-04 00:00:00.000',
      'Alpha fixture clinic',
      expect.stringMatching(/^F/),
      '27',
      '0',
      'ok',
      '312.50',
      '10.00',
      '9.75',
      '4321.00',
      'LOT-B',
      '3',
      '45.100000',
      '-7.250000',
      '',
      'uncertified',
      'false',
      '',
      'false',
    ]);
    // Quoting round-trips; cells a spreadsheet would run as formulas are neutralised.
    const notes = rows.map((row) => row[15]);
    expect(notes).toContain(TRICKY_NOTES[0]);
    expect(notes).toContain(TRICKY_NOTES[1]);
    expect(notes).toContain(`'${TRICKY_NOTES[2]}`);
    expect(notes).toContain(`'${TRICKY_NOTES[3]}`);
    expect(response.body).toContain('"needs ""quotes"", and a comma"');
  });

  it('quotes a cell holding a semicolon and guards each of its parts against formulas', async () => {
    const clinic = await makeCustomer(t, { name: 'Semicolon clinic' });
    const device = await makeDevice(t, clinic);
    await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, consumables_lot, notes)
       values ($1, $2, '2023-06-15T10:00:00Z', 1, 300, 10, 10, 4000, 0, 'SEMI;=1+1;X', 'ok,@SUM(A1)')`,
      [device, clinic],
    );
    const response = await download(
      'sterilizations-filtered',
      `ticket=${await ticketFor(admin, 'sterilizations-filtered')}&customerId=${clinic}`,
    );
    expect(response.statusCode).toBe(200);
    // Excel with `;` as its list separator (Italian locales) would split an unquoted cell there.
    expect(response.body).toContain(`,"SEMI;'=1+1;X",`);
    expect(response.body).toContain(`,"ok,'@SUM(A1)",`);
    expect(response.body).not.toMatch(/[;,]=1\+1/);
    const [, row] = parseCsv(response.body);
    expect(row?.[FILTERED_HEADER.indexOf('consumables_lot')]).toBe("SEMI;'=1+1;X");
  });

  it('applies the date filters and the device filter', async () => {
    const ticket = await ticketFor(admin, 'sterilizations-filtered');
    const response = await download(
      'sterilizations-filtered',
      `ticket=${ticket}&customerId=${fx.alpha}&deviceId=${fx.alphaDevices[0]}&from=2024-03-01&to=2024-03-03`,
    );
    const [, ...rows] = parseCsv(response.body);
    expect(rows.map((row) => Number(row[0]))).toEqual(
      await expectedIds(
        t,
        `s.device_id = ${fx.alphaDevices[0]} and s.received_ts >= '2024-03-01' and s.received_ts < '2024-03-04'`,
        's.received_ts desc, s.id desc',
      ),
    );
    expect(rows).toHaveLength(13);
  });

  it('reads in keyset batches that lose and repeat nothing, ties on received_ts included', async () => {
    const pairs = fx.alphaDevices.map((deviceId) => ({ deviceId, customerId: fx.alpha }));
    const filter = { devices: { pairs }, window: { from: null, toExclusive: null } };
    const whole = await text(filteredExport(t.database.db, filter));
    for (const batch of [1, 2, 7])
      expect(await text(filteredExport(t.database.db, filter, batch))).toBe(whole);
    // One owner's records are read straight from its index range, device pairs through their ids: both
    // give the same rows, in the same order, whatever the batch.
    const owner = { devices: { customerId: fx.alpha }, window: { from: null, toExclusive: null } };
    const ownerWhole = await text(filteredExport(t.database.db, owner));
    expect(ownerWhole).toBe(whole);
    for (const batch of [1, 2, 7])
      expect(await text(filteredExport(t.database.db, owner, batch))).toBe(ownerWhole);
    const everything = { devices: { all: true as const }, window: { from: null, toExclusive: null } };
    const newestFirst = await expectedIds(t, 'true', 's.received_ts desc, s.id desc');
    const all = parseCsv(await text(filteredExport(t.database.db, everything, 9)));
    expect(all.slice(1).map((row) => Number(row[0]))).toEqual(newestFirst);
  });

  it('gets a batch of a thousand lines from the database as several texts, in order, with its last row', async () => {
    const rows = sql`select n, n::text || ${'\r\n'}::text as line from generate_series(1, 1000) n order by n desc limit 1000`;
    const result = await t.database.db.execute<LinesBatch<{ n: number }>>(
      linesBatch(rows, sql`n desc`, sql`n`, sql`json_build_object('n', n)`),
    );
    expect(result.rows.length).toBeGreaterThan(1);
    expect(result.rows.map((row) => row.text).join('')).toBe(
      Array.from({ length: 1000 }, (_, index) => `${1000 - index}\r\n`).join(''),
    );
    for (const row of result.rows) expect([row.rows, row.last]).toEqual([1000, { n: 1 }]);
  });

  it("confines a customer user to their own customer's records", async () => {
    const own = await customerIdOf(t, DEMO.customer);
    const mine = await download(
      'sterilizations-filtered',
      `ticket=${await ticketFor(customer, 'sterilizations-filtered')}`,
    );
    const [, ...rows] = parseCsv(mine.body);
    expect(rows.map((row) => Number(row[0]))).toEqual(
      await expectedIds(t, 's.customer_id = $1', 's.received_ts desc, s.id desc', [own]),
    );
    for (const query of [
      `customerId=${fx.alpha}`,
      `deviceId=${fx.betaDevice}`,
      `customerId=${fx.beta}&deviceId=${fx.betaDevice}`,
    ]) {
      const ticket = await ticketFor(customer, 'sterilizations-filtered');
      const response = await download('sterilizations-filtered', `ticket=${ticket}&${query}`);
      expect(response.statusCode).toBe(200);
      expect(parseCsv(response.body), query).toEqual([FILTERED_HEADER]);
    }
  });

  it('takes each ticket once, before it expires, for its own export only', async () => {
    expectInvalidTicket(await download('sterilizations-filtered', ''));
    expectInvalidTicket(await download('sterilizations-filtered', 'ticket=not-a-ticket-at-all'));

    const ticket = await ticketFor(admin, 'sterilizations-filtered');
    // The wrong export refuses the ticket without using it up.
    expectInvalidTicket(await download('sterilizations-ok', `ticket=${ticket}`));
    expect(
      (await download('sterilizations-filtered', `ticket=${ticket}&customerId=${fx.beta}`)).statusCode,
    ).toBe(200);
    expectInvalidTicket(await download('sterilizations-filtered', `ticket=${ticket}&customerId=${fx.beta}`));

    const expired = await ticketFor(admin, 'sterilizations-filtered');
    await t.database.pool.query(
      `update export_tickets set expires_at = now() - interval '1 second' where ticket_hash = $1`,
      [hashToken(expired)],
    );
    expectInvalidTicket(await download('sterilizations-filtered', `ticket=${expired}`));
  });

  it('refuses a ticket whose user lost the ability or was disabled since', async () => {
    const careId = await userIdOf(t, DEMO.care);
    const sneaky = await mintTicket(t, careId, 'sterilizations-ok');
    const response = await download('sterilizations-ok', `ticket=${sneaky}`);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('forbidden');

    const ticket = await ticketFor(care, 'sterilizations-filtered');
    await t.database.pool.query('update users set deleted_at = now() where id = $1', [careId]);
    try {
      expectInvalidTicket(await download('sterilizations-filtered', `ticket=${ticket}`));
    } finally {
      await t.database.pool.query('update users set deleted_at = null where id = $1', [careId]);
    }
  });
});

describe('export tickets and sessions', () => {
  it('dies with its session: logout voids an unused ticket', async () => {
    const session = await t.login(DEMO.admin);
    const ticket = await ticketFor(session, 'sterilizations-filtered');
    const kept = await ticketFor(admin, 'sterilizations-filtered');
    expect((await t.as(session, { method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(200);
    expectInvalidTicket(await download('sterilizations-filtered', `ticket=${ticket}`));
    // Another session of the same user keeps its own ticket.
    expect((await download('sterilizations-filtered', `ticket=${kept}`)).statusCode).toBe(200);
  });

  it('dies with its session when the session expires or idles out', async () => {
    for (const ending of [
      `expires_at = now() - interval '1 second'`,
      `last_seen_at = now() - make_interval(mins => ${t.config.sessionIdleMinutes + 1})`,
    ]) {
      const session = await t.login(DEMO.admin);
      const ticket = await ticketFor(session, 'sterilizations-filtered');
      await t.database.pool.query(`update sessions set ${ending} where token_hash = $1`, [
        hashToken(session),
      ]);
      expectInvalidTicket(await download('sterilizations-filtered', `ticket=${ticket}`));
    }
  });

  it('is taken once, by whichever app instance on the database serves the download', async () => {
    const peer = await createPeerApp(t);
    try {
      const fromPeer = (ticket: string) =>
        peer.app.inject({ method: 'GET', url: `/export/sterilizations-filtered?ticket=${ticket}` });
      const ticket = await ticketFor(admin, 'sterilizations-filtered');
      expect((await fromPeer(ticket)).statusCode).toBe(200);
      expectInvalidTicket(await fromPeer(ticket));
      expectInvalidTicket(await download('sterilizations-filtered', `ticket=${ticket}`));

      // Two instances racing for one ticket: exactly one download.
      const raced = await ticketFor(admin, 'sterilizations-filtered');
      const answers = await Promise.all([
        fromPeer(raced),
        download('sterilizations-filtered', `ticket=${raced}`),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
      const left = await t.database.pool.query('select 1 from export_tickets where ticket_hash = $1', [
        hashToken(raced),
      ]);
      expect(left.rowCount).toBe(0);
    } finally {
      await peer.close();
    }
  });
});

describe('GET /export/sterilizations-ok', () => {
  it('lists ok records in the window, customer by customer, oldest first', async () => {
    const ticket = await ticketFor(admin, 'sterilizations-ok');
    const response = await download('sterilizations-ok', `ticket=${ticket}&from=2024-03-01&to=2024-03-03`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="sterilizations-ok-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parseCsv(response.body);
    expect(header).toEqual(OK_HEADER);
    const expected = (
      await t.database.pool.query(
        `select c.id as customer_id, d.device_serial, s.id from sterilizations s join devices d on d.id = s.device_id
           join customers c on c.id = s.customer_id
         where s.status_code = 0 and s.received_ts >= '2024-03-01' and s.received_ts < '2024-03-04'
         order by lower(c.name), c.id, d.device_serial, d.id, s.received_ts, s.id`,
      )
    ).rows;
    expect(rows.map((row) => [Number(row[0]), row[2], Number(row[4])])).toEqual(
      expected.map((row) => [Number(row.customer_id), row.device_serial, Number(row.id)]),
    );
    expect(rows.filter((row) => Number(row[0]) === fx.alpha)).toHaveLength(21);
    expect(rows.find((row) => Number(row[0]) === fx.beta)?.slice(1, 4)).toEqual([
      'Beta fixture clinic',
      expect.any(String),
      '2024-03-02 10:00:00.000',
    ]);
    // The lot "+LOT-BETA" would start a formula.
    expect(rows.filter((row) => Number(row[0]) === fx.beta).map((row) => row[10])).toEqual(
      Array(4).fill("'+LOT-BETA"),
    );
  });
});

describe('the out_of_order column', () => {
  it('is true in both exports for a record that arrived after a higher progressive id, false otherwise', async () => {
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const owner = await makeCustomer(t, { name: 'Late records clinic' });
    const deviceId = await makeDevice(
      t,
      owner,
      keys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    );
    const serial = (
      await t.database.pool.query('select device_serial from devices where id = $1', [deviceId])
    ).rows[0].device_serial as string;
    const ids = new Map<number, number>();
    // The device sends 1 and 3, then 2: 2 arrived out of order.
    for (const batch of [[1, 3], [2]]) {
      const records = batch.map((progressive_id) => ({
        progressive_id,
        supplied_energy: 300,
        nominal_time: 10,
        effective_time: 10,
        residual_lamp_life: 4000,
        status_code: 0,
      }));
      const privateKeyPem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      for (const row of await ingestRecords(t.app, { serial, privateKeyPem }, records)) {
        ids.set(row.progressive_id, row.id);
      }
    }
    const lateness = (rows: string[][], header: string[]) =>
      Object.fromEntries(
        rows
          .filter((row) => ids.has(Number(row[header.indexOf('progressive_id')])))
          .map((row) => [Number(row[header.indexOf('id')]), row[header.indexOf('out_of_order')]]),
      );
    const expected = {
      [ids.get(1) as number]: 'false',
      [ids.get(2) as number]: 'true',
      [ids.get(3) as number]: 'false',
    };

    const filtered = parseCsv(
      (
        await download(
          'sterilizations-filtered',
          `ticket=${await ticketFor(admin, 'sterilizations-filtered')}&deviceId=${deviceId}`,
        )
      ).body,
    );
    expect(filtered[0]?.slice(-3)).toEqual(['out_of_order', 'cycle_ts_utc', 'device_clock_ahead']);
    expect(lateness(filtered.slice(1), FILTERED_HEADER)).toEqual(expected);
    const today = new Date().toISOString().slice(0, 10);
    const ok = parseCsv(
      (
        await download(
          'sterilizations-ok',
          `ticket=${await ticketFor(admin, 'sterilizations-ok')}&from=${today}&to=${today}`,
        )
      ).body,
    );
    expect(ok[0]?.slice(-3)).toEqual(['out_of_order', 'cycle_ts_utc', 'device_clock_ahead']);
    const ofDevice = ok.slice(1).filter((row) => row[OK_HEADER.indexOf('device_serial')] === serial);
    expect(lateness(ofDevice, OK_HEADER)).toEqual(expected);
  });
});

describe("the device's own cycle time", () => {
  it('is in both exports beside the arrival time, with whether the clock ran ahead', async () => {
    const owner = await makeCustomer(t, { name: 'Offline device clinic' });
    const deviceId = await makeDevice(t, owner);
    const received = new Date().toISOString();
    const offline = new Date(Date.now() - 3 * 86_400_000);
    await t.database.pool.query(
      `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
         effective_time, residual_lamp_life, status_code, cycle_ts, clock_suspect)
       values ($1, $2, $3, 1, 300, 10, 10, 4000, 0, $4, false), ($1, $2, $3, 2, 300, 10, 10, 4000, 0, $5, true)`,
      [deviceId, owner, received, offline.toISOString(), new Date(Date.now() + 3_600_000).toISOString()],
    );
    const utc = (date: Date) => date.toISOString().replace('T', ' ').replace('Z', '');
    const filtered = parseCsv(
      (
        await download(
          'sterilizations-filtered',
          `ticket=${await ticketFor(admin, 'sterilizations-filtered')}&customerId=${owner}`,
        )
      ).body,
    );
    const cycleAt = FILTERED_HEADER.indexOf('cycle_ts_utc');
    const ahead = FILTERED_HEADER.indexOf('device_clock_ahead');
    const byProgressive = new Map(
      filtered.slice(1).map((row) => [row[FILTERED_HEADER.indexOf('progressive_id')], row]),
    );
    expect(byProgressive.get('1')?.[cycleAt]).toBe(utc(offline));
    expect(byProgressive.get('1')?.[ahead]).toBe('false');
    expect(byProgressive.get('2')?.[ahead]).toBe('true');
    const today = received.slice(0, 10);
    const ok = parseCsv(
      (
        await download(
          'sterilizations-ok',
          `ticket=${await ticketFor(admin, 'sterilizations-ok')}&from=${today}&to=${today}`,
        )
      ).body,
    );
    const mine = ok.slice(1).filter((row) => Number(row[OK_HEADER.indexOf('customer_id')]) === owner);
    expect(mine.map((row) => row[OK_HEADER.indexOf('cycle_ts_utc')])).toContain(utc(offline));
  });
});
