/**
 * E-mail through a real SMTP server started by the test (smtp-server): the outbox queues a mail once
 * per dedupe key, the sender delivers each once (also with two senders racing), retries after a refusal
 * and gives up after MAIL_MAX_ATTEMPTS; GET /mail-outbox shows it all to managers only.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { unique } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import type { Mail } from '#shared/api/index.ts';
import { queueMail } from './outbox.ts';
import { createMailSender } from './sender.ts';
import { createSmtpTransport } from './transport.ts';

interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free port that keeps what it receives; `refuse` makes it reject every mail. */
async function startSmtp() {
  const received: Received[] = [];
  const control = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (control.refuse) {
          callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 450 }));
          return;
        }
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    control,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const silentLog = { warn: () => {}, error: () => {} };

const MAX_ATTEMPTS = 2;
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  // The app's outbox view counts a mail as failed after as many attempts as the test's senders make.
  t = await createTestApp({ MAIL_MAX_ATTEMPTS: String(MAX_ATTEMPTS) });
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
  await t?.close();
});
beforeEach(async () => {
  smtp.control.refuse = false;
  smtp.received.length = 0;
  // Each test drains only its own mails.
  await t.database.pool.query('delete from mail_outbox');
});

function sender(maxAttempts = MAX_ATTEMPTS) {
  return createMailSender({
    db: t.database.db,
    transport: createSmtpTransport(smtp.url),
    from: 'uvtrace <alerts@uvtrace.test>',
    maxAttempts,
    intervalSeconds: 60,
    log: silentLog,
  });
}

function mail(key: string, overrides: Partial<Parameters<typeof queueMail>[1]> = {}) {
  return {
    dedupeKey: key,
    userId: null,
    to: `${key}@clinic.test`,
    language: 'it',
    subject: 'Ciclo di sterilizzazione fallito',
    text: 'Il dispositivo SN-1 ha segnalato un malfunzionamento della lampada.',
    ...overrides,
  };
}

