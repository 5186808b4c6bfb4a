import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCustomer, makeDevice, productId } from '#server/test/fixtures.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '#server/test/test-app.ts';
import { formValues } from './form-operation.ts';

describe('formValues: a form read once', () => {
  it('trims text, drops empty fields, keeps passwords as typed and files, ignores other values', () => {
    const file = { filename: 'a.pdf', mimetype: 'application/pdf', data: Buffer.from('%PDF') };
    const values = formValues(
      { name: '  Clinic  ', city: '   ', password: '  spaced  ', empty: '', list: ['x'], file, count: 3 },
      ['password', 'empty'],
    );
    expect(values).toEqual({ name: 'Clinic', password: '  spaced  ', file });
  });

  it('reads nothing from a body that is not an object', () => {
    expect(formValues(undefined)).toEqual({});
    expect(formValues(['name'])).toEqual({});
    expect(formValues('name=x')).toEqual({});
  });
});

describe('the form pipeline through HTTP', () => {
  let t: TestApp;
  let admin: string;
  let clinicUser: string;
  let customerId: number;
  let takenSerial: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login(DEMO.admin);
    clinicUser = await t.login(DEMO.customer);
    customerId = await makeCustomer(t, { name: 'Form pipeline clinic' });
    const deviceId = await makeDevice(t, customerId);
    const { rows } = await t.database.pool.query<{ device_serial: string }>(
      'select device_serial from devices where id = $1',
      [deviceId],
    );
    takenSerial = rows[0]?.device_serial ?? '';
  });
  afterAll(() => t?.close());

  const customerCount = async () =>
    Number((await t.database.pool.query<{ n: string }>('select count(*) as n from customers')).rows[0]?.n);

  it('answers 403 to a caller without the ability, whatever is wrong with the body, and writes nothing', async () => {
    const before = await customerCount();
    for (const payload of [formBody({ name: '', country: 'not a country' }), { payload: { name: ['x'] } }]) {
      const response = await t.as(clinicUser, { method: 'POST', url: '/api/v1/customers', ...payload });
      expect(response.statusCode).toBe(403);
    }
    expect(await customerCount()).toBe(before);
  });

  it('answers 404 for a record that does not exist before judging the body', async () => {
    const response = await t.as(admin, {
      method: 'PATCH',
      url: `/api/v1/customers/${customerId}/devices/999999`,
      ...formBody({ device_serial: 'x', label: '' }),
    });
    expect(response.statusCode).toBe(404);
  });

  it("lists the schema's and the database's errors in one answer", async () => {
    const response = await t.as(admin, {
      method: 'POST',
      url: `/api/v1/customers/${customerId}/devices`,
      ...formBody({ device_serial: takenSerial, label: '', product_id: String(await productId(t)) }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().data).toEqual({
      device_serial: ['validation.device.serial.taken'],
      label: ['validation.device.label.required'],
    });
  });

  it('hands the handler the trimmed values, and an update changes only the fields it sent', async () => {
    const created = await t.as(admin, {
      method: 'POST',
      url: '/api/v1/customers',
      ...formBody({ name: '  Trimmed clinic  ', country: ' it ', city: '  Pavia ' }),
    });
    expect(created.statusCode).toBe(201);
    const customer = created.json().data as { id: number; name: string; country: string; city: string };
    expect(customer).toMatchObject({ name: 'Trimmed clinic', country: 'IT', city: 'Pavia' });

    const updated = await t.as(admin, {
      method: 'PATCH',
      url: `/api/v1/customers/${customer.id}`,
      ...formBody({ city: ' Milano ', name: '   ' }),
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ name: 'Trimmed clinic', country: 'IT', city: 'Milano' });
  });
});
