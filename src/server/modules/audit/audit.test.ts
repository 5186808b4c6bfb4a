/**
 * The audit trail through HTTP (docs/audit.md): each audited action writes exactly one entry with its
 * actor, role, action, entity and old → new values and no secret; a refused request writes none; the
 * table refuses UPDATE, DELETE and TRUNCATE; the hash chain detects an altered or removed entry and
 * stays one chain under concurrent writers; GET /audit is for SUPER_ADMIN and ADMIN only.
 */
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_PAGE } from '#server/http/paging.ts';
import {
  customerIdOf,
  makeCustomer,
  makeDevice,
  makeUser,
  productId,
  rsaPublicKeyPem,
  unique,
  userIdOf,
} from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import {
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  formBody,
  type TestApp,
  uniqueClientAddress,
} from '#server/test/test-app.ts';
import type { AuditEntry } from '#shared/api/index.ts';
import { recordAudit } from './record.ts';
import { verifyAuditChain } from './verify.ts';

let t: TestApp;
let superToken: string;
let admin: string;
let care: string;
let customer: string;
let adminId: number;
let superId: number;

/** A stored entry as the tests read it: the view's fields plus the chain's two hashes. */
type Entry = Omit<AuditEntry, 'changes'> & {
  changes: Record<string, unknown>;
  prev_hash: string;
  hash: string;
};

beforeAll(async () => {
  t = await createTestApp();
  superToken = await t.login(DEMO.super);
  admin = await t.login(DEMO.admin);
  care = await t.login(DEMO.care);
  customer = await t.login(DEMO.customer);
  adminId = await userIdOf(t, DEMO.admin);
  superId = await userIdOf(t, DEMO.super);
});
afterAll(() => t?.close());

async function lastId(): Promise<number> {
  const result = await t.database.pool.query('select coalesce(max(id), 0) as id from audit_log');
  return Number(result.rows[0].id);
}

async function entriesAfter(id: number): Promise<Entry[]> {
  const result = await t.database.pool.query('select * from audit_log where id > $1 order by id', [id]);
  return result.rows.map((row) => ({
    ...row,
    id: Number(row.id),
    actor_user_id: row.actor_user_id === null ? null : Number(row.actor_user_id),
    entity_id: row.entity_id === null ? null : Number(row.entity_id),
  }));
}

/** Runs `act` and answers the one entry it wrote (fails when it wrote none or several). */
async function onlyEntryOf(act: () => Promise<unknown>): Promise<Entry> {
  const before = await lastId();
  await act();
  const written = await entriesAfter(before);
  expect(written.map((entry) => entry.action)).toHaveLength(1);
  return written[0] as Entry;
}

/** Runs `act` and checks that it wrote nothing to the audit trail. */
async function nothingWrittenBy(act: () => Promise<unknown>): Promise<void> {
  const before = await lastId();
  await act();
  expect(await entriesAfter(before)).toEqual([]);
}

const byAdmin = () => ({ actor_user_id: adminId, actor_email: DEMO.admin, actor_role: 'ADMIN' });

function expectOk(response: { statusCode: number; body: string }, status = 200): void {
  expect(response.statusCode, response.body).toBe(status);
}

async function smallPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage();
  return document.save();
}

