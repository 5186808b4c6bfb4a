/**
 * E-mail notification settings through HTTP: each role's default and available kinds, a choice stored
 * and audited, null back to the default, and what is refused (a staff-only kind for a clinic user, an
 * unknown kind or language, duplicates) changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIdOf } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const URL = '/api/v1/auth/me/notifications';

async function stored(email: string) {
  const result = await t.database.pool.query('select language, email_alert_kinds from users where id = $1', [
    await userIdOf(t, email),
  ]);
  return result.rows[0];
}

describe('GET /auth/me/notifications', () => {
  it('gives a clinic user failures and expiries by default, and no staff-only kind to choose', async () => {
    const token = await t.login(DEMO.customer);
    const res = await t.as(token, { method: 'GET', url: URL });
    expect(res.statusCode).toBe(200);
    expectContract('getNotificationSettings', res);
    const settings = res.json().data;
    expect(settings).toMatchObject({
      language: 'en',
      uses_default: true,
      email_alert_kinds: ['failed_cycle', 'certificate_expiring', 'certificate_expired'],
    });
    expect(settings.available_kinds).not.toContain('block_not_mined');
    expect(settings.available_kinds).toContain('record_gap');
  });

  it('gives customer care nothing by default and every kind to choose', async () => {
    const token = await t.login(DEMO.care);
    const settings = (await t.as(token, { method: 'GET', url: URL })).json().data;
    expect(settings.email_alert_kinds).toEqual([]);
    expect(settings.available_kinds).toContain('block_not_mined');
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: URL });
    expect(res.statusCode).toBe(401);
  });
});

describe('PUT /auth/me/notifications', () => {
  it('stores the choice and the language, audits the change, and null returns to the default', async () => {
    const token = await t.login(DEMO.admin);
    const res = await t.as(token, {
      method: 'PUT',
      url: URL,
      payload: { language: 'it', email_alert_kinds: ['block_not_mined', 'failed_cycle'] },
    });
    expect(res.statusCode).toBe(200);
    expectContract('updateNotificationSettings', res);
    // In the order of the kinds' list, whatever order was sent.
    expect(res.json().data).toMatchObject({
      language: 'it',
      uses_default: false,
      email_alert_kinds: ['failed_cycle', 'block_not_mined'],
    });
    expect(await stored(DEMO.admin)).toEqual({
      language: 'it',
      email_alert_kinds: ['failed_cycle', 'block_not_mined'],
    });
    const audit = await t.database.pool.query(
      `select changes from audit_log where action = 'profile_update' and entity_id = $1 order by id desc limit 1`,
      [await userIdOf(t, DEMO.admin)],
    );
    expect(audit.rows[0].changes).toEqual({
      language: { old: 'en', new: 'it' },
      email_alert_kinds: { old: null, new: 'failed_cycle, block_not_mined' },
    });

    const reset = await t.as(token, {
      method: 'PUT',
      url: URL,
      payload: { language: 'it', email_alert_kinds: null },
    });
    expect(reset.json().data).toMatchObject({ uses_default: true, email_alert_kinds: [] });
    expect((await stored(DEMO.admin)).email_alert_kinds).toBeNull();
  });

  it('refuses a staff-only kind for a clinic user and bad values, changing nothing', async () => {
    const token = await t.login(DEMO.customer);
    const before = await stored(DEMO.customer);
    const cases: unknown[] = [
      { language: 'en', email_alert_kinds: ['block_not_mined'] },
      { language: 'en', email_alert_kinds: ['no_such_kind'] },
      { language: 'fr', email_alert_kinds: [] },
      { language: 'en', email_alert_kinds: ['failed_cycle', 'failed_cycle'] },
      { language: 'en' },
      { language: 'en', email_alert_kinds: [], extra: true },
    ];
    for (const payload of cases) {
      const res = await t.as(token, { method: 'PUT', url: URL, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().message).toBe('validation_error');
    }
    const refused = await t.as(token, {
      method: 'PUT',
      url: URL,
      payload: { language: 'en', email_alert_kinds: ['block_not_mined'] },
    });
    expect(refused.json().data).toEqual({
      email_alert_kinds: ['validation.notifications.kind_not_available'],
    });
    expect(await stored(DEMO.customer)).toEqual(before);
  });
});