describe('outbox and sender', () => {
  it('queues a mail once per dedupe key', async () => {
    const key = `k${unique()}`;
    expect(await queueMail(t.database.db, mail(key))).toBe(true);
    expect(await queueMail(t.database.db, mail(key, { subject: 'other' }))).toBe(false);
    const rows = await t.database.pool.query('select subject from mail_outbox where dedupe_key = $1', [key]);
    expect(rows.rows).toEqual([{ subject: 'Ciclo di sterilizzazione fallito' }]);
  });

  it('delivers each queued mail once through SMTP, in its language, and records it as sent', async () => {
    const key = `k${unique()}`;
    await queueMail(t.database.db, mail(key));
    const s = sender();
    expect(await s.drainOnce()).toBe(1);
    expect(await s.drainOnce()).toBe(0);
    await s.stop();
    expect(smtp.received).toHaveLength(1);
    const [got] = smtp.received;
    expect(got?.to).toEqual([`${key}@clinic.test`]);
    expect(got?.raw).toMatch(/^Subject: Ciclo di sterilizzazione fallito/m);
    expect(got?.raw).toMatch(/^Content-Language: it/m);
    expect(got?.raw).toContain('malfunzionamento della lampada');
    const row = await t.database.pool.query(
      'select sent_at, message_id, attempts from mail_outbox where dedupe_key = $1',
      [key],
    );
    expect(row.rows[0].sent_at).not.toBeNull();
    expect(row.rows[0].message_id).toMatch(/^<outbox-\d+@uvtrace\.test>$/);
    expect(row.rows[0].attempts).toBe(1);
  });

  it('two senders draining at once deliver every mail exactly once', async () => {
    const keys = Array.from({ length: 12 }, () => `k${unique()}`);
    for (const key of keys) await queueMail(t.database.db, mail(key));
    // On PostgreSQL the second sender has its own pool, as another server process would.
    const connectionString =
      t.database.kind === 'postgres' ? t.database.pool.options.connectionString : undefined;
    const other = connectionString ? await openDatabase({ databaseUrl: connectionString }) : t.database;
    const a = sender();
    const b = createMailSender({
      db: other.db,
      transport: createSmtpTransport(smtp.url),
      from: 'uvtrace <alerts@uvtrace.test>',
      maxAttempts: MAX_ATTEMPTS,
      intervalSeconds: 60,
      log: silentLog,
    });
    const [sentA, sentB] = await Promise.all([a.drainOnce(), b.drainOnce()]);
    await a.stop();
    await b.stop();
    if (other !== t.database) await other.close();
    expect(sentA + sentB).toBe(keys.length);
    const delivered = smtp.received.flatMap((r) => r.to).sort();
    expect(delivered).toEqual(keys.map((key) => `${key}@clinic.test`).sort());
  });

  it('keeps a refused mail for a later attempt and gives up after the last one', async () => {
    const key = `k${unique()}`;
    await queueMail(t.database.db, mail(key));
    smtp.control.refuse = true;
    const s = sender();
    expect(await s.drainOnce()).toBe(0);
    const first = await t.database.pool.query(
      `select attempts, last_error, sent_at, next_attempt_at > now() as waits from mail_outbox where dedupe_key = $1`,
      [key],
    );
    expect(first.rows[0]).toMatchObject({ attempts: 1, sent_at: null, waits: true });
    expect(first.rows[0].last_error).toMatch(/mailbox unavailable/);
    // The wait is over: the second attempt is also refused, and it was the last.
    await t.database.pool.query(`update mail_outbox set next_attempt_at = now() where dedupe_key = $1`, [
      key,
    ]);
    expect(await s.drainOnce()).toBe(0);
    await t.database.pool.query(`update mail_outbox set next_attempt_at = now() where dedupe_key = $1`, [
      key,
    ]);
    smtp.control.refuse = false;
    expect(await s.drainOnce()).toBe(0);
    await s.stop();
    expect(smtp.received).toHaveLength(0);
    const admin = await t.login(DEMO.admin);
    const res = await t.as(admin, { method: 'GET', url: '/api/v1/mail-outbox?state=failed' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.data.map((m: Mail) => m.to_address)).toContain(`${key}@clinic.test`);
  });
});

describe('GET /mail-outbox', () => {
  it('shows managers the outbox with states, filters and whether sending is on', async () => {
    const sentKey = `k${unique()}`;
    const waitingKey = `k${unique()}`;
    await queueMail(t.database.db, mail(sentKey, { to: `Sent.${sentKey}@Clinic.test` }));
    const s = sender();
    await s.drainOnce();
    await s.stop();
    await queueMail(t.database.db, mail(waitingKey, { language: 'en', subject: 'Cycle failed' }));
    const admin = await t.login(DEMO.admin);

    const all = await t.as(admin, { method: 'GET', url: '/api/v1/mail-outbox' });
    expect(all.statusCode).toBe(200);
    expectContract('listMailOutbox', all);
    const page = all.json().data;
    expect(page.sending_enabled).toBe(false);
    expect(page.total).toBe(2);
    // Newest first.
    expect(page.data.map((m: Mail) => [m.subject, m.state])).toEqual([
      ['Cycle failed', 'pending'],
      ['Ciclo di sterilizzazione fallito', 'sent'],
    ]);

    const byState = await t.as(admin, { method: 'GET', url: '/api/v1/mail-outbox?state=sent' });
    expect(byState.json().data.data.map((m: Mail) => m.state)).toEqual(['sent']);
    // The address filter is case-insensitive and literal (% is not a wildcard).
    const byAddress = await t.as(admin, {
      method: 'GET',
      url: `/api/v1/mail-outbox?to=sent.${sentKey.toUpperCase()}`,
    });
    expect(byAddress.json().data.total).toBe(1);
    const wildcard = await t.as(admin, { method: 'GET', url: '/api/v1/mail-outbox?to=%25' });
    expect(wildcard.json().data.total).toBe(0);
  });

  it('refuses other roles and bad filters', async () => {
    for (const email of [DEMO.care, DEMO.customer]) {
      const token = await t.login(email);
      const res = await t.as(token, { method: 'GET', url: '/api/v1/mail-outbox' });
      expect(res.statusCode).toBe(403);
    }
    const admin = await t.login(DEMO.super);
    const bad = await t.as(admin, { method: 'GET', url: '/api/v1/mail-outbox?state=lost' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('validation_error');
  });

  it('says sending is on when an SMTP server is configured', async () => {
    const withSmtp = await createTestApp({ SMTP_URL: smtp.url, MAIL_INTERVAL_SECONDS: '3600' });
    try {
      const token = await withSmtp.login(DEMO.admin);
      const res = await withSmtp.as(token, { method: 'GET', url: '/api/v1/mail-outbox' });
      expect(res.json().data.sending_enabled).toBe(true);
    } finally {
      await withSmtp.close();
    }
  });
});
