/**
 * "Forgot your password?" (docs/accounts.md §4), with the attacks: a link used twice, after 30
 * minutes, for a disabled user, tampered; a request storm for one address; the same answer and about
 * the same time whether the address exists or not; the link never in the outbox view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '#server/test/accounts.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { passwordLogin } from '#server/test/sessions.ts';
import {
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
  uniqueClientAddress,
} from '#server/test/test-app.ts';
import type { OutgoingMail } from '../mail/index.ts';
import { createMailSender } from '../mail/index.ts';
import { RESET_ANSWER_MS, resetMailText } from './password-reset.ts';

const APP_URL = 'https://uvtrace.example';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '4', LOGIN_ADDRESS_MAX_FAILURES: '6', APP_URL });
});
afterAll(() => t?.close());

/** What the SMTP server got: the sender drains the outbox into this list. */
const delivered: OutgoingMail[] = [];
async function sendQueuedMail(): Promise<void> {
  const sender = createMailSender({
    db: t.database.db,
    transport: {
      async send(mail) {
        delivered.push(mail);
        return { messageId: mail.messageId };
      },
      close() {},
    },
    from: 'uvtrace <no-reply@uvtrace.example>',
    maxAttempts: 3,
    intervalSeconds: 3600,
    log: { warn() {}, error() {} },
    completeText: resetMailText(t.database.db, APP_URL),
  });
  await sender.drainOnce();
}
const linkOf = (mail: OutgoingMail | undefined) =>
  /https:\/\/uvtrace\.example\/reset-password#token=([\w-]+)/.exec(mail?.text ?? '')?.[1];

const ask = (email: string, from = uniqueClientAddress()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/password-reset',
    headers: { 'x-forwarded-for': from },
    ...formBody({ email }),
  });
const complete = (token: string, password: string, from = uniqueClientAddress()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/password-reset/complete',
    headers: { 'x-forwarded-for': from },
    ...formBody({ token, new_password: password, repeat_new_password: password }),
  });
const login = (email: string, password: string) => passwordLogin(t, email, password);
const me = (token: string) => t.as(token, { method: 'GET', url: '/api/v1/auth/me' });
const LINK_INVALID = { token: ['validation.password_reset.link_invalid'] };

/** A fresh account, a reset asked for and its mail sent: answers the account and the link's token. */
async function resetLinkFor(name?: string) {
  const account = await makeAccount(t, { name });
  expect((await ask(account.email)).statusCode).toBe(200);
  const before = delivered.length;
  await sendQueuedMail();
  const mail = delivered.slice(before).find((sent) => sent.to === account.email);
  const token = linkOf(mail);
  if (!token) throw new Error(`no reset link mailed to ${account.email}`);
  return { account, token, mail };
}

