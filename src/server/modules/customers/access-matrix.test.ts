/**
 * Every endpoint of the customers/users/devices/products issue × every role × the caller's own
 * customer, another customer, and an object id put under the wrong customer id: the status, the
 * contract's schema for that status, and — for every read and every refusal — that no row changed.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../shared/access/index.ts';
import { createTestApp, DEMO, formBody, type TestApp } from '../../test/test-app.ts';
import {
  customerIdOf,
  expectContract,
  makeCustomer,
  makeDevice,
  makeUser,
  productId,
  snapshot,
  unique,
} from './test-support.ts';

let t: TestApp;
const tokens = {} as Record<Role, string>;
let ownCustomer: number;
let otherCustomer: number;
let spareCustomer: number;

beforeAll(async () => {
  t = await createTestApp();
  tokens.SUPER_ADMIN = await t.login(DEMO.super);
  tokens.ADMIN = await t.login(DEMO.admin);
  tokens.CUSTOMER_CARE = await t.login(DEMO.care);
  tokens.CUSTOMER = await t.login(DEMO.customer);
  ownCustomer = await customerIdOf(t, DEMO.customer);
  otherCustomer = await makeCustomer(t);
  spareCustomer = await makeCustomer(t);
});
afterAll(() => t?.close());

type Tenant = 'own' | 'other' | 'mismatch';
type Expect = Record<Role, number>;
const ROLES: Role[] = ['SUPER_ADMIN', 'ADMIN', 'CUSTOMER_CARE', 'CUSTOMER'];

interface Case {
  operationId: string;
  write: boolean;
  tenants: Tenant[];
  /** Expected status by role; `tenantScoped` reads give the customer 404 outside its own customer. */
  expect: (tenant: Tenant) => Expect;
  request: (customerId: number, tenant: Tenant) => Promise<InjectOptions>;
}

const all = (status: number): Expect => ({
  SUPER_ADMIN: status,
  ADMIN: status,
  CUSTOMER_CARE: status,
  CUSTOMER: status,
});
const managers = (status: number): Expect => ({
  SUPER_ADMIN: status,
  ADMIN: status,
  CUSTOMER_CARE: 403,
  CUSTOMER: 403,
});
const staff = (status: number): Expect => ({ ...all(status), CUSTOMER: 403 });
/** Reads by id: staff see every customer; a customer user only its own, anything else is not found. */
const tenantRead = (tenant: Tenant): Expect =>
  tenant === 'mismatch' ? all(404) : { ...all(200), CUSTOMER: tenant === 'own' ? 200 : 404 };
/** Writes by id: the ability first (403), then the object (404 when under the wrong customer). */
const managerWrite = (status: number) => (tenant: Tenant) => managers(tenant === 'mismatch' ? 404 : status);

/** The object a path names: of the path's customer, or of another one for the mismatch cases. */
const ownerOf = (customerId: number, tenant: Tenant) => (tenant === 'mismatch' ? otherCustomer : customerId);

const userForm = () => {
  const tag = unique().toLowerCase();
  return formBody({
    name: `Matrix ${tag}`,
    email: `matrix-${tag}@example.com`,
    new_password: 'password-1',
    repeat_new_password: 'password-1',
  });
};