describe('login, failed login, logout and profile', () => {
  it('records a login with the user as actor and the client address, without the token', async () => {
    let token = '';
    const entry = await onlyEntryOf(async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'x-forwarded-for': '203.0.113.7' },
        ...formBody({ email: DEMO.admin, password: DEMO_PASSWORD }),
      });
      expectOk(response);
      token = response.json().data.token;
    });
    expect(entry).toMatchObject({
      ...byAdmin(),
      action: 'login',
      entity_type: 'user',
      entity_id: adminId,
      changes: {},
      client_address: '203.0.113.7',
    });
    expect(JSON.stringify(entry)).not.toContain(token);
  });

  it('records a failed login: under the user for a known email, with no actor for an unknown one', async () => {
    const wrong = await onlyEntryOf(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'x-forwarded-for': '203.0.113.8' },
        ...formBody({ email: DEMO.care, password: 'not-the-password' }),
      }),
    );
    expect(wrong).toMatchObject({
      actor_user_id: await userIdOf(t, DEMO.care),
      actor_email: DEMO.care,
      actor_role: 'CUSTOMER_CARE',
      action: 'login_failed',
      entity_type: 'user',
      client_address: '203.0.113.8',
      changes: {},
    });
    expect(JSON.stringify(wrong)).not.toContain('not-the-password');

    const unknownEmail = `Nobody-${unique()}@Example.com`;
    const unknown = await onlyEntryOf(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'x-forwarded-for': '203.0.113.9' },
        ...formBody({ email: unknownEmail, password: 'whatever-1' }),
      }),
    );
    expect(unknown).toMatchObject({
      actor_user_id: null,
      actor_email: unknownEmail.toLowerCase(),
      actor_role: null,
      action: 'login_failed',
      entity_id: null,
    });
  });

  it('records nothing for a login refused before any password check (invalid form, throttled)', async () => {
    await nothingWrittenBy(() =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/login', ...formBody({ email: DEMO.admin }) }),
    );
    const email = `throttled-${unique().toLowerCase()}@example.com`;
    // One account from one address: the pair the throttle slows down.
    const address = uniqueClientAddress();
    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'x-forwarded-for': address },
        ...formBody({ email, password: 'wrong-password' }),
      });
    const before = await lastId();
    for (let i = 0; i < t.config.loginMaxFailures; i++) expect((await attempt()).statusCode).toBe(401);
    expect(await entriesAfter(before)).toHaveLength(t.config.loginMaxFailures);
    await nothingWrittenBy(async () => expect((await attempt()).statusCode).toBe(429));
  });

  it('records a logout', async () => {
    const token = await t.login(DEMO.care);
    const entry = await onlyEntryOf(async () =>
      expectOk(await t.as(token, { method: 'POST', url: '/api/v1/auth/logout' })),
    );
    expect(entry).toMatchObject({
      actor_email: DEMO.care,
      actor_role: 'CUSTOMER_CARE',
      action: 'logout',
      entity_type: 'user',
      entity_id: await userIdOf(t, DEMO.care),
    });
  });

  it('records a profile change with old and new values and the password only as changed', async () => {
    const email = `profile-${unique().toLowerCase()}@example.com`;
    const userId = await makeUser(t, await customerIdOf(t, DEMO.customer));
    await t.database.pool.query('update users set email = $1, password_hash = $2 where id = $3', [
      email,
      (await t.database.pool.query('select password_hash from users where email = $1', [DEMO.customer]))
        .rows[0].password_hash,
      userId,
    ]);
    const token = await t.login(email);
    const oldName = (await t.database.pool.query('select name from users where id = $1', [userId])).rows[0]
      .name;
    const entry = await onlyEntryOf(async () =>
      expectOk(
        await t.as(token, {
          method: 'PUT',
          url: '/api/v1/auth/me',
          ...formBody({
            name: 'Renamed Self',
            email,
            current_password: DEMO_PASSWORD,
            new_password: 'another-password-1',
            repeat_new_password: 'another-password-1',
          }),
        }),
      ),
    );
    expect(entry).toMatchObject({
      actor_user_id: userId,
      actor_email: email,
      actor_role: 'CUSTOMER',
      action: 'profile_update',
      entity_type: 'user',
      entity_id: userId,
    });
    expect(entry.changes).toEqual({
      name: { old: oldName, new: 'Renamed Self' },
      password: { redacted: true },
    });
    const hash = (await t.database.pool.query('select password_hash from users where id = $1', [userId]))
      .rows[0].password_hash;
    expect(JSON.stringify(entry)).not.toContain(hash);
    expect(JSON.stringify(entry)).not.toContain('another-password-1');
  });
});

