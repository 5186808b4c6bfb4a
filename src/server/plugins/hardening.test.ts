/**
 * Hardening, through HTTP: strict security headers on every kind of answer, HSTS only for
 * HTTPS requests, rate limits on login and device ingestion, body and upload size limits, no
 * credential in the log, and 5xx answers that say nothing about the failure.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import {
  databaseDigest,
  expectErrorEnvelope,
  expectSecurityHeaders,
  makeCertificate,
  samplePdf,
} from '../test/contract-support.ts';
import { mintSessionOf } from '../test/sessions.ts';
import {
  createPeerApp,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
  uniqueClientAddress,
} from '../test/test-app.ts';
import { FIELD_MAX_BYTES, FIELDS_ALLOWANCE_BYTES } from './multipart.ts';
import { HSTS_VALUE } from './security-headers.ts';

const UPLOAD_MAX_BYTES = 8 * 1024;
const BODY_MAX_BYTES = 4 * 1024;

let t: TestApp;
let clientDist: string;
const logLines: string[] = [];
let superToken: string;

beforeAll(async () => {
  // A stand-in client build, so the SPA's answers are checked too.
  clientDist = mkdtempSync(path.join(tmpdir(), 'uvtrace-hardening-'));
  mkdirSync(path.join(clientDist, 'assets'));
  writeFileSync(
    path.join(clientDist, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/assets/app.js"></script>',
  );
  writeFileSync(path.join(clientDist, 'assets', 'app.js'), 'console.log(1);');
  t = await createTestApp(
    {
      CLIENT_DIST: clientDist,
      LOG_LEVEL: 'info',
      UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES),
      BODY_MAX_BYTES: String(BODY_MAX_BYTES),
      LOGIN_RATE_LIMIT_PER_MINUTE: '3',
      INGEST_RATE_LIMIT_PER_MINUTE: '2',
    },
    { logStream: { write: (line) => void logLines.push(line) } },
  );
  superToken = await mintSessionOf(t, DEMO.super);
});
afterAll(async () => {
  await t?.close();
  rmSync(clientDist, { recursive: true, force: true });
});

const as = (token: string, options: Parameters<TestApp['as']>[1]) =>
  t.as(token, { ...options, headers: { 'x-forwarded-for': uniqueClientAddress(), ...options.headers } });

describe('security headers', () => {
  it('go with every kind of answer: JSON, errors, files, CSV, the app, and the router own refusals', async () => {
    const certificate = await makeCertificate(t);
    const ticket = (
      await as(superToken, {
        method: 'POST',
        url: '/api/v1/export-tickets',
        payload: { export: 'sterilizations-ok' },
      })
    ).json().data.ticket;
    const answers = {
      'JSON 200': await t.app.inject({ method: 'GET', url: '/api/v1/health' }),
      '401': await t.app.inject({ method: 'GET', url: '/api/v1/auth/me' }),
      'unknown API path': await t.app.inject({ method: 'GET', url: '/api/v1/nope' }),
      '415': await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'content-type': 'text/xml' },
        payload: '<a/>',
      }),
      'PDF download': await as(superToken, {
        method: 'GET',
        url: `/api/v1/certificates/download/it/${certificate}`,
      }),
      'CSV export': await t.app.inject({ method: 'GET', url: `/export/sterilizations-ok?ticket=${ticket}` }),
      'app page': await t.app.inject({ method: 'GET', url: '/customers/2' }),
      'app asset': await t.app.inject({ method: 'GET', url: '/assets/app.js' }),
      'malformed percent-encoding': await t.app.inject({ method: 'GET', url: '/api/v1/customers/%E0%A4%A' }),
      'over-long path segment': await as(superToken, {
        method: 'GET',
        url: `/api/v1/customers/${'9'.repeat(500)}`,
      }),
    };
    for (const [name, response] of Object.entries(answers)) {
      expect([name, response.statusCode < 500]).toEqual([name, true]);
      expectSecurityHeaders(response, name);
      expect(response.headers['strict-transport-security'], name).toBeUndefined();
    }
    expect(answers['JSON 200'].statusCode).toBe(200);
    expect(answers['PDF download'].statusCode).toBe(200);
    expect(answers['CSV export'].statusCode).toBe(200);
    expect(answers['app page'].statusCode).toBe(200);
    expect(answers['app asset'].statusCode).toBe(200);
    expect(answers['malformed percent-encoding'].json()).toEqual({
      status: 'error',
      message: 'bad_request',
      data: null,
    });
    expect(answers['over-long path segment'].json()).toEqual({
      status: 'error',
      message: 'not_found',
      data: null,
    });
  });

  it('send HSTS when the request came over HTTPS through the trusted proxy, and only then', async () => {
    const overHttps = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(overHttps.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const overHttp = await t.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
  });

  it('ignore X-Forwarded-Proto without TRUST_PROXY, and always send HSTS with HTTPS=true', async () => {
    const direct = await createTestApp({ TRUST_PROXY: 'false' });
    const always = await createTestApp({ HTTPS: 'true' });
    try {
      const spoofed = await direct.app.inject({
        method: 'GET',
        url: '/api/v1/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(spoofed.headers['strict-transport-security']).toBeUndefined();
      const forced = await always.app.inject({ method: 'GET', url: '/api/v1/nope' });
      expect(forced.headers['strict-transport-security']).toBe(HSTS_VALUE);
    } finally {
      await direct.close();
      await always.close();
    }
  });
});

describe('caching', () => {
  it('is forbidden for every answer to a signed-in caller, and left alone for public answers', async () => {
    const certificate = await makeCertificate(t);
    const answers = {
      'JSON 200': await as(superToken, { method: 'GET', url: '/api/v1/auth/me' }),
      'JSON list': await as(superToken, { method: 'GET', url: '/api/v1/customers?page=1' }),
      'JSON 404': await as(superToken, { method: 'GET', url: '/api/v1/customers/999999' }),
      'JSON 422': await as(superToken, { method: 'GET', url: '/api/v1/customers?page=x' }),
      'PDF download': await as(superToken, {
        method: 'GET',
        url: `/api/v1/certificates/download/it/${certificate}`,
      }),
    };
    for (const [name, response] of Object.entries(answers)) {
      expect([name, String(response.headers['cache-control'])]).toEqual([
        name,
        expect.stringMatching(/\bno-store\b/),
      ]);
    }
    expect(answers['JSON 200'].statusCode).toBe(200);
    expect(answers['JSON 404'].statusCode).toBe(404);
    expect(answers['PDF download'].statusCode).toBe(200);
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.headers['cache-control']).toBeUndefined();
  });
});

describe('rate limits', () => {
  it('answer 429 in the envelope after LOGIN_RATE_LIMIT_PER_MINUTE logins from one address, right or wrong', async () => {
    const address = uniqueClientAddress();
    const login = (from: string, password = DEMO_PASSWORD) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'x-forwarded-for': from },
        ...formBody({ email: DEMO.customer, password }),
      });
    expect((await login(address)).statusCode).toBe(200);
    expect((await login(address, 'wrong-password')).statusCode).toBe(401);
    expect((await login(address)).statusCode).toBe(200);
    const before = await databaseDigest(t);
    const limited = await login(address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ status: 'error', message: 'too_many_requests', data: null });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expectSecurityHeaders(limited, 'login 429');
    expect(await databaseDigest(t)).toEqual(before);
    expect((await login(uniqueClientAddress())).statusCode).toBe(200);
  });

  it('count one IPv6 /64 as one client, as the login throttle does', async () => {
    const login = (from: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'x-forwarded-for': from },
        ...formBody({ email: DEMO.customer, password: DEMO_PASSWORD }),
      });
    for (const from of ['2001:db8:77::1', '2001:0DB8:0077::0002', '2001:db8:77:0:1:2:3:4'])
      expect((await login(from)).statusCode).toBe(200);
    expect((await login('2001:db8:77::5')).statusCode).toBe(429);
    expect((await login('2001:db8:77:1::5')).statusCode).toBe(200);
  });

  it('answer 429 after INGEST_RATE_LIMIT_PER_MINUTE ingestion requests from one address, before reading the token', async () => {
    const address = uniqueClientAddress();
    const ingest = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/sterilizations',
        headers: { 'x-forwarded-for': address },
        payload: { token: 'a.b.c' },
      });
    expect((await ingest()).statusCode).toBe(401);
    expect((await ingest()).statusCode).toBe(401);
    const limited = await ingest();
    expect(limited.statusCode).toBe(429);
    expectErrorEnvelope(limited, 'ingest 429');
    expect(limited.json().message).toBe('too_many_requests');
    expect(limited.headers['retry-after']).toBeDefined();
  });

  // PostgreSQL only: the embedded PGlite is one process's alone, so it counts in memory (rate-limits.ts).
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'hold across two app instances on one database, per route',
    async () => {
      const peer = await createPeerApp(t);
      try {
        const address = uniqueClientAddress();
        const ingest = (app: TestApp['app']) =>
          app.inject({
            method: 'POST',
            url: '/api/v1/ingest/sterilizations',
            headers: { 'x-forwarded-for': address },
            payload: { token: 'a.b.c' },
          });
        // INGEST_RATE_LIMIT_PER_MINUTE is 2: one request on each instance spends the address's minute.
        expect((await ingest(t.app)).statusCode).toBe(401);
        expect((await ingest(peer.app)).statusCode).toBe(401);
        const limited = await ingest(peer.app);
        expect(limited.statusCode).toBe(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect((await ingest(t.app)).statusCode).toBe(429);
        // Login counts apart from ingestion.
        const login = await peer.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          headers: { 'x-forwarded-for': address },
          ...formBody({ email: DEMO.customer, password: DEMO_PASSWORD }),
        });
        expect(login.statusCode).toBe(200);
        // A new window starts once the old one has ended.
        await t.database.pool.query(`update rate_limit_hits set window_ends_at = now() where key like $1`, [
          `% ${address}`,
        ]);
        expect((await ingest(peer.app)).statusCode).toBe(401);
      } finally {
        await peer.close();
      }
    },
  );

  it('default to limits the end-to-end suite and the device simulator stay under', () => {
    const config = loadConfig({});
    expect(config.loginRateLimitPerMinute).toBe(120);
    expect(config.ingestRateLimitPerMinute).toBe(600);
    expect(config.bodyMaxBytes).toBe(1024 * 1024);
    expect(loadConfig({ LOGIN_RATE_LIMIT_PER_MINUTE: '0' }).loginRateLimitPerMinute).toBe(0);
  });
});

describe('size limits', () => {
  it('refuse a JSON body over BODY_MAX_BYTES with 413 payload_too_large', async () => {
    const response = await as(superToken, {
      method: 'POST',
      url: '/api/v1/export-tickets',
      payload: { export: 'sterilizations-ok', padding: 'x'.repeat(BODY_MAX_BYTES) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'error', message: 'payload_too_large', data: null });
    expectSecurityHeaders(response, 'json 413');
  });

  async function upload(file: Buffer, extra: Record<string, string> = {}) {
    const body = new FormData();
    body.append('lot_number', `L-${Date.now()}`);
    body.append('validated_treatment_number', 'T-1');
    body.append('expiration_date', '2027-03-31');
    for (const [name, value] of Object.entries(extra)) body.append(name, value);
    body.append(
      'italian_file',
      new Blob([new Uint8Array(file)], { type: 'application/pdf' }),
      'certificato.pdf',
    );
    return as(superToken, { method: 'POST', url: '/api/v1/certificates', payload: body });
  }

  it('take an upload up to UPLOAD_MAX_BYTES and refuse a larger one with 413 file_too_large', async () => {
    const pdf = await samplePdf();
    expect((await upload(pdf)).statusCode).toBe(201);
    const before = await databaseDigest(t);
    const response = await upload(Buffer.concat([pdf, Buffer.alloc(UPLOAD_MAX_BYTES)]));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'error', message: 'file_too_large', data: null });
    expect(await databaseDigest(t)).toEqual(before);
  });

  it('refuse a form field over the field limit rather than cut it', async () => {
    const response = await upload(await samplePdf(), { notes: 'n'.repeat(FIELD_MAX_BYTES + 1) });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('payload_too_large');
  });

  it('refuse a form whose declared length is over the upload limit before reading it', async () => {
    const response = await as(superToken, {
      method: 'POST',
      url: '/api/v1/certificates',
      headers: {
        'content-type': 'multipart/form-data; boundary=b',
        'content-length': String(UPLOAD_MAX_BYTES + FIELDS_ALLOWANCE_BYTES + 1),
      },
      payload: '--b--\r\n',
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ status: 'error', message: 'payload_too_large', data: null });
  });

  it('refuse a second file and malformed multipart in the envelope', async () => {
    const twoFiles = new FormData();
    twoFiles.append('a', new Blob(['%PDF-']), 'a.pdf');
    twoFiles.append('b', new Blob(['%PDF-']), 'b.pdf');
    const second = await as(superToken, { method: 'POST', url: '/api/v1/certificates', payload: twoFiles });
    expect(second.statusCode).toBe(413);
    expect(second.json().message).toBe('payload_too_large');
    const malformed = await as(superToken, {
      method: 'POST',
      url: '/api/v1/certificates',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="lot_number"\r\n\r\nL-1',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ status: 'error', message: 'bad_request', data: null });
  });
});

describe('credentials', () => {
  it('never reach the log: no session token, no Authorization value, no password, no export ticket', async () => {
    logLines.length = 0;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'x-forwarded-for': uniqueClientAddress() },
      ...formBody({ email: DEMO.admin, password: DEMO_PASSWORD }),
    });
    const token = login.json().data.token as string;
    await as(token, { method: 'GET', url: '/api/v1/auth/me' });
    await as(token, { method: 'GET', url: '/api/v1/customers?page=1' });
    await as(token, { method: 'GET', url: '/api/v1/customers/987654' });
    const ticket = (
      await as(token, {
        method: 'POST',
        url: '/api/v1/export-tickets',
        payload: { export: 'sterilizations-filtered' },
      })
    ).json().data.ticket as string;
    const exported = await t.app.inject({
      method: 'GET',
      url: `/export/sterilizations-filtered?ticket=${ticket}`,
    });
    expect(exported.statusCode).toBe(200);
    await as(token, { method: 'POST', url: '/api/v1/auth/logout' });

    const log = logLines.join('');
    expect(log).toContain('/api/v1/auth/me');
    expect(log).toContain('/export/sterilizations-filtered?ticket=[redacted]');
    for (const secret of [token, ticket, DEMO_PASSWORD, `Bearer ${token}`]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/authorization|bearer/i);
  });

  it('are taken from the Authorization header only, never from the URL', async () => {
    for (const url of [`/api/v1/auth/me?access_token=${superToken}`, `/api/v1/auth/me?token=${superToken}`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('session_expired');
    }
  });
});

describe('server errors', () => {
  it('say server_error when the database fails under a handler, service_unavailable when it is gone', async () => {
    const lines: string[] = [];
    // Every session read from the database: a session checked a moment ago would answer /auth/me
    // without it (on a PostgreSQL server the lost listening connection turns that off, event-bus.ts).
    const broken = await createTestApp(
      { LOG_LEVEL: 'error', SESSION_CACHE_SECONDS: '0' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      const token = await mintSessionOf(broken, DEMO.admin);
      // This throwaway database loses a table the handler reads.
      await broken.database.pool.query('drop table certificate_files, certificates cascade');
      const response = await broken.as(token, { method: 'GET', url: '/api/v1/certificates' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ status: 'error', message: 'server_error', data: null });
      expectErrorEnvelope(response, 'dropped table');
      expectSecurityHeaders(response, 'dropped table');
      expect(response.body).not.toMatch(/certificate|select|relation|stack/i);
      // The details are for the operator, in the log.
      expect(lines.join('')).toMatch(/certificates/);

      // The database gone altogether: every call that needs it says "try again later" (503), not a
      // fault (500); health says the same.
      await broken.database.close();
      for (const url of ['/api/v1/customers', '/api/v1/sterilizations', '/api/v1/auth/me']) {
        const gone = await broken.as(token, { method: 'GET', url });
        expect(gone.statusCode, url).toBe(503);
        expect(gone.json()).toEqual({ status: 'error', message: 'service_unavailable', data: null });
        expectSecurityHeaders(gone, url);
      }
      const health = await broken.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ status: 'error', message: 'service_unavailable', data: null });
    } finally {
      await broken.close();
    }
  });
});