const cases: Case[] = [
  {
    operationId: 'listCustomers',
    write: false,
    tenants: ['own'],
    expect: () => staff(200),
    request: async () => ({ method: 'GET', url: '/api/v1/customers' }),
  },
  {
    operationId: 'getCustomerFullList',
    write: false,
    tenants: ['own'],
    expect: () => staff(200),
    request: async () => ({ method: 'GET', url: '/api/v1/customers/full-list' }),
  },
  {
    operationId: 'createCustomer',
    write: true,
    tenants: ['own'],
    expect: () => managers(201),
    request: async () => ({
      method: 'POST',
      url: '/api/v1/customers',
      ...formBody({ name: `New ${unique()}`, country: 'it' }),
    }),
  },
  {
    operationId: 'getCustomer',
    write: false,
    tenants: ['own', 'other'],
    expect: tenantRead,
    request: async (id) => ({ method: 'GET', url: `/api/v1/customers/${id}` }),
  },
  {
    operationId: 'updateCustomer',
    write: true,
    tenants: ['own', 'other'],
    expect: () => managers(200),
    request: async (id) => ({
      method: 'PATCH',
      url: `/api/v1/customers/${id}`,
      ...formBody({ phone: unique() }),
    }),
  },
  {
    operationId: 'listCustomerUsers',
    write: false,
    tenants: ['own', 'other'],
    expect: tenantRead,
    request: async (id) => ({ method: 'GET', url: `/api/v1/customers/${id}/users` }),
  },
  {
    operationId: 'createCustomerUser',
    write: true,
    tenants: ['own', 'other'],
    expect: () => managers(201),
    request: async (id) => ({ method: 'POST', url: `/api/v1/customers/${id}/users`, ...userForm() }),
  },
  {
    operationId: 'getCustomerUser',
    write: false,
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    request: async (id, tenant) => ({
      method: 'GET',
      url: `/api/v1/customers/${id}/users/${await makeUser(t, ownerOf(id, tenant))}`,
    }),
  },
  {
    operationId: 'updateCustomerUser',
    write: true,
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    request: async (id, tenant) => ({
      method: 'PATCH',
      url: `/api/v1/customers/${id}/users/${await makeUser(t, ownerOf(id, tenant))}`,
      ...formBody({ name: `Renamed ${unique()}` }),
    }),
  },
  {
    operationId: 'disableCustomerUser',
    write: true,
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    request: async (id, tenant) => ({
      method: 'DELETE',
      url: `/api/v1/customers/${id}/users/${await makeUser(t, ownerOf(id, tenant))}`,
    }),
  },
  {
    operationId: 'enableCustomerUser',
    write: true,
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    request: async (id, tenant) => {
      const userId = await makeUser(t, ownerOf(id, tenant));
      await t.database.pool.query('update users set deleted_at = now() where id = $1', [userId]);
      return { method: 'POST', url: `/api/v1/customers/${id}/users/${userId}/undelete` };
    },
  },
  {
    operationId: 'listCustomerDevices',
    write: false,
    tenants: ['own', 'other'],
    expect: tenantRead,
    request: async (id) => ({ method: 'GET', url: `/api/v1/customers/${id}/devices` }),
  },
  {
    operationId: 'createCustomerDevice',
    write: true,
    tenants: ['own', 'other'],
    expect: () => managers(201),
    request: async (id) => ({
      method: 'POST',
      url: `/api/v1/customers/${id}/devices`,
      ...formBody({
        device_serial: `M${unique()}Z`,
        label: 'Matrix device',
        product_id: String(await productId(t)),
      }),
    }),
  },
  {
    operationId: 'getCustomerDevice',
    write: false,
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    request: async (id, tenant) => ({
      method: 'GET',
      url: `/api/v1/customers/${id}/devices/${await makeDevice(t, ownerOf(id, tenant))}`,
    }),
  },
  {
    operationId: 'updateCustomerDevice',
    write: true,
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    request: async (id, tenant) => ({
      method: 'PATCH',
      url: `/api/v1/customers/${id}/devices/${await makeDevice(t, ownerOf(id, tenant))}`,
      ...formBody({ label: `Relabelled ${unique()}` }),
    }),
  },
  {
    operationId: 'listUsers',
    write: false,
    tenants: ['own'],
    expect: () => staff(200),
    request: async () => ({ method: 'GET', url: '/api/v1/users' }),
  },
  {
    operationId: 'listProducts',
    write: false,
    tenants: ['own'],
    expect: () => managers(200),
    request: async () => ({ method: 'GET', url: '/api/v1/products' }),
  },
  {
    operationId: 'listDevices',
    write: false,
    tenants: ['own'],
    expect: () => staff(200),
    request: async () => ({ method: 'GET', url: '/api/v1/devices' }),
  },
  {
    operationId: 'assignDeviceToCustomer',
    write: true,
    tenants: ['own', 'other'],
    expect: () => managers(200),
    request: async (id) => ({
      method: 'POST',
      url: `/api/v1/device/${await makeDevice(t, id)}/assign-to/${spareCustomer}`,
    }),
  },
];

describe('access matrix', () => {
  for (const item of cases) {
    for (const tenant of item.tenants) {
      for (const role of ROLES) {
        const status = item.expect(tenant)[role];
        it(`${item.operationId} · ${role} · ${tenant} customer → ${status}`, async () => {
          const customerId = tenant === 'other' ? otherCustomer : ownCustomer;
          const options = await item.request(customerId, tenant);
          const before = await snapshot(t);
          const response = await t.as(tokens[role], options);
          expectContract(item.operationId, response, status);
          if (!item.write || status >= 400) expect(await snapshot(t)).toEqual(before);
          else expect(await snapshot(t)).not.toEqual(before);
        });
      }
    }
  }

  it('covers every operation of the issue', () => {
    expect(cases.map((item) => item.operationId).sort()).toEqual(
      [
        'listCustomers',
        'createCustomer',
        'getCustomerFullList',
        'getCustomer',
        'updateCustomer',
        'listCustomerUsers',
        'createCustomerUser',
        'getCustomerUser',
        'updateCustomerUser',
        'disableCustomerUser',
        'enableCustomerUser',
        'listCustomerDevices',
        'createCustomerDevice',
        'getCustomerDevice',
        'updateCustomerDevice',
        'listUsers',
        'listProducts',
        'listDevices',
        'assignDeviceToCustomer',
      ].sort(),
    );
  });

  it('refuses every one of them without a session', async () => {
    for (const item of cases) {
      const options = await item.request(ownCustomer, 'own');
      const response = await t.app.inject(options);
      expect([item.operationId, response.statusCode]).toEqual([item.operationId, 401]);
      expect(response.json().message).toBe('session_expired');
    }
  });

  it('answers a customer user only with its own rows in its own customer lists', async () => {
    const users = await t.as(tokens.CUSTOMER, {
      method: 'GET',
      url: `/api/v1/customers/${ownCustomer}/users`,
    });
    const devices = await t.as(tokens.CUSTOMER, {
      method: 'GET',
      url: `/api/v1/customers/${ownCustomer}/devices`,
    });
    for (const row of [...users.json().data, ...devices.json().data])
      expect(row.customer_id).toBe(ownCustomer);
    expect(users.json().data.length).toBeGreaterThan(0);
  });

  it('treats ids beyond any row as not found, for staff too', async () => {
    for (const url of [
      '/api/v1/customers/987654',
      '/api/v1/customers/987654/users',
      '/api/v1/customers/987654/devices',
      `/api/v1/customers/${ownCustomer}/users/987654`,
      `/api/v1/customers/${ownCustomer}/devices/987654`,
    ]) {
      expect([url, (await t.as(tokens.SUPER_ADMIN, { method: 'GET', url })).statusCode]).toEqual([url, 404]);
    }
  });
});
