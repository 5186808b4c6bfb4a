/**
 * GET /api/v1/events over real HTTP: who receives which live event, refusals, and the stream's end
 * with its session. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL (NOTIFY/LISTEN).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedDevice } from '#server/db/seed.ts';
import { publishEvent } from '#server/event-bus/publish.ts';
import { customerIdOf, cycleClaim, makeUser } from '#server/test/fixtures.ts';
import { ingestRecords, postRecords } from '#server/test/ingest.ts';
import { mintSession, mintSessionOf } from '#server/test/sessions.ts';
import { listenLocally, openEventStream, type SseStream } from '#server/test/sse-client.ts';
import {
  createPeerApp,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
} from '#server/test/test-app.ts';
import { MAX_STREAMS_PER_ADDRESS, MAX_STREAMS_PER_SESSION } from './event-streams.ts';

let t: TestApp;
let baseUrl: string;
let ownCustomer: number;
let ownDevice: SeedDevice;
let otherDevice: SeedDevice;
let nextProgressive = 5_000_000;
const opened: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp({ EVENTS_HEARTBEAT_SECONDS: '1' });
  baseUrl = await listenLocally(t.app);
  ownCustomer = await customerIdOf(t, DEMO.customer);
  ownDevice = t.seed.devices.find((device) => device.customerId === ownCustomer) as SeedDevice;
  otherDevice = t.seed.devices.find(
    (device) => device.customerId !== ownCustomer && device.customerId !== 1,
  ) as SeedDevice;
});
afterAll(async () => {
  for (const stream of opened) stream.close();
  await t?.close();
});

/**
 * The records these tests ingest raise real alerts too (their progressive ids jump, which is a gap), and
 * those alerts are announced live: the record and block tests read past them. The alert test publishes
 * its own and reads every event.
 */
function withoutAlerts(stream: SseStream): SseStream {
  return {
    ...stream,
    async next() {
      for (;;) {
        const event = await stream.next();
        if (!String(event.event).startsWith('alert.')) return event;
      }
    },
  };
}

async function subscribe(token?: string, options: { alerts?: boolean } = {}): Promise<SseStream> {
  const stream = await openEventStream(baseUrl, token);
  opened.push(stream);
  return options.alerts ? stream : withoutAlerts(stream);
}

/** Ingests one signed record of this device through the API; answers its id. */
async function ingest(app: TestApp['app'], device: SeedDevice): Promise<number> {
  nextProgressive += 1;
  const [stored] = await ingestRecords(app, device, [cycleClaim(nextProgressive)]);
  return stored!.id;
}