describe('customers', () => {
  it('records a create with every set field as new', async () => {
    let id = 0;
    const entry = await onlyEntryOf(async () => {
      const response = await t.as(admin, {
        method: 'POST',
        url: '/api/v1/customers',
        ...formBody({ name: 'Audit Clinic', country: 'it', city: 'Pavia' }),
      });
      expectOk(response, 201);
      id = response.json().data.id;
    });
    expect(entry).toMatchObject({ ...byAdmin(), action: 'create', entity_type: 'customer', entity_id: id });
    expect(entry.changes).toEqual({
      name: { old: null, new: 'Audit Clinic' },
      country: { old: null, new: 'IT' },
      city: { old: null, new: 'Pavia' },
      enable_blockchain: { old: null, new: false },
    });
  });

  it('records an update (enable_blockchain included) with only the changed fields', async () => {
    const id = await makeCustomer(t);
    await t.database.pool.query(`update customers set phone = '111' where id = $1`, [id]);
    const entry = await onlyEntryOf(async () =>
      expectOk(
        await t.as(superToken, {
          method: 'PATCH',
          url: `/api/v1/customers/${id}`,
          ...formBody({ phone: '222', enable_blockchain: '1', country: 'IT' }),
        }),
      ),
    );
    expect(entry).toMatchObject({
      actor_user_id: superId,
      actor_email: DEMO.super,
      actor_role: 'SUPER_ADMIN',
      action: 'update',
      entity_type: 'customer',
      entity_id: id,
    });
    expect(entry.changes).toEqual({
      phone: { old: '111', new: '222' },
      enable_blockchain: { old: false, new: true },
    });
  });

  it('records nothing for an update that changes nothing, or one that is refused', async () => {
    const id = await makeCustomer(t, { name: 'Unchanged Clinic' });
    const patch = (token: string, fields: Record<string, string>) =>
      t.as(token, { method: 'PATCH', url: `/api/v1/customers/${id}`, ...formBody(fields) });
    await nothingWrittenBy(async () => expectOk(await patch(admin, { name: 'Unchanged Clinic' })));
    await nothingWrittenBy(async () =>
      expect((await patch(care, { name: 'Care may not' })).statusCode).toBe(403),
    );
    await nothingWrittenBy(async () => expect((await patch(admin, { country: 'ITA' })).statusCode).toBe(422));
    await nothingWrittenBy(async () =>
      expect(
        (await t.as(admin, { method: 'PATCH', url: '/api/v1/customers/987654', ...formBody({ phone: '1' }) }))
          .statusCode,
      ).toBe(404),
    );
    await nothingWrittenBy(async () =>
      expect((await patch(customer, { name: 'Mine' })).statusCode).toBe(403),
    );
  });
});