describe('asking for a reset link', () => {
  it('answers the same, in about the same time, whether the address is known or not', async () => {
    const account = await makeAccount(t);
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await ask(email);
      return { response, ms: performance.now() - started };
    };
    const known = await timed(account.email);
    const unknown = await timed(`nobody-${account.email}`);
    const disabled = await makeAccount(t);
    await t.database.pool.query('update users set deleted_at = now() where id = $1', [disabled.userId]);
    const off = await timed(disabled.email);
    for (const { response, ms } of [known, unknown, off]) {
      expect(response.statusCode).toBe(200);
      expectContract('requestPasswordReset', response, 200);
      expect(response.json()).toEqual({ status: 'success', message: 'password_reset.requested', data: null });
      expect(ms).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 5);
    }
    expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(150);
    // Only the known, active account gets a mail, and its request is in the audit trail.
    const mails = await t.database.pool.query<{ to_address: string }>(
      'select to_address from mail_outbox where to_address = any($1)',
      [[account.email, `nobody-${account.email}`, disabled.email]],
    );
    expect(mails.rows.map((row) => row.to_address)).toEqual([account.email]);
    const audit = await t.database.pool.query(
      `select action, actor_email from audit_log where entity_type = 'user' and entity_id = $1`,
      [account.userId],
    );
    expect(audit.rows).toEqual([{ action: 'password_reset_request', actor_email: account.email }]);
  });

  it('keeps the link out of the outbox: staff see that a reset mail was sent, not its link', async () => {
    const { account, token, mail } = await resetLinkFor();
    expect(mail?.text).toContain('within 30 minutes');
    const admin = await t.login(DEMO.admin);
    const outbox = await t.as(admin, {
      method: 'GET',
      url: `/api/v1/mail-outbox?to=${encodeURIComponent(account.email)}`,
    });
    expect(outbox.statusCode).toBe(200);
    const [row] = outbox.json().data.data;
    expect(row).toMatchObject({
      to_address: account.email,
      subject: 'Reset your uvtrace password',
      state: 'sent',
    });
    expect(row.body_text).toContain('[one-time link: only in the copy sent to the addressee]');
    expect(outbox.body).not.toContain(token);
    // Nor anywhere in the database: only its hash.
    const stored = await t.database.pool.query(
      `select count(*)::int as n from mail_outbox where body_text like '%' || $1 || '%'`,
      [token],
    );
    expect(stored.rows[0].n).toBe(0);
  });

  it('throttles a request storm for one address, with the same answers for a known and an unknown address', async () => {
    const account = await makeAccount(t);
    const storm = async (email: string, from: string) => {
      const statuses: number[] = [];
      for (let request = 0; request < 6; request++) statuses.push((await ask(email, from)).statusCode);
      return statuses;
    };
    const known = await storm(account.email, '203.0.113.50');
    const unknown = await storm(`ghost-${account.email}`, '203.0.113.51');
    // LOGIN_MAX_FAILURES is 4 here: the fifth request of a pair waits.
    expect(known).toEqual([200, 200, 200, 200, 429, 429]);
    expect(unknown).toEqual(known);
    // At most 3 mails per account within 30 minutes, from any address.
    for (const from of ['203.0.113.52', '203.0.113.53'])
      expect((await ask(account.email, from)).statusCode).toBe(200);
    const mails = await t.database.pool.query(
      'select count(*)::int as n from mail_outbox where to_address = $1',
      [account.email],
    );
    expect(mails.rows[0].n).toBe(3);
    // Logins of the account from that address are not slowed by the storm.
    expect((await login(account.email, DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a malformed address with the login messages', async () => {
    const response = await ask('not-an-email');
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({ email: ['validation.login.email.invalid'] });
  });
});

describe('completing a reset', () => {
  it('sets the new password, ends every session of the user, and is recorded', async () => {
    const { account, token } = await resetLinkFor();
    const sessions = [await t.login(account.email), await t.login(account.email)];
    const response = await complete(token, 'a brand new passphrase', '203.0.113.60');
    expect(response.statusCode).toBe(200);
    expectContract('completePasswordReset', response, 200);
    for (const session of sessions) expect((await me(session)).statusCode).toBe(401);
    expect((await login(account.email, DEMO_PASSWORD)).statusCode).toBe(401);
    expect((await login(account.email, 'a brand new passphrase')).statusCode).toBe(200);
    const audit = await t.database.pool.query(
      `select action, actor_email, client_address, changes from audit_log
       where entity_type = 'user' and entity_id = $1 and action = 'password_reset'`,
      [account.userId],
    );
    expect(audit.rows).toEqual([
      {
        action: 'password_reset',
        actor_email: account.email,
        client_address: '203.0.113.60',
        changes: { password: { redacted: true } },
      },
    ]);
  });

  it('works once: a link used twice is refused the second time', async () => {
    const { account, token } = await resetLinkFor();
    expect((await complete(token, 'first new password')).statusCode).toBe(200);
    const again = await complete(token, 'second new password');
    expect(again.statusCode).toBe(422);
    expectContract('completePasswordReset', again, 422);
    expect(again.json().data).toEqual(LINK_INVALID);
    expect((await login(account.email, 'first new password')).statusCode).toBe(200);
  });

  it('refuses a link after 30 minutes, for a disabled user, and a tampered one, all alike', async () => {
    const expired = await resetLinkFor();
    await t.database.pool.query(
      `update password_resets set created_at = created_at - interval '31 minutes', expires_at = expires_at - interval '31 minutes'
       where user_id = $1`,
      [expired.account.userId],
    );
    const disabled = await resetLinkFor();
    await t.database.pool.query('update users set deleted_at = now() where id = $1', [
      disabled.account.userId,
    ]);
    const tampered = await resetLinkFor();
    const flipped = `${tampered.token.slice(0, -1)}${tampered.token.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [expired.token, disabled.token, flipped, `${tampered.token}x`, '']) {
      const response = await complete(token, 'never accepted 1');
      expect([token.slice(0, 8), response.statusCode, response.json().data]).toEqual([
        token.slice(0, 8),
        422,
        LINK_INVALID,
      ]);
    }
    for (const { account } of [expired, tampered])
      expect((await login(account.email, DEMO_PASSWORD)).statusCode).toBe(200);
    // The untampered link still works.
    expect((await complete(tampered.token, 'the real new one')).statusCode).toBe(200);
  });

  it('holds the new password to the rules, and keeps the link for a better one', async () => {
    const { account, token } = await resetLinkFor('Pat Reset');
    const cases: [string, string][] = [
      ['seven77', 'validation.user.password.short'],
      ['password123', 'validation.password.common'],
      [`x${account.email}`, 'validation.password.contains_email'],
      ['pat reset', 'validation.password.equals_name'],
      ['z'.repeat(129), 'validation.password.too_long'],
    ];
    for (const [password, message] of cases) {
      const response = await complete(token, password);
      expect([password.slice(0, 12), response.statusCode, response.json().data]).toEqual([
        password.slice(0, 12),
        422,
        { new_password: [message] },
      ]);
    }
    expect((await complete(token, 'z'.repeat(128))).statusCode).toBe(200);
  });

  it('slows one address guessing links', async () => {
    const from = '203.0.113.70';
    const statuses: number[] = [];
    for (let guess = 0; guess < 6; guess++)
      statuses.push((await complete(`guess-${guess}`, 'whatever pass 1', from)).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422, 429, 429]);
  });

  it('does not send a mail whose link expired while it waited', async () => {
    const account = await makeAccount(t);
    expect((await ask(account.email)).statusCode).toBe(200);
    await t.database.pool.query(
      `update password_resets set expires_at = now() - interval '1 second' where user_id = $1`,
      [account.userId],
    );
    const before = delivered.length;
    await sendQueuedMail();
    expect(delivered.slice(before).filter((mail) => mail.to === account.email)).toEqual([]);
    const row = await t.database.pool.query(
      'select sent_at, last_error from mail_outbox where to_address = $1',
      [account.email],
    );
    expect(row.rows).toEqual([{ sent_at: null, last_error: 'the link expired before it could be sent' }]);
  });
});