describe('GET /api/v1/events', () => {
  it('refuses a caller without a session with 401, and a token in the URL is no session', async () => {
    const anonymous = await subscribe();
    expect(anonymous.status).toBe(401);
    expect(anonymous.refusal).toMatchObject({ status: 'error', message: 'session_expired' });
    const token = await mintSessionOf(t, DEMO.super);
    const inUrl = await t.app.inject({ method: 'GET', url: `/api/v1/events?token=${token}` });
    expect(inUrl.statusCode).toBe(401);
    const expired = await subscribe('not-a-session-token');
    expect(expired.status).toBe(401);
  });

  it('answers a text/event-stream that is not cached', async () => {
    const stream = await subscribe(await mintSessionOf(t, DEMO.care));
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    // Not kept alive once it ends, so a shutdown is not held by the socket of an ended stream.
    expect(stream.headers.get('connection')).toBe('close');
    stream.close();
  });

  it("delivers a new record to staff and to its owner's users, not to another customer's", async () => {
    const staff = await Promise.all(
      [DEMO.super, DEMO.admin, DEMO.care].map(async (email) => subscribe(await mintSessionOf(t, email))),
    );
    const owner = await subscribe(await mintSessionOf(t, DEMO.customer));
    const other = await subscribe(await mintSession(t, await makeUser(t, otherDevice.customerId)));

    const ownRecord = await ingest(t.app, ownDevice);
    const expected = {
      event: 'record.created',
      data: {
        type: 'record.created',
        customerId: ownCustomer,
        deviceId: ownDevice.id,
        recordIds: [ownRecord],
      },
    };
    for (const stream of staff) expect(await stream.next()).toEqual(expected);
    expect(await owner.next()).toEqual(expected);

    // The other customer's first event is its own record, published after the first one was delivered:
    // had the first reached it, it would have come before (one channel, delivered in order).
    const otherRecord = await ingest(t.app, otherDevice);
    expect(await staff[0]?.next()).toMatchObject({ data: { recordIds: [otherRecord] } });
    expect(await other.next()).toEqual({
      event: 'record.created',
      data: {
        type: 'record.created',
        customerId: otherDevice.customerId,
        deviceId: otherDevice.id,
        recordIds: [otherRecord],
      },
    });
    for (const stream of [...staff, owner, other]) stream.close();
  });

  it('sends a resent record no event', async () => {
    const staff = await subscribe(await mintSessionOf(t, DEMO.super));
    nextProgressive += 1;
    const record = {
      progressive_id: nextProgressive,
      supplied_energy: 300,
      nominal_time: 10,
      effective_time: 10,
      residual_lamp_life: 4000,
      status_code: 0,
    };
    const post = () => postRecords(t.app, ownDevice, [record]);
    const first = (await post()).json().data[0].id;
    expect(await staff.next()).toMatchObject({ data: { recordIds: [first] } });
    expect((await post()).statusCode).toBe(200);
    const marker = await ingest(t.app, ownDevice);
    expect(await staff.next()).toMatchObject({ data: { recordIds: [marker] } });
    staff.close();
  });

  it('shows a mined block to staff and to the owners of its records only, without the owners list', async () => {
    const staff = await subscribe(await mintSessionOf(t, DEMO.admin));
    const owner = await subscribe(await mintSessionOf(t, DEMO.customer));
    const other = await subscribe(await mintSession(t, await makeUser(t, otherDevice.customerId)));
    await publishEvent(t.database.db, { type: 'block.mined', blockId: 41, customerIds: [ownCustomer] });
    await publishEvent(t.database.db, {
      type: 'block.mined',
      blockId: 42,
      customerIds: [otherDevice.customerId, ownCustomer],
    });
    const first = { event: 'block.mined', data: { type: 'block.mined', blockId: 41 } };
    const second = { event: 'block.mined', data: { type: 'block.mined', blockId: 42 } };
    expect(await staff.next()).toEqual(first);
    expect(await staff.next()).toEqual(second);
    expect(await owner.next()).toEqual(first);
    expect(await owner.next()).toEqual(second);
    expect(await other.next()).toEqual(second);
    for (const stream of [staff, owner, other]) stream.close();
  });

  it('keeps alerts to their customer and staff-only alerts to staff', async () => {
    // Alerts of the records ingested so far are announced before these streams open.
    await t.app.alerts.idle();
    const staff = await subscribe(await mintSessionOf(t, DEMO.care), { alerts: true });
    const owner = await subscribe(await mintSessionOf(t, DEMO.customer), { alerts: true });
    await publishEvent(t.database.db, { type: 'alert.raised', alertId: 7, customerId: null });
    await publishEvent(t.database.db, {
      type: 'alert.raised',
      alertId: 8,
      customerId: otherDevice.customerId,
    });
    await publishEvent(t.database.db, { type: 'alert.acknowledged', alertId: 9, customerId: ownCustomer });
    expect((await staff.next()).data).toEqual({ type: 'alert.raised', alertId: 7, customerId: null });
    expect((await staff.next()).data).toMatchObject({ alertId: 8 });
    expect((await staff.next()).data).toMatchObject({ alertId: 9 });
    expect(await owner.next()).toEqual({
      event: 'alert.acknowledged',
      data: { type: 'alert.acknowledged', alertId: 9, customerId: ownCustomer },
    });
    staff.close();
    owner.close();
  });

  it('ends the stream when its session is revoked, and the reconnect is refused', async () => {
    const login = await t.login(DEMO.customer);
    const stream = await subscribe(login);
    const logout = await t.as(login, { method: 'POST', url: '/api/v1/auth/logout' });
    expect(logout.statusCode).toBe(200);
    await stream.ended;
    expect((await subscribe(login)).status).toBe(401);
  });

  it('ends the stream when the user is disabled, and keeps others open (heartbeats)', async () => {
    const userId = await makeUser(t, ownCustomer);
    const doomed = await subscribe(await mintSession(t, userId));
    const survivor = await subscribe(await mintSessionOf(t, DEMO.customer));
    await t.database.pool.query('update users set deleted_at = now() where id = $1', [userId]);
    // Ended by the next beat, or at once on PostgreSQL, whose trigger announces the change.
    await doomed.ended;
    // The check that ended one stream kept the other: it carries on, beats and still receives events.
    const record = await ingest(t.app, ownDevice);
    expect(await survivor.next()).toMatchObject({ data: { recordIds: [record] } });
    await expect.poll(() => survivor.heartbeats(), { timeout: 5_000 }).toBeGreaterThan(0);
    survivor.close();
  });
});