describe('users', () => {
  const base = () => `/api/v1/customers/${CLINIC}/users`;
  let CLINIC = 0;
  beforeAll(async () => {
    CLINIC = await makeCustomer(t);
  });

  it('records a create with the password only as set, never its hash', async () => {
    const email = `new-${unique().toLowerCase()}@example.com`;
    let id = 0;
    const entry = await onlyEntryOf(async () => {
      const response = await t.as(admin, {
        method: 'POST',
        url: base(),
        ...formBody({
          name: 'New Person',
          email,
          new_password: 'password-123',
          repeat_new_password: 'password-123',
        }),
      });
      expectOk(response, 201);
      id = response.json().data.id;
    });
    expect(entry).toMatchObject({ ...byAdmin(), action: 'create', entity_type: 'user', entity_id: id });
    expect(entry.changes).toEqual({
      customer_id: { old: null, new: CLINIC },
      name: { old: null, new: 'New Person' },
      email: { old: null, new: email },
      role: { old: null, new: 'CUSTOMER' },
      password: { redacted: true },
    });
    const hash = (await t.database.pool.query('select password_hash from users where id = $1', [id])).rows[0]
      .password_hash;
    expect(JSON.stringify(entry)).not.toContain(hash);
    expect(JSON.stringify(entry)).not.toContain('password-123');
  });

  it('records an update, a password change, a disable and an enable, one entry each', async () => {
    const id = await makeUser(t, CLINIC);
    const url = `${base()}/${id}`;
    const { name: oldName } = (await t.database.pool.query('select name from users where id = $1', [id]))
      .rows[0];

    const renamed = await onlyEntryOf(async () =>
      expectOk(await t.as(admin, { method: 'PATCH', url, ...formBody({ name: 'Renamed User' }) })),
    );
    expect(renamed).toMatchObject({ ...byAdmin(), action: 'update', entity_type: 'user', entity_id: id });
    expect(renamed.changes).toEqual({ name: { old: oldName, new: 'Renamed User' } });

    const password = await onlyEntryOf(async () =>
      expectOk(
        await t.as(admin, {
          method: 'PATCH',
          url,
          ...formBody({ new_password: 'secret-pass-9', repeat_new_password: 'secret-pass-9' }),
        }),
      ),
    );
    expect(password).toMatchObject({ action: 'password_change', entity_id: id });
    expect(password.changes).toEqual({ password: { redacted: true } });
    expect(JSON.stringify(password)).not.toContain('secret-pass-9');

    const disabled = await onlyEntryOf(async () => expectOk(await t.as(admin, { method: 'DELETE', url })));
    expect(disabled).toMatchObject({ ...byAdmin(), action: 'disable', entity_id: id });
    const deletedAt = (disabled.changes.deleted_at as { new: string }).new;
    expect(disabled.changes).toEqual({ deleted_at: { old: null, new: deletedAt } });
    expect(new Date(deletedAt).toISOString()).toBe(deletedAt);

    const enabled = await onlyEntryOf(async () =>
      expectOk(await t.as(admin, { method: 'POST', url: `${url}/undelete` })),
    );
    expect(enabled).toMatchObject({ action: 'enable', entity_id: id });
    expect(enabled.changes).toEqual({ deleted_at: { old: deletedAt, new: null } });
  });

  it('records nothing for a refused user write', async () => {
    const id = await makeUser(t, CLINIC);
    await nothingWrittenBy(async () =>
      expect(
        (await t.as(care, { method: 'PATCH', url: `${base()}/${id}`, ...formBody({ name: 'No' }) }))
          .statusCode,
      ).toBe(403),
    );
    await nothingWrittenBy(async () =>
      expect(
        (await t.as(admin, { method: 'POST', url: base(), ...formBody({ name: 'No email' }) })).statusCode,
      ).toBe(422),
    );
    await nothingWrittenBy(async () =>
      expect(
        (await t.as(admin, { method: 'DELETE', url: `/api/v1/customers/1/users/${adminId}` })).statusCode,
      ).toBe(403),
    );
  });
});

describe('devices', () => {
  let clinic = 0;
  let other = 0;
  beforeAll(async () => {
    clinic = await makeCustomer(t);
    other = await makeCustomer(t);
  });

  it('records a create, an update, a key change and a reassignment, one entry each', async () => {
    const product = await productId(t);
    const serial = `A${unique()}Z`;
    let id = 0;
    const created = await onlyEntryOf(async () => {
      const response = await t.as(admin, {
        method: 'POST',
        url: `/api/v1/customers/${clinic}/devices`,
        ...formBody({ device_serial: serial, label: 'Audit device', product_id: String(product) }),
      });
      expectOk(response, 201);
      id = response.json().data.id;
    });
    expect(created).toMatchObject({ ...byAdmin(), action: 'create', entity_type: 'device', entity_id: id });
    expect(created.changes).toEqual({
      customer_id: { old: null, new: clinic },
      product_id: { old: null, new: product },
      device_serial: { old: null, new: serial },
      label: { old: null, new: 'Audit device' },
    });

    const url = `/api/v1/customers/${clinic}/devices/${id}`;
    const relabelled = await onlyEntryOf(async () =>
      expectOk(await t.as(admin, { method: 'PATCH', url, ...formBody({ label: 'Relabelled' }) })),
    );
    expect(relabelled).toMatchObject({ action: 'update', entity_id: id });
    expect(relabelled.changes).toEqual({ label: { old: 'Audit device', new: 'Relabelled' } });

    const key = rsaPublicKeyPem();
    const keyed = await onlyEntryOf(async () =>
      expectOk(
        await t.as(superToken, { method: 'PATCH', url, ...formBody({ public_key: key, label: 'Keyed' }) }),
      ),
    );
    const stored = (await t.database.pool.query('select public_key from devices where id = $1', [id])).rows[0]
      .public_key;
    expect(keyed).toMatchObject({ actor_role: 'SUPER_ADMIN', action: 'key_change', entity_id: id });
    expect(keyed.changes).toEqual({
      label: { old: 'Relabelled', new: 'Keyed' },
      public_key: { old: null, new: stored },
    });

    const moved = await onlyEntryOf(async () =>
      expectOk(await t.as(admin, { method: 'POST', url: `/api/v1/device/${id}/assign-to/${other}` })),
    );
    expect(moved).toMatchObject({ ...byAdmin(), action: 'reassign', entity_type: 'device', entity_id: id });
    expect(moved.changes).toEqual({ customer_id: { old: clinic, new: other } });
  });

  it('records nothing for a refused device write', async () => {
    const id = await makeDevice(t, clinic);
    const url = `/api/v1/customers/${clinic}/devices/${id}`;
    await nothingWrittenBy(async () =>
      expect(
        (await t.as(admin, { method: 'PATCH', url, ...formBody({ public_key: rsaPublicKeyPem() }) }))
          .statusCode,
      ).toBe(403),
    );
    await nothingWrittenBy(async () =>
      expect(
        (await t.as(admin, { method: 'POST', url: `/api/v1/device/${id}/assign-to/${clinic}` })).statusCode,
      ).toBe(422),
    );
  });
});

