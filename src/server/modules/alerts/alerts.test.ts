/**
 * The alert calls through HTTP: the list's filters, sort and paging; the bell's count; acknowledge and
 * resolve (audited, once each, 409 after); each role's rights; a clinic never sees another clinic's
 * alerts nor staff-only ones; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCustomer, makeDevice, makeUser, snapshot, unique } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { mintSession, mintSessionOf } from '#server/test/sessions.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import type { Alert } from '#shared/api/index.ts';
import { type AlertToRaise, raiseAlert } from './raise.ts';

let t: TestApp;
let clinic: number;
let device: number;
let tokens: Record<'super' | 'admin' | 'care' | 'clinicUser' | 'otherUser', string>;
let clinicUserId: number;

beforeAll(async () => {
  t = await createTestApp();
  clinic = await makeCustomer(t, { name: `Alert clinic ${unique()}` });
  device = await makeDevice(t, clinic);
  clinicUserId = await makeUser(t, clinic, 'CUSTOMER');
  tokens = {
    super: await mintSessionOf(t, DEMO.super),
    admin: await mintSessionOf(t, DEMO.admin),
    care: await mintSessionOf(t, DEMO.care),
    clinicUser: await mintSession(t, clinicUserId),
    otherUser: await mintSessionOf(t, DEMO.customer),
  };
});
afterAll(() => t?.close());

async function raise(overrides: Partial<AlertToRaise> = {}): Promise<number> {
  const id = await raiseAlert(t.database.db, {
    kind: 'failed_cycle',
    customerId: clinic,
    deviceId: device,
    conditionKey: `test:${unique()}`,
    details: { status_code: 1, status_text: 'Nulled' },
    ...overrides,
  });
  if (id === null) throw new Error('not raised');
  return id;
}

const get = (token: string, url: string) => t.as(token, { method: 'GET', url: `/api/v1${url}` });
const post = (token: string, url: string, payload?: string | object) =>
  t.as(token, { method: 'POST', url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload }) });

async function list(token: string, query: string): Promise<{ data: Alert[]; total: number }> {
  const response = await get(token, `/alerts?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  expectContract('listAlerts', response, 200);
  return response.json().data;
}

async function unread(token: string): Promise<number> {
  const response = await get(token, '/alerts/unread-count');
  expect(response.statusCode).toBe(200);
  expectContract('countUnreadAlerts', response, 200);
  return response.json().data.unread;
}

describe('GET /alerts', () => {
  it('filters by state, kind, customer and device, newest first', async () => {
    const other = await makeDevice(t, clinic);
    const first = await raise({ kind: 'lamp_life_low', deviceId: other });
    const second = await raise();
    const third = await raise({ kind: 'batch_80' });
    await post(tokens.admin, `/alerts/${third}/acknowledge`, {});
    const ofClinic = await list(tokens.super, `customerId=${clinic}`);
    expect(ofClinic.data.map((a) => a.id).slice(0, 3)).toEqual([third, second, first]);
    expect(
      (await list(tokens.super, `customerId=${clinic}&kind=lamp_life_low`)).data.map((a) => a.id),
    ).toEqual([first]);
    expect((await list(tokens.super, `deviceId=${other}`)).data.map((a) => a.id)).toEqual([first]);
    const acknowledged = await list(tokens.super, `customerId=${clinic}&state=acknowledged`);
    expect(acknowledged.data.map((a) => a.id)).toEqual([third]);
    const active = await list(tokens.super, `customerId=${clinic}&state=active&sortBy=raised_at&sortDir=asc`);
    expect(active.data.map((a) => a.id).filter((id) => [first, second, third].includes(id))).toEqual([
      first,
      second,
      third,
    ]);
    const page = await list(tokens.super, `customerId=${clinic}&kind=lamp_life_low`);
    expect(page.data[0]).toMatchObject({
      kind: 'lamp_life_low',
      state: 'open',
      customer: { id: clinic },
      device: { id: other, customer_id: clinic },
      acknowledged_by: null,
      resolved_by: null,
    });
  });

  it("shows a clinic only its own alerts, never staff-only ones, and not the device's current owner", async () => {
    const own = await raise();
    const staffOnly = await raise({ kind: 'block_not_mined', customerId: null, deviceId: null });
    const clinicView = await list(tokens.clinicUser, 'page=1');
    expect(clinicView.data.map((a) => a.id)).toContain(own);
    expect(clinicView.data.map((a) => a.id)).not.toContain(staffOnly);
    expect(clinicView.data.every((a) => a.customer?.id === clinic && a.device?.customer_id === null)).toBe(
      true,
    );
    expect((await list(tokens.otherUser, `customerId=${clinic}`)).data).toEqual([]);
    expect((await list(tokens.otherUser, 'page=1')).data.map((a) => a.id)).not.toContain(own);
    expect((await list(tokens.care, 'kind=block_not_mined')).data.map((a) => a.id)).toContain(staffOnly);
  });

  it('refuses a malformed filter', async () => {
    for (const query of ['state=closed', 'kind=nope', 'sortBy=details', 'deviceId=0', 'page=x']) {
      const response = await get(tokens.super, `/alerts?${query}`);
      expect([query, response.statusCode]).toEqual([query, 422]);
      expect(response.json().message).toBe('validation_error');
    }
  });
});

describe('the bell', () => {
  it('counts the open, unacknowledged alerts each caller sees', async () => {
    const before = {
      clinic: await unread(tokens.clinicUser),
      other: await unread(tokens.otherUser),
      staff: await unread(tokens.care),
    };
    const id = await raise();
    await raise({ kind: 'block_not_mined', customerId: null, deviceId: null });
    expect(await unread(tokens.clinicUser)).toBe(before.clinic + 1);
    expect(await unread(tokens.otherUser)).toBe(before.other);
    expect(await unread(tokens.care)).toBe(before.staff + 2);
    await post(tokens.clinicUser, `/alerts/${id}/acknowledge`, {});
    expect(await unread(tokens.clinicUser)).toBe(before.clinic);
  });
});

describe('acknowledge and resolve', () => {
  it('acknowledges once, with who, when and the comment, in the audit trail', async () => {
    const id = await raise();
    const response = await post(tokens.clinicUser, `/alerts/${id}/acknowledge`, {
      comment: '  Cycle repeated  ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expectContract('acknowledgeAlert', response, 200);
    const alert = response.json().data as Alert;
    expect(alert).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: { id: clinicUserId },
      acknowledge_comment: 'Cycle repeated',
    });
    expect(Date.parse(alert.acknowledged_at ?? '')).toBeGreaterThan(0);
    const audit = await t.database.pool.query(
      `select action, actor_user_id, changes from audit_log where entity_type = 'alert' and entity_id = $1`,
      [id],
    );
    expect(audit.rows).toEqual([
      {
        action: 'acknowledge',
        actor_user_id: clinicUserId,
        changes: {
          state: { old: 'open', new: 'acknowledged' },
          acknowledge_comment: { old: null, new: 'Cycle repeated' },
        },
      },
    ]);
    const again = await post(tokens.admin, `/alerts/${id}/acknowledge`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ status: 'error', message: 'alerts.already_acknowledged' });
  });

  it('resolves by hand once (no comment needed), then answers 409', async () => {
    const id = await raise();
    const response = await post(tokens.admin, `/alerts/${id}/resolve`);
    expect(response.statusCode, response.body).toBe(200);
    expectContract('resolveAlert', response, 200);
    expect(response.json().data).toMatchObject({
      state: 'resolved',
      resolution: 'manual',
      resolve_comment: null,
    });
    const audit = await t.database.pool.query(
      `select action from audit_log where entity_type = 'alert' and entity_id = $1`,
      [id],
    );
    expect(audit.rows).toEqual([{ action: 'resolve' }]);
    for (const step of ['resolve', 'acknowledge']) {
      const again = await post(tokens.super, `/alerts/${id}/${step}`, {});
      expect([step, again.statusCode, again.json().message]).toEqual([step, 409, 'alerts.already_resolved']);
    }
  });

  it("lets customer care acknowledge but not resolve, and nobody touch another clinic's alert", async () => {
    const id = await raise();
    expect((await post(tokens.care, `/alerts/${id}/resolve`, {})).statusCode).toBe(403);
    expect((await post(tokens.otherUser, `/alerts/${id}/acknowledge`, {})).statusCode).toBe(404);
    expect((await post(tokens.otherUser, `/alerts/${id}/resolve`, {})).statusCode).toBe(404);
    const staffOnly = await raise({ kind: 'block_not_mined', customerId: null, deviceId: null });
    expect((await post(tokens.clinicUser, `/alerts/${staffOnly}/acknowledge`, {})).statusCode).toBe(404);
    expect((await post(tokens.care, `/alerts/${id}/acknowledge`, {})).statusCode).toBe(200);
    expect((await post(tokens.clinicUser, `/alerts/${id}/resolve`, { comment: 'Done' })).statusCode).toBe(
      200,
    );
  });

  it('refuses bad input and changes nothing', async () => {
    const id = await raise();
    const before = await snapshot(t);
    const auditBefore = await t.database.pool.query('select count(*) from audit_log');
    const alertBefore = await t.database.pool.query('select * from alerts where id = $1', [id]);
    for (const payload of [{ comment: 'x'.repeat(1001) }, { comment: 5 }, { note: 'x' }, 'text']) {
      const response = await post(tokens.admin, `/alerts/${id}/acknowledge`, payload);
      expect([JSON.stringify(payload).slice(0, 30), response.statusCode]).toEqual([
        JSON.stringify(payload).slice(0, 30),
        typeof payload === 'string' ? 415 : 422,
      ]);
    }
    const tooLong = await post(tokens.admin, `/alerts/${id}/resolve`, { comment: 'y'.repeat(1001) });
    expect(tooLong.json()).toMatchObject({ data: { comment: ['validation.alert.comment.too_long'] } });
    expect(await snapshot(t)).toEqual(before);
    expect((await t.database.pool.query('select count(*) from audit_log')).rows).toEqual(auditBefore.rows);
    expect((await t.database.pool.query('select * from alerts where id = $1', [id])).rows).toEqual(
      alertBefore.rows,
    );
  });
});

describe("a clinic's own thresholds on the customer form", () => {
  const patch = (fields: Record<string, string>) => {
    const payload = new FormData();
    for (const [key, value] of Object.entries(fields)) payload.append(key, value);
    return t.as(tokens.admin, { method: 'PATCH', url: `/api/v1/customers/${clinic}`, payload });
  };

  it('are set by staff, kept when not sent, back to the default when sent empty, refused when malformed', async () => {
    let response = await patch({ alert_device_silent_hours: '12', alert_lamp_life_threshold: '0' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      alert_device_silent_hours: 12,
      alert_lamp_life_threshold: 0,
    });
    response = await patch({ phone: '0101' });
    expect(response.json().data).toMatchObject({
      alert_device_silent_hours: 12,
      alert_lamp_life_threshold: 0,
    });
    response = await patch({ alert_device_silent_hours: '' });
    expect(response.json().data).toMatchObject({
      alert_device_silent_hours: null,
      alert_lamp_life_threshold: 0,
    });
    for (const [field, value] of [
      ['alert_device_silent_hours', '0'],
      ['alert_device_silent_hours', '1.5'],
      ['alert_lamp_life_threshold', '-1'],
    ] as const) {
      response = await patch({ [field]: value });
      expect([field, value, response.statusCode, response.json().data]).toEqual([
        field,
        value,
        422,
        { [field]: [`validation.customer.${field}.invalid`] },
      ]);
    }
    const stored = await t.database.pool.query(
      'select alert_device_silent_hours, alert_lamp_life_threshold from customers where id = $1',
      [clinic],
    );
    expect(stored.rows).toEqual([{ alert_device_silent_hours: null, alert_lamp_life_threshold: 0 }]);
  });
});
