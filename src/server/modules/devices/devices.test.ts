import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PER_PAGE } from '#server/http/paging.ts';
import {
  makeCustomer,
  makeDevice,
  productId,
  rsaPublicKeyPem,
  snapshot,
  unique,
} from '#server/test/fixtures.ts';
import { expectPageFrame, idsInOrder } from '#server/test/paging.ts';
import { expectContract, expectExactKeys } from '#server/test/response-checks.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
let superAdmin: string;
let admin: string;
let clinic: number;
let plug: number;
let bath: number;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await t.login(DEMO.super);
  admin = await t.login(DEMO.admin);
  clinic = await makeCustomer(t, { name: 'Devices clinic' });
  plug = await productId(t, 1);
  bath = await productId(t, 2);
  keyA = rsaPublicKeyPem();
  keyB = rsaPublicKeyPem();
  await t.database.pool.query(
    `insert into devices (customer_id, product_id, device_serial, label, deleted_at)
     select $1, case when n % 3 = 0 then $2::int else $3::int end, 'ZQ' || lpad(n::text, 6, '0'),
       case when n % 2 = 0 then 'paging device ' else 'Paging Device ' end || lpad((50 - n)::text, 3, '0'),
       case when n % 9 = 0 then now() - n * interval '1 minute' end
     from generate_series(1, 45) as n`,
    [clinic, bath, plug],
  );
  await t.database.pool.query(
    `insert into products (name, type, deleted_at)
     select 'Paging product ' || lpad(n::text, 3, '0'), 1 + n % 2, case when n % 4 = 0 then now() end
     from generate_series(1, 25) as n`,
  );
});
afterAll(() => t?.close());

const serial = () => `D${unique()}Q`;
const createDevice = (token: string, customerId: number, fields: Record<string, string>) =>
  t.as(token, { method: 'POST', url: `/api/v1/customers/${customerId}/devices`, ...formBody(fields) });
const updateDevice = (token: string, customerId: number, deviceId: number, fields: Record<string, string>) =>
  t.as(token, {
    method: 'PATCH',
    url: `/api/v1/customers/${customerId}/devices/${deviceId}`,
    ...formBody(fields),
  });
const deviceRow = async (id: number) =>
  (await t.database.pool.query('select * from devices where id = $1', [id])).rows[0];

describe('GET /devices', () => {
  const expectedIds = (orderBy: string, offset: number) =>
    idsInOrder(t, 'select d.id from devices d', orderBy, offset);
  const ids = async (query: string) =>
    (await t.as(admin, { method: 'GET', url: `/api/v1/devices?${query}` }))
      .json()
      .data.data.map((row: { id: number }) => row.id);

  it('pages by label with the customer name and the product type', async () => {
    const total = Number((await t.database.pool.query('select count(*) as n from devices')).rows[0].n);
    for (const page of [1, 2, 3]) {
      const response = await t.as(admin, { method: 'GET', url: `/api/v1/devices?page=${page}` });
      expectContract('listDevices', response, 200);
      const body = response.json().data;
      expectPageFrame(body, total, page);
      expect(body.data.map((row: { id: number }) => row.id)).toEqual(
        await expectedIds('lower(d.label), d.id', (page - 1) * PER_PAGE),
      );
      for (const row of body.data) {
        expectExactKeys(row, 'Device');
        expect(row.product_type).toBe(row.product.type === 2 ? 'bath' : 'plug');
      }
    }
    const row = (
      await t.as(admin, { method: 'GET', url: '/api/v1/devices?sortBy=device_serial&sortDir=desc' })
    ).json().data.data;
    expect(row.map((item: { id: number }) => item.id)).toEqual(
      await expectedIds('d.device_serial desc, d.id desc', 0),
    );
  });

  it('sorts by serial and by active both ways', async () => {
    expect(await ids('sortBy=device_serial')).toEqual(await expectedIds('d.device_serial, d.id', 0));
    expect(await ids('sortBy=active')).toEqual(
      await expectedIds('d.deleted_at asc nulls last, lower(d.label), d.id', 0),
    );
    expect(await ids('sortBy=active&sortDir=desc')).toEqual(
      await expectedIds('d.deleted_at desc nulls first, lower(d.label) desc, d.id desc', 0),
    );
    expect(await ids('sortDir=desc&page=2')).toEqual(
      await expectedIds('lower(d.label) desc, d.id desc', PER_PAGE),
    );
  });
});