describe('certificates', () => {
  it('records an upload with the Italian file digest, and a delete with the old values', async () => {
    const pdf = await smallPdf();
    const lot = `L${unique()}`;
    const form = new FormData();
    form.append('lot_number', lot);
    form.append('validated_treatment_number', 'T77');
    form.append('expiration_date', '2027-05-31');
    form.append('italian_file', new Blob([pdf as BlobPart], { type: 'application/pdf' }), 'cert.pdf');
    let id = 0;
    const uploaded = await onlyEntryOf(async () => {
      const response = await t.as(admin, { method: 'POST', url: '/api/v1/certificates', payload: form });
      expectOk(response, 201);
      id = response.json().data.id;
    });
    const fields = {
      lot_number: lot,
      validated_treatment_number: 'T77',
      expiration_date: '2027-05-31',
      it_file_name: 'cert.pdf',
      it_file_sha256: createHash('sha256').update(pdf).digest('hex'),
      en_file_name: `quality_control_checklist_${lot}_T77.pdf`,
    };
    expect(uploaded).toMatchObject({
      ...byAdmin(),
      action: 'upload',
      entity_type: 'certificate',
      entity_id: id,
    });
    expect(uploaded.changes).toEqual(
      Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, { old: null, new: value }])),
    );

    await nothingWrittenBy(async () =>
      expect((await t.as(care, { method: 'DELETE', url: `/api/v1/certificates/${id}` })).statusCode).toBe(
        403,
      ),
    );
    const deleted = await onlyEntryOf(async () =>
      expectOk(await t.as(admin, { method: 'DELETE', url: `/api/v1/certificates/${id}` })),
    );
    expect(deleted).toMatchObject({ action: 'delete', entity_type: 'certificate', entity_id: id });
    expect(deleted.changes).toEqual(
      Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, { old: value, new: null }])),
    );
    await nothingWrittenBy(async () =>
      expect((await t.as(admin, { method: 'DELETE', url: `/api/v1/certificates/${id}` })).statusCode).toBe(
        404,
      ),
    );
  });
});