describe('two server processes on one database', () => {
  it('a subscriber of instance B receives a record ingested through instance A', async () => {
    const peer = await createPeerApp(t, { EVENTS_HEARTBEAT_SECONDS: '1' });
    try {
      const peerUrl = await listenLocally(peer.app);
      const onB = withoutAlerts(await openEventStream(peerUrl, await mintSessionOf(t, DEMO.customer)));
      opened.push(onB);
      const record = await ingest(t.app, ownDevice);
      expect(await onB.next()).toEqual({
        event: 'record.created',
        data: {
          type: 'record.created',
          customerId: ownCustomer,
          deviceId: ownDevice.id,
          recordIds: [record],
        },
      });
      onB.close();
    } finally {
      await peer.close();
    }
  });
});

/** Resolves when `ended` does, or fails after `ms`: the stream must end by itself, not at the next beat. */
async function endsWithin(ended: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    ended,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the stream was still open after ${ms} ms`)), ms);
    }),
  ]);
  clearTimeout(timer);
}

describe('streams bounded per session and per client address', () => {
  it(`ends the oldest stream of a session past ${MAX_STREAMS_PER_SESSION}, so a reload is never locked out`, async () => {
    const token = await mintSessionOf(t, DEMO.customer);
    const from = { 'x-forwarded-for': '203.0.113.10' };
    const streams: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_SESSION; i++)
      streams.push(await openEventStream(baseUrl, token, from));
    opened.push(...streams);
    const newest = await openEventStream(baseUrl, token, from);
    opened.push(newest);
    expect(newest.status).toBe(200);
    await endsWithin(streams[0]!.ended, 2_000);
    // The others, and the new one, still receive what is published.
    await publishEvent(t.database.db, { type: 'alert.acknowledged', alertId: 77, customerId: ownCustomer });
    for (const stream of [...streams.slice(1), newest])
      expect((await stream.next()).data).toMatchObject({ alertId: 77 });
    for (const stream of [...streams, newest]) stream.close();
  });

  it(`refuses a stream from an address holding ${MAX_STREAMS_PER_ADDRESS} with 429, an IPv6 /64 counted as one`, async () => {
    const network = (host: number) => ({ 'x-forwarded-for': `2001:db8:5e:0::${host.toString(16)}` });
    const streams: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_ADDRESS; i++) {
      const stream = await openEventStream(baseUrl, await mintSessionOf(t, DEMO.care), network(i + 1));
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    opened.push(...streams);
    const refused = await openEventStream(baseUrl, await mintSessionOf(t, DEMO.care), {
      'x-forwarded-for': '2001:0DB8:005E::0abc',
    });
    expect(refused.status).toBe(429);
    expect(refused.refusal).toEqual({ status: 'error', message: 'too_many_requests', data: null });
    // Another address is not held back.
    const elsewhere = await openEventStream(baseUrl, await mintSessionOf(t, DEMO.care), {
      'x-forwarded-for': '2001:db8:5e:1::1',
    });
    expect(elsewhere.status).toBe(200);
    elsewhere.close();
    // Once one closes, the address may open another.
    streams[0]!.close();
    for (let attempt = 0; ; attempt++) {
      const again = await openEventStream(baseUrl, await mintSessionOf(t, DEMO.care), network(0xfff));
      if (again.status === 200) {
        again.close();
        break;
      }
      expect(attempt).toBeLessThan(50);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const stream of streams) stream.close();
  });
});

describe('a stream ends as soon as its session does, long before the next heartbeat', () => {
  let slow: TestApp;
  let slowUrl: string;
  const PROMPTLY_MS = 3_000;

  beforeAll(async () => {
    slow = await createTestApp({ EVENTS_HEARTBEAT_SECONDS: '600' });
    slowUrl = await listenLocally(slow.app);
  });
  afterAll(async () => {
    for (const stream of opened) stream.close();
    await slow?.close();
  });

  async function slowStream(token: string): Promise<SseStream> {
    const stream = await openEventStream(slowUrl, token);
    expect(stream.status).toBe(200);
    opened.push(stream);
    return stream;
  }

  it('at logout', async () => {
    const token = await slow.login(DEMO.customer);
    const stream = await slowStream(token);
    expect((await slow.as(token, { method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(200);
    await endsWithin(stream.ended, PROMPTLY_MS);
  });

  it("at a password change, for the user's other sessions, and keeps the one that made it", async () => {
    const changing = await slow.login(DEMO.care);
    const other = await slow.login(DEMO.care);
    const kept = await slowStream(changing);
    const ended = await slowStream(other);
    const changed = await slow.as(changing, {
      method: 'PUT',
      url: '/api/v1/auth/me',
      ...formBody({
        name: 'Customer Care',
        email: DEMO.care,
        current_password: DEMO_PASSWORD,
        new_password: DEMO_PASSWORD,
        repeat_new_password: DEMO_PASSWORD,
      }),
    });
    expect(changed.statusCode).toBe(200);
    await endsWithin(ended.ended, PROMPTLY_MS);
    await publishEvent(slow.database.db, { type: 'alert.raised', alertId: 78, customerId: null });
    expect((await kept.next()).data).toMatchObject({ alertId: 78 });
    kept.close();
  });

  it('when the user is disabled', async () => {
    const customerId = await customerIdOf(slow, DEMO.customer);
    const userId = await makeUser(slow, customerId);
    const stream = await slowStream(await mintSession(slow, userId));
    const admin = await slow.login(DEMO.admin);
    const disabled = await slow.as(admin, {
      method: 'DELETE',
      url: `/api/v1/customers/${customerId}/users/${userId}`,
    });
    expect(disabled.statusCode).toBe(200);
    await endsWithin(stream.ended, PROMPTLY_MS);
  });

  // Two processes on one PostgreSQL: the revocation's NOTIFY reaches the other one (the embedded PGlite
  // is one process's alone).
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'on another server process, when the session ends through this one',
    async () => {
      const peer = await createPeerApp(slow, { EVENTS_HEARTBEAT_SECONDS: '600' });
      try {
        const token = await slow.login(DEMO.customer);
        const onPeer = await openEventStream(await listenLocally(peer.app), token);
        opened.push(onPeer);
        expect(onPeer.status).toBe(200);
        expect((await slow.as(token, { method: 'POST', url: '/api/v1/auth/logout' })).statusCode).toBe(200);
        await endsWithin(onPeer.ended, PROMPTLY_MS);
      } finally {
        await peer.close();
      }
    },
  );
});