describe('GET /products', () => {
  const expectedIds = (orderBy: string) => idsInOrder(t, 'select p.id from products p', orderBy);
  it('pages and sorts products by name, type and active', async () => {
    const total = Number((await t.database.pool.query('select count(*) as n from products')).rows[0].n);
    const response = await t.as(admin, { method: 'GET', url: '/api/v1/products' });
    expectContract('listProducts', response, 200);
    const body = response.json().data;
    expectPageFrame(body, total, 1);
    for (const row of body.data) expectExactKeys(row, 'Product');
    expect(body.data.map((row: { id: number }) => row.id)).toEqual(await expectedIds('lower(p.name), p.id'));
    for (const [query, order] of [
      ['sortBy=type', 'p.type, lower(p.name), p.id'],
      ['sortBy=type&sortDir=desc', 'p.type desc, lower(p.name) desc, p.id desc'],
      ['sortBy=active', 'p.deleted_at asc nulls last, lower(p.name), p.id'],
      ['sortBy=name&sortDir=desc', 'lower(p.name) desc, p.id desc'],
    ] as const) {
      const rows = (await t.as(superAdmin, { method: 'GET', url: `/api/v1/products?${query}` })).json().data
        .data;
      expect([query, rows.map((row: { id: number }) => row.id)]).toEqual([query, await expectedIds(order)]);
    }
  });
});

describe('GET /customers/{id}/devices', () => {
  it('lists the devices of the customer by label', async () => {
    const response = await t.as(admin, { method: 'GET', url: `/api/v1/customers/${clinic}/devices` });
    expectContract('listCustomerDevices', response, 200);
    const expected = await t.database.pool.query(
      'select id from devices where customer_id = $1 order by lower(label), id',
      [clinic],
    );
    expect(response.json().data.map((row: { id: number }) => row.id)).toEqual(
      expected.rows.map((row) => Number(row.id)),
    );
  });
});