describe('GET /audit', () => {
  it('is for SUPER_ADMIN and ADMIN only', async () => {
    for (const token of [superToken, admin])
      expectContract('listAudit', await t.as(token, { method: 'GET', url: '/api/v1/audit' }), 200);
    for (const token of [care, customer])
      expectContract('listAudit', await t.as(token, { method: 'GET', url: '/api/v1/audit' }), 403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/audit' })).statusCode).toBe(401);
  });

  it('pages newest first and filters by entity, actor and days', async () => {
    const id = await makeCustomer(t);
    for (const phone of ['1', '2', '3']) {
      expectOk(
        await t.as(admin, { method: 'PATCH', url: `/api/v1/customers/${id}`, ...formBody({ phone }) }),
      );
    }
    const list = async (query: string) => {
      const response = await t.as(admin, { method: 'GET', url: `/api/v1/audit?${query}` });
      expectContract('listAudit', response, 200);
      return response.json().data as { data: Entry[]; total: number; per_page: number; page: number };
    };

    const history = await list(`entityType=customer&entityId=${id}`);
    expect(history.total).toBe(3);
    expect(history.data.map((entry) => entry.changes.phone)).toEqual([
      { old: '2', new: '3' },
      { old: '1', new: '2' },
      { old: null, new: '1' },
    ]);

    expect((await list(`entityType=customer&entityId=${id}&actor=${adminId}`)).total).toBe(3);
    expect((await list(`entityType=customer&entityId=${id}&actor=ADMIN@EXAMPLE`)).total).toBe(3);
    expect((await list(`entityType=customer&entityId=${id}&actor=${superId}`)).total).toBe(0);
    expect((await list(`entityType=customer&entityId=${id}&actor=%25`)).total).toBe(0);

    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`entityType=customer&entityId=${id}&from=${today}&to=${today}`)).total).toBe(3);
    expect((await list(`entityType=customer&entityId=${id}&to=2020-01-01`)).total).toBe(0);

    const all = await list('');
    expect(all.per_page).toBe(PER_PAGE);
    expect(all.data).toHaveLength(PER_PAGE);
    const ids = all.data.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const second = await list('page=2');
    expect(second.data[0]?.id).toBeLessThan(ids.at(-1) ?? 0);

    expectContract(
      'listAudit',
      await t.as(admin, { method: 'GET', url: '/api/v1/audit?entityType=sterilization' }),
      422,
    );
  });

  it("names each entry's entity as it is called now, with the customer it belongs to", async () => {
    const list = async (query: string) => {
      const response = await t.as(admin, { method: 'GET', url: `/api/v1/audit?${query}` });
      expectContract('listAudit', response, 200);
      return (response.json().data as { data: AuditEntry[] }).data;
    };
    // The fixtures write their rows directly: an edit makes each one's first entry.
    const customer = await makeCustomer(t);
    expectOk(
      await t.as(admin, {
        method: 'PATCH',
        url: `/api/v1/customers/${customer}`,
        ...formBody({ phone: '1' }),
      }),
    );
    const [customerEntry] = await list(`entityType=customer&entityId=${customer}`);
    const { rows } = await t.database.pool.query('select name from customers where id = $1', [customer]);
    expect(customerEntry).toMatchObject({ entity_name: rows[0].name, entity_customer_id: customer });

    const device = await makeDevice(t, customer);
    const serial = (await t.database.pool.query('select device_serial from devices where id = $1', [device]))
      .rows[0].device_serial;
    expectOk(
      await t.as(admin, {
        method: 'PATCH',
        url: `/api/v1/customers/${customer}/devices/${device}`,
        ...formBody({ label: 'Named' }),
      }),
    );
    const [deviceEntry] = await list(`entityType=device&entityId=${device}`);
    expect(deviceEntry).toMatchObject({ entity_name: serial, entity_customer_id: customer });
    // A rename shows in every entry about it, the older ones too.
    expectOk(
      await t.as(admin, {
        method: 'PATCH',
        url: `/api/v1/customers/${customer}`,
        ...formBody({ name: `Renamed ${unique()}` }),
      }),
    );
    const renamed = await list(`entityType=customer&entityId=${customer}`);
    expect(new Set(renamed.map((entry) => entry.entity_name)).size).toBe(1);
    expect(renamed[0]!.entity_name).toMatch(/^Renamed /);

    // An entity that is gone is named by nothing (the view falls back to its number).
    await t.database.db.transaction((tx) =>
      recordAudit(tx, {
        actor: { id: adminId, email: DEMO.admin, role: 'ADMIN' },
        action: 'delete',
        entityType: 'certificate',
        entityId: 2_000_000_000,
        changes: {},
        clientAddress: null,
      }),
    );
    const [gone] = await list('entityType=certificate&entityId=2000000000');
    expect(gone).toMatchObject({ entity_name: null, entity_customer_id: null });
  });
});

describe('the table and the chain', () => {
  it('refuses UPDATE, DELETE and TRUNCATE, even of no row', async () => {
    for (const statement of [
      `update audit_log set reason = 'edited'`,
      'update audit_log set reason = null where false',
      'delete from audit_log',
      'truncate audit_log',
    ]) {
      await expect(t.database.pool.query(statement), statement).rejects.toThrow(/append-only/);
    }
  });

  it('is one unbroken chain after everything above, with no secret anywhere in it', async () => {
    const report = await verifyAuditChain(t.database.db);
    expect(report).toMatchObject({ ok: true });
    const { rows } = await t.database.pool.query('select count(*)::int as n from audit_log');
    expect(report.count).toBe(rows[0].n);
    const trail = JSON.stringify((await t.database.pool.query('select * from audit_log')).rows);
    // Fixture users have a one-letter placeholder hash: only real hashes are worth looking for.
    const secrets = await t.database.pool.query(`
      select password_hash as secret from users where length(password_hash) >= 32
      union all select token_hash from sessions`);
    for (const { secret } of secrets.rows) expect(trail).not.toContain(secret);
    for (const token of [superToken, admin, care, customer]) expect(trail).not.toContain(token);
  });

  it('stays one chain under concurrent writers', async () => {
    const before = await lastId();
    const customers = await Promise.all([1, 2, 3, 4].map(() => makeCustomer(t)));
    const requests = customers.flatMap((id, index) =>
      ['a', 'b', 'c'].map((suffix) =>
        t.as(index % 2 === 0 ? admin : superToken, {
          method: 'PATCH',
          url: `/api/v1/customers/${id}`,
          ...formBody({ referrer: `${suffix}-${id}` }),
        }),
      ),
    );
    const direct = Array.from({ length: 12 }, (_, index) =>
      t.database.db.transaction((tx) =>
        recordAudit(tx, {
          actor: { id: null, email: null, role: null },
          action: 'update',
          entityType: 'customer',
          entityId: customers[index % customers.length] ?? null,
          changes: { note: { old: null, new: index } },
          clientAddress: null,
        }),
      ),
    );
    const responses = await Promise.all([...requests, ...direct]);
    for (const response of responses.slice(0, requests.length))
      expectOk(response as { statusCode: number; body: string });
    expect(await entriesAfter(before)).toHaveLength(requests.length + direct.length);
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: true });
  });

  it('detects an altered and a removed entry (triggers disabled by the owner to tamper)', async () => {
    const entries = await entriesAfter(0);
    const target = entries.at(-5) as Entry;
    const next = entries.at(-4) as Entry;
    const pool = t.database.pool;
    const tamper = async (statement: string, values: unknown[]) => {
      await pool.query('alter table audit_log disable trigger audit_log_append_only');
      try {
        await pool.query(statement, values);
      } finally {
        await pool.query('alter table audit_log enable trigger audit_log_append_only');
      }
    };

    await tamper(`update audit_log set client_address = '10.6.6.6' where id = $1`, [target.id]);
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: false, brokenId: target.id });
    await tamper('update audit_log set client_address = $2 where id = $1', [
      target.id,
      target.client_address,
    ]);
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: true });

    const row = (await pool.query('select * from audit_log where id = $1', [target.id])).rows[0];
    await tamper('delete from audit_log where id = $1', [target.id]);
    const broken = await verifyAuditChain(t.database.db);
    expect(broken).toMatchObject({ ok: false, brokenId: next.id });
    const columns = Object.keys(row);
    await tamper(
      `insert into audit_log (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      columns.map((column) => (column === 'changes' ? JSON.stringify(row[column]) : row[column])),
    );
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ ok: true });
  });
});