describe('POST /customers/{id}/devices', () => {
  it('registers a device with keys for a SUPER_ADMIN', async () => {
    const newSerial = serial();
    const response = await createDevice(superAdmin, clinic, {
      device_serial: ` ${newSerial} `,
      label: ' Chair 1 ',
      product_id: String(bath),
      public_key: keyA.replace(/\n/g, '\r\n'),
      public_key_2: keyB,
    });
    expectContract('createCustomerDevice', response, 201);
    expectExactKeys(response.json().data, 'Device');
    expect(response.json().message).toBe('devices.created');
    expect(response.json().data).toMatchObject({
      customer_id: clinic,
      device_serial: newSerial,
      label: 'Chair 1',
      product_id: bath,
      product: { type: 2 },
      product_type: 'bath',
      public_key: keyA.trim(),
      public_key_2: keyB.trim(),
      customer: { name: 'Devices clinic' },
      deleted_at: null,
    });
  });

  it('registers a device without keys for an ADMIN but refuses one with keys', async () => {
    const created = await createDevice(admin, clinic, {
      device_serial: serial(),
      label: 'Bath',
      product_id: String(plug),
    });
    expectContract('createCustomerDevice', created, 201);
    expect(created.json().data).toMatchObject({ public_key: null, public_key_2: null, product_type: 'plug' });
    const before = await snapshot(t);
    for (const field of ['public_key', 'public_key_2']) {
      const refused = await createDevice(admin, clinic, {
        device_serial: serial(),
        label: 'Bath',
        product_id: String(plug),
        [field]: keyA,
      });
      expectContract('createCustomerDevice', refused, 403);
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('explains every invalid field with its message id and registers nothing', async () => {
    await t.database.pool.query(
      `insert into products (name, type, deleted_at) values ('Retired plug', 1, now())`,
    );
    const retired = Number(
      (await t.database.pool.query(`select id from products where name = 'Retired plug'`)).rows[0].id,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pkcs1 = pair.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const small = rsaPublicKeyPem(1024);
    const valid = { device_serial: serial(), label: 'Chair', product_id: String(plug) };
    const before = await snapshot(t);
    const cases: [Record<string, string>, Record<string, string[]>][] = [
      [
        {},
        {
          device_serial: ['validation.device.serial.length'],
          label: ['validation.device.label.required'],
          product_id: ['validation.device.product.required'],
        },
      ],
      [{ ...valid, device_serial: '1234567' }, { device_serial: ['validation.device.serial.length'] }],
      [{ ...valid, device_serial: '123456789' }, { device_serial: ['validation.device.serial.length'] }],
      [{ ...valid, device_serial: 'ZQ000001' }, { device_serial: ['validation.device.serial.taken'] }],
      [{ ...valid, label: '   ' }, { label: ['validation.device.label.required'] }],
      [{ ...valid, device_serial: 'A\r\nBcc:x' }, { device_serial: ['validation.device.serial.characters'] }],
      [{ ...valid, device_serial: '<b>X</b>' }, { device_serial: ['validation.device.serial.characters'] }],
      [{ ...valid, device_serial: 'AB CD EF' }, { device_serial: ['validation.device.serial.characters'] }],
      [{ ...valid, label: 'Chair\r\nBcc: x' }, { label: ['validation.name.control_characters'] }],
      [{ ...valid, product_id: 'plug' }, { product_id: ['validation.device.product.required'] }],
      [{ ...valid, product_id: '987654' }, { product_id: ['validation.device.product.required'] }],
      [{ ...valid, product_id: '99999999999999' }, { product_id: ['validation.device.product.required'] }],
      [{ ...valid, product_id: String(retired) }, { product_id: ['validation.device.product.required'] }],
      [{ ...valid, public_key: 'not a key' }, { public_key: ['validation.device.public_key.invalid'] }],
      [{ ...valid, public_key: ec }, { public_key: ['validation.device.public_key.invalid'] }],
      [{ ...valid, public_key: pkcs1 }, { public_key: ['validation.device.public_key.invalid'] }],
      [{ ...valid, public_key: privatePem }, { public_key: ['validation.device.public_key.invalid'] }],
      [{ ...valid, public_key_2: small }, { public_key_2: ['validation.device.public_key.invalid'] }],
    ];
    for (const [fields, errors] of cases) {
      const response = await createDevice(superAdmin, clinic, fields);
      expectContract('createCustomerDevice', response, 422);
      expect([fields.device_serial, response.json().data]).toEqual([fields.device_serial, errors]);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('PATCH /customers/{id}/devices/{deviceId}', () => {
  it('lets an ADMIN edit serial, label and product, sending the stored key back unchanged', async () => {
    const id = await makeDevice(t, clinic, keyA.trim());
    const newSerial = serial();
    const response = await updateDevice(admin, clinic, id, {
      device_serial: newSerial,
      label: ' Moved chair ',
      product_id: String(bath),
      // The same key, re-wrapped with CRLF line ends: no change.
      public_key: `${keyA.replace(/\n/g, '\r\n')}\r\n`,
      public_key_2: '',
    });
    expectContract('updateCustomerDevice', response, 200);
    expect(response.json().message).toBe('devices.updated');
    expect(response.json().data).toMatchObject({
      device_serial: newSerial,
      label: 'Moved chair',
      product_id: bath,
      product_type: 'bath',
      public_key: keyA.trim(),
      public_key_2: null,
    });
  });

  it('refuses an ADMIN request that changes or sets a key, and changes nothing at all', async () => {
    const id = await makeDevice(t, clinic, keyA.trim());
    const before = await deviceRow(id);
    const attempts: Record<string, string>[] = [
      { label: 'Should not stick', public_key: keyB },
      { label: 'Should not stick', public_key_2: keyB },
      { public_key: 'garbage' },
    ];
    for (const fields of attempts) {
      const response = await updateDevice(admin, clinic, id, fields);
      expectContract('updateCustomerDevice', response, 403);
    }
    expect(await deviceRow(id)).toEqual(before);
  });

  it('lets a SUPER_ADMIN change keys; an absent key stays', async () => {
    const id = await makeDevice(t, clinic, keyA.trim());
    const response = await updateDevice(superAdmin, clinic, id, { public_key_2: keyB });
    expectContract('updateCustomerDevice', response, 200);
    expect(response.json().data).toMatchObject({ public_key: keyA.trim(), public_key_2: keyB.trim() });
    const invalid = await updateDevice(superAdmin, clinic, id, { public_key: 'garbage', label: 'x' });
    expect(invalid.json()).toMatchObject({
      message: 'validation_error',
      data: { public_key: ['validation.device.public_key.invalid'] },
    });
  });

  it('checks serial, label and product on update and changes nothing when invalid', async () => {
    const id = await makeDevice(t, clinic);
    const before = await deviceRow(id);
    for (const [fields, errors] of [
      [{ device_serial: 'ZQ000002' }, { device_serial: ['validation.device.serial.taken'] }],
      [{ device_serial: 'SHORT' }, { device_serial: ['validation.device.serial.length'] }],
      [{ device_serial: '<b>X</b>' }, { device_serial: ['validation.device.serial.characters'] }],
      [{ label: 'Chair\nBcc: x' }, { label: ['validation.name.control_characters'] }],
      [{ product_id: '987654' }, { product_id: ['validation.device.product.required'] }],
    ] as const) {
      const response = await updateDevice(admin, clinic, id, fields);
      expectContract('updateCustomerDevice', response, 422);
      expect(response.json().data).toEqual(errors);
    }
    expect(await deviceRow(id)).toEqual(before);
    const same = await updateDevice(admin, clinic, id, {
      device_serial: before.device_serial,
      label: before.label,
    });
    expect(same.statusCode).toBe(200);
  });
});

describe('POST /device/{deviceId}/assign-to/{customerId}', () => {
  const assign = (token: string, deviceId: number, customerId: number) =>
    t.as(token, { method: 'POST', url: `/api/v1/device/${deviceId}/assign-to/${customerId}` });

  it('moves the device to another active customer', async () => {
    const id = await makeDevice(t, clinic);
    const target = await makeCustomer(t, { name: 'Target clinic' });
    const response = await assign(admin, id, target);
    expectContract('assignDeviceToCustomer', response, 200);
    expect(response.json()).toMatchObject({
      message: 'devices.assigned',
      data: { id, customer_id: target, customer: { name: 'Target clinic' } },
    });
    expect(
      (await t.as(admin, { method: 'GET', url: `/api/v1/customers/${clinic}/devices/${id}` })).statusCode,
    ).toBe(404);
  });

  it('refuses the same customer, a disabled one and missing ones, changing nothing', async () => {
    const id = await makeDevice(t, clinic);
    const disabled = await makeCustomer(t, { deleted: true });
    const before = await snapshot(t);
    const same = await assign(admin, id, clinic);
    expectContract('assignDeviceToCustomer', same, 422);
    expect(same.json().data).toEqual({ customerId: ['devices.assign.same_customer'] });
    const inactive = await assign(admin, id, disabled);
    expectContract('assignDeviceToCustomer', inactive, 422);
    expect(inactive.json().data).toEqual({ customerId: ['devices.assign.customer_disabled'] });
    expectContract('assignDeviceToCustomer', await assign(admin, id, 987654), 404);
    expectContract('assignDeviceToCustomer', await assign(admin, 987654, clinic), 404);
    expect(await snapshot(t)).toEqual(before);
  });
});
