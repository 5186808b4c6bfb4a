/**
 * The tenant and role matrix: every operation of openapi/openapi.yaml × every role
 * (and no session) × the caller's own customer, another customer, and an object put under the wrong
 * customer id in the path. One table states the expected status of each combination; each answer is
 * checked against the contract's schema for that status, a refusal must leave every table as it was,
 * a successful write must change something, and no answer to a customer user may carry another
 * tenant's data (other customers' names, their users' emails, their devices' serials, or a
 * customer_id that is not the user's own). Staff see every customer by design (src/shared/access).
 */

import { generateKeyPairSync } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestionClaims } from '#shared/ingestion/claims.ts';
import { raiseAlert } from '../modules/alerts/raise.ts';
import type { ExportName } from '../modules/sterilizations/tickets.ts';
import { makeAccount, makeResetLink } from '../test/accounts.ts';
import {
  databaseDigest,
  devnetTransactionHash,
  expectErrorEnvelope,
  expectSecurityHeaders,
  injectAnswer,
  makeCertificate,
  makeReport,
  mintTicket,
  OPERATIONS,
  samplePdf,
  signDeviceToken,
} from '../test/contract-support.ts';
import {
  customerIdOf,
  makeCustomer,
  makeDevice,
  makeUser,
  productId,
  unique,
  userIdOf,
} from '../test/fixtures.ts';
import { assertionAnswer, givePasskey, registrationAnswer } from '../test/passkeys.ts';
import { expectContract } from '../test/response-checks.ts';
import { giveTotp, pendingTotp, stepTokenFor, totpCode, withoutSecondFactor } from '../test/second-factor.ts';
import { mintSession } from '../test/sessions.ts';
import { createTestApp, DEMO, DEMO_PASSWORD, type TestApp, uniqueClientAddress } from '../test/test-app.ts';

type Role = 'SUPER_ADMIN' | 'ADMIN' | 'CUSTOMER_CARE' | 'CUSTOMER';
type Caller = Role | 'anonymous';
type Expect = Record<Caller, number>;
/** own: the customer user's customer; other: another customer; mismatch: an object of another customer under own's id. */
type Tenant = 'own' | 'other' | 'mismatch';

const CALLERS: Caller[] = ['SUPER_ADMIN', 'ADMIN', 'CUSTOMER_CARE', 'CUSTOMER', 'anonymous'];
const EMAILS: Record<Role, string> = {
  SUPER_ADMIN: DEMO.super,
  ADMIN: DEMO.admin,
  CUSTOMER_CARE: DEMO.care,
  CUSTOMER: DEMO.customer,
};

let t: TestApp;
const userIds = {} as Record<Role, number>;
let ownCustomer: number;
let otherCustomer: number;
let spareCustomer: number;
let transactionHash: string;
let certificate: number;
const deviceKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const devicePublicPem = deviceKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const devicePrivatePem = deviceKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/**
 * The key of the devices the key-history calls read and revoke: not devicePublicPem, so that
 * deviceToken never picks one of them (their records would start sequences of their own).
 */
const keyHistoryPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();
let nextProgressive = 2_000_000;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of Object.keys(EMAILS) as Role[]) userIds[role] = await userIdOf(t, EMAILS[role]);
  ownCustomer = await customerIdOf(t, DEMO.customer);
  otherCustomer = await makeCustomer(t, { name: `Other tenant ${unique()}` });
  spareCustomer = await makeCustomer(t);
  // The other tenant has data of every kind a customer user could be shown by mistake.
  const otherDevice = await makeDevice(t, otherCustomer, devicePublicPem);
  await makeUser(t, otherCustomer);
  await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, consumables_lot, lot_progressive_id)
     values ($1, (select customer_id from devices where id = $1), now(), 1, 300, 10, 10, 4000, 0, 'L-OTHER-TENANT', 1)`,
    [otherDevice],
  );
  await t.database.pool.query(
    `insert into consumable_batches (device_id, customer_id, lot_code, lot_progressive, batch_quantity,
       sterilization_count)
     values ($1, (select customer_id from devices where id = $1), 'L-OTHER-TENANT', 1, 100, 1)`,
    [otherDevice],
  );
  // The own customer used the other tenant's lot too: a recall of that lot must show a customer user
  // its own record only.
  const ownDevice = await makeDevice(t, ownCustomer);
  await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, consumables_lot, lot_progressive_id)
     values ($1, $2, now(), 1, 300, 10, 10, 4000, 0, 'L-OTHER-TENANT', 2)`,
    [ownDevice, ownCustomer],
  );
  certificate = await makeCertificate(t);
  transactionHash = await devnetTransactionHash(t);
});
afterAll(() => t?.close());

// ---- the expectations ----------------------------------------------------------------------------

const every = (status: number): Expect => ({
  SUPER_ADMIN: status,
  ADMIN: status,
  CUSTOMER_CARE: status,
  CUSTOMER: status,
  anonymous: 401,
});
/** A call without a session: the caller's role plays no part. */
const anyone = (status: number): Expect => ({ ...every(status), anonymous: status });
const staff = (status: number): Expect => ({ ...every(status), CUSTOMER: 403 });
const managers = (status: number): Expect => ({ ...every(status), CUSTOMER_CARE: 403, CUSTOMER: 403 });
/** Reads by id: staff see every customer; a customer user only its own, anything else is not found. */
const tenantRead = (tenant: Tenant): Expect =>
  tenant === 'mismatch' ? every(404) : { ...every(200), CUSTOMER: tenant === 'own' ? 200 : 404 };
/** Writes by id: the ability first (403), then the object (404 when under the wrong customer). */
const managerWrite = (status: number) => (tenant: Tenant) => managers(tenant === 'mismatch' ? 404 : status);

interface Context {
  tenant: Tenant;
  caller: Caller;
  /** The customer the path or filter names: own, or other for the 'other' tenant. */
  customerId: number;
  /** The customer that owns the object in the path: the path's, or another one for 'mismatch'. */
  ownerId: number;
}

interface Case {
  tenants: Tenant[];
  expect: (tenant: Tenant) => Expect;
  /** Changes the database when it succeeds. */
  write: boolean;
  /** Authorised by the caller's session or export ticket (else the caller's role plays no part). */
  asCaller: boolean;
  request: (ctx: Context) => Promise<InjectOptions>;
}

function form(fields: Record<string, string>): Pick<InjectOptions, 'payload'> {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return { payload: body };
}

const userForm = () => {
  const tag = unique().toLowerCase();
  return form({
    name: `Matrix ${tag}`,
    email: `matrix-${tag}@example.com`,
    new_password: 'password-1',
    repeat_new_password: 'password-1',
  });
};

async function deviceToken(customerId: number): Promise<string> {
  const result = await t.database.pool.query(
    `select device_serial from devices where customer_id = $1 and public_key = $2 limit 1`,
    [customerId, devicePublicPem],
  );
  const serial = result.rows[0]
    ? (result.rows[0].device_serial as string)
    : await t.database.pool
        .query(`select device_serial from devices where id = $1`, [
          await makeDevice(t, customerId, devicePublicPem),
        ])
        .then((made) => made.rows[0].device_serial as string);
  nextProgressive += 1;
  const record = {
    progressive_id: nextProgressive,
    supplied_energy: 300,
    nominal_time: 10,
    effective_time: 10,
    residual_lamp_life: 4000,
    status_code: 0,
  };
  return signDeviceToken(ingestionClaims(serial, [record]), devicePrivatePem);
}

/** A blockchain data block holding one new record of this customer (the worker is off in this app). */
async function blockOf(customerId: number): Promise<{ blockId: number; recordId: number }> {
  const block = await t.database.pool.query(
    `insert into blockchain_data_blocks (status, network, merkle_root, hashing_version)
     values ('MINED', 'devnet', $1, 2) returning id`,
    [`0x${'11'.repeat(32)}`],
  );
  const blockId = Number(block.rows[0].id);
  const deviceId = await makeDevice(t, customerId);
  const record = await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy,
       nominal_time, effective_time, residual_lamp_life, status_code, hashing_version, blockchain_data_block_id,
       merkle_proof)
     values ($1, $2, now(), 1, 300, 10, 10, 4000, 0, 2, $3, '{}') returning id`,
    [deviceId, customerId, blockId],
  );
  return { blockId, recordId: Number(record.rows[0].id) };
}

/** A fresh open alert of this customer (each request acts on its own). */
async function alertOf(customerId: number): Promise<number> {
  const key = `matrix:${unique()}:${customerId}`;
  const id = await raiseAlert(t.database.db, { kind: 'record_gap', customerId, conditionKey: key });
  if (id === null) throw new Error('alert not raised');
  return id;
}

/** A new live session of this user; answers its id. */
async function sessionIdOf(userId: number): Promise<number> {
  await mintSession(t, userId);
  const result = await t.database.pool.query('select max(id) as id from sessions where user_id = $1', [
    userId,
  ]);
  return Number(result.rows[0].id);
}

/** Signing: the ability first (403), then the report under the path's customer (404). */
const signing = (tenant: Tenant): Expect => {
  const base = { ...every(201), CUSTOMER_CARE: 403 };
  if (tenant === 'mismatch') return { ...base, SUPER_ADMIN: 404, ADMIN: 404, CUSTOMER: 404 };
  return tenant === 'other' ? { ...base, CUSTOMER: 404 } : base;
};
const reportUrl = async (
  { customerId, ownerId }: Context,
  state: 'draft' | 'signed' | 'anchored' = 'draft',
) => `/api/v1/customers/${customerId}/reports/${await makeReport(t, ownerId, state)}`;

const ticketOf = (caller: Caller, exportName: ExportName) =>
  caller === 'anonymous' ? Promise.resolve('') : mintTicket(t, userIds[caller], exportName);

/** One entry per operation of the contract: a test below fails when the yaml gains one without it. */
const CASES: Record<string, Case> = {
  getHealth: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: false,
    asCaller: false,
    request: async () => ({ method: 'GET', url: '/api/v1/health' }),
  },
  login: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async ({ caller }) => {
      const role = caller === 'anonymous' ? 'CUSTOMER' : caller;
      // Signed in by the password alone (confirmTotpEnrolment's case enrols the demo users).
      await withoutSecondFactor(t, userIds[role]);
      return {
        method: 'POST',
        url: '/api/v1/auth/login',
        ...form({ email: EMAILS[role], password: DEMO_PASSWORD }),
      };
    },
  },
  loginSecondFactor: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => {
      const { userId } = await makeAccount(t);
      const secret = await giveTotp(t, userId);
      return {
        method: 'POST',
        url: '/api/v1/auth/login/second-factor',
        ...form({ step_token: await stepTokenFor(t, userId, 'second_factor'), code: await totpCode(secret) }),
      };
    },
  },
  loginEnrolStart: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => ({
      method: 'POST',
      url: '/api/v1/auth/login/enrol',
      ...form({ step_token: await stepTokenFor(t, (await makeAccount(t)).userId, 'enrol') }),
    }),
  },
  loginEnrolConfirm: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => {
      const { userId, email } = await makeAccount(t);
      const secret = await pendingTotp(t, userId, email);
      return {
        method: 'POST',
        url: '/api/v1/auth/login/enrol/confirm',
        ...form({ step_token: await stepTokenFor(t, userId, 'enrol'), code: await totpCode(secret) }),
      };
    },
  },
  loginPasskeyOptions: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => {
      const { userId } = await makeAccount(t);
      await givePasskey(t, userId);
      return {
        method: 'POST',
        url: '/api/v1/auth/login/passkey/options',
        ...form({ step_token: await stepTokenFor(t, userId, 'second_factor') }),
      };
    },
  },
  loginPasskey: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => {
      const { userId } = await makeAccount(t);
      const { passkey } = await givePasskey(t, userId);
      return {
        method: 'POST',
        url: '/api/v1/auth/login/passkey',
        ...form({
          step_token: await stepTokenFor(t, userId, 'second_factor'),
          credential: await assertionAnswer(t, passkey, 'second_factor', userId),
        }),
      };
    },
  },
  passkeySignInOptions: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => ({ method: 'POST', url: '/api/v1/auth/passkey/options' }),
  },
  passkeySignIn: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => {
      const { passkey } = await givePasskey(t, (await makeAccount(t)).userId);
      return {
        method: 'POST',
        url: '/api/v1/auth/passkey',
        ...form({ credential: await assertionAnswer(t, passkey, 'passwordless', null) }),
      };
    },
  },
  requestPasswordReset: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    // A known address: the reset row, its mail and the audit entry are written.
    request: async ({ caller }) => ({
      method: 'POST',
      url: '/api/v1/auth/password-reset',
      ...form({
        email: (await makeAccount(t, { role: caller === 'anonymous' ? 'CUSTOMER' : caller })).email,
      }),
    }),
  },
  completePasswordReset: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async () => ({
      method: 'POST',
      url: '/api/v1/auth/password-reset/complete',
      ...form({
        token: await makeResetLink(t, (await makeAccount(t)).userId),
        new_password: 'matrix new password',
        repeat_new_password: 'matrix new password',
      }),
    }),
  },
  logout: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async () => ({ method: 'POST', url: '/api/v1/auth/logout' }),
  },
  getMe: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/auth/me' }),
  },
  getSecondFactor: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/auth/me/second-factor' }),
  },
  startTotpEnrolment: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      await withoutSecondFactor(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return {
        method: 'POST',
        url: '/api/v1/auth/me/second-factor/totp',
        ...form({ current_password: DEMO_PASSWORD }),
      };
    },
  },
  confirmTotpEnrolment: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    // The demo user is enrolled by it: the cases that sign in or sign with the password alone remove it.
    request: async ({ caller }) => {
      const userId = userIds[caller === 'anonymous' ? 'CUSTOMER' : caller];
      const secret = await pendingTotp(t, userId, EMAILS[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return {
        method: 'POST',
        url: '/api/v1/auth/me/second-factor/totp/confirm',
        ...form({ code: await totpCode(secret) }),
      };
    },
  },
  removeSecondFactor: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      const secret = await giveTotp(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return {
        method: 'POST',
        url: '/api/v1/auth/me/second-factor/remove',
        ...form({ current_password: DEMO_PASSWORD, code: await totpCode(secret) }),
      };
    },
  },
  listPasskeys: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async ({ caller }) => {
      await givePasskey(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return { method: 'GET', url: '/api/v1/auth/me/passkeys' };
    },
  },
  startPasskeyEnrolment: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      await withoutSecondFactor(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return {
        method: 'POST',
        url: '/api/v1/auth/me/passkeys/options',
        ...form({ current_password: DEMO_PASSWORD }),
      };
    },
  },
  enrolPasskey: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => ({
      method: 'POST',
      url: '/api/v1/auth/me/passkeys',
      ...form({
        name: 'Matrix key',
        credential: await registrationAnswer(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]),
      }),
    }),
  },
  startPasskeyCheck: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      await givePasskey(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return { method: 'POST', url: '/api/v1/auth/me/passkeys/check' };
    },
  },
  renamePasskey: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      const { id } = await givePasskey(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return { method: 'PUT', url: `/api/v1/auth/me/passkeys/${id}`, ...form({ name: 'Matrix renamed' }) };
    },
  },
  removePasskey: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      const userId = userIds[caller === 'anonymous' ? 'CUSTOMER' : caller];
      await withoutSecondFactor(t, userId);
      const { passkey, id } = await givePasskey(t, userId);
      return {
        method: 'POST',
        url: `/api/v1/auth/me/passkeys/${id}/remove`,
        ...form({
          current_password: DEMO_PASSWORD,
          passkey: await assertionAnswer(t, passkey, 'reauth', userId),
        }),
      };
    },
  },
  getNotificationSettings: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/auth/me/notifications' }),
  },
  updateNotificationSettings: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    // Each call flips the caller's language, so every successful call changes the stored row.
    request: async ({ caller }) => {
      const role = caller === 'anonymous' ? 'CUSTOMER' : caller;
      const { language } = (
        await t.database.pool.query(`select language from users where id = $1`, [userIds[role]])
      ).rows[0];
      return {
        method: 'PUT',
        url: '/api/v1/auth/me/notifications',
        payload: { language: language === 'en' ? 'it' : 'en', email_alert_kinds: ['failed_cycle'] },
      };
    },
  },
  getListColumns: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/auth/me/list-columns' }),
  },
  setListColumns: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    // A new choice each call, so every successful call changes the stored row.
    request: async () => ({
      method: 'PUT',
      url: '/api/v1/auth/me/list-columns/sterilizations',
      payload: { columns: ['received_ts', `matrix_${unique().toLowerCase()}`] },
    }),
  },
  listSavedViews: {
    tenants: ['own', 'other'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    // The other tenant's shared view is in the table, and must not reach a customer user.
    request: async ({ customerId }) => {
      await savedView(await makeUser(t, customerId), 'customer', customerId);
      await savedView(userIds.ADMIN, 'staff');
      return { method: 'GET', url: '/api/v1/saved-views?list=alerts' };
    },
  },
  createSavedView: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async () => ({
      method: 'POST',
      url: '/api/v1/saved-views',
      payload: { list: 'alerts', name: `Matrix ${unique()}`, search: 'state=open', visibility: 'private' },
    }),
  },
  updateSavedView: {
    tenants: ['own', 'other'],
    // The caller's own view ('own'), or another customer's shared one ('other'): unseen by every caller.
    expect: (tenant) => (tenant === 'own' ? every(200) : every(404)),
    write: true,
    asCaller: true,
    request: async ({ tenant, caller, customerId }) => {
      const owner =
        tenant === 'own'
          ? userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]
          : await makeUser(t, customerId);
      const id = await savedView(owner, tenant === 'own' ? 'private' : 'customer', customerId);
      return {
        method: 'PUT',
        url: `/api/v1/saved-views/${id}`,
        payload: { name: `Matrix ${unique()}`, search: '', visibility: 'private' },
      };
    },
  },
  deleteSavedView: {
    tenants: ['own', 'other'],
    // Another customer's view: not found, but a SUPER_ADMIN deletes any view.
    expect: (tenant) => (tenant === 'own' ? every(200) : { ...every(404), SUPER_ADMIN: 200 }),
    write: true,
    asCaller: true,
    request: async ({ tenant, caller, customerId }) => {
      const owner =
        tenant === 'own'
          ? userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]
          : await makeUser(t, customerId);
      const id = await savedView(owner, tenant === 'own' ? 'private' : 'customer', customerId);
      return { method: 'DELETE', url: `/api/v1/saved-views/${id}` };
    },
  },
  updateProfile: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      const role = caller === 'anonymous' ? 'CUSTOMER' : caller;
      const { name, email } = (
        await t.database.pool.query(`select name, email from users where id = $1`, [userIds[role]])
      ).rows[0];
      return {
        method: 'PUT',
        url: '/api/v1/auth/me',
        ...form({
          name,
          email,
          current_password: DEMO_PASSWORD,
          new_password: DEMO_PASSWORD,
          repeat_new_password: DEMO_PASSWORD,
        }),
      };
    },
  },
  listOwnSessions: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/auth/me/sessions' }),
  },
  endOwnSession: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    // Another session of the caller (the caller's own is minted after this one).
    request: async ({ caller }) => ({
      method: 'DELETE',
      url: `/api/v1/auth/me/sessions/${await sessionIdOf(userIds[caller === 'anonymous' ? 'CUSTOMER' : caller])}`,
    }),
  },
  endOtherOwnSessions: {
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => {
      await mintSession(t, userIds[caller === 'anonymous' ? 'CUSTOMER' : caller]);
      return { method: 'POST', url: '/api/v1/auth/me/sessions/end-others' };
    },
  },
  getDashboard: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/dashboard' }),
  },
  listCustomers: {
    tenants: ['own'],
    expect: () => staff(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/customers' }),
  },
  createCustomer: {
    tenants: ['own'],
    expect: () => managers(201),
    write: true,
    asCaller: true,
    request: async () => ({
      method: 'POST',
      url: '/api/v1/customers',
      ...form({ name: `New ${unique()}`, country: 'it' }),
    }),
  },
  getCustomerFullList: {
    tenants: ['own'],
    expect: () => staff(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/customers/full-list' }),
  },
  getCustomer: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({ method: 'GET', url: `/api/v1/customers/${customerId}` }),
  },
  updateCustomer: {
    tenants: ['own', 'other'],
    expect: () => managers(200),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'PATCH',
      url: `/api/v1/customers/${customerId}`,
      ...form({ phone: unique() }),
    }),
  },
  listCustomerUsers: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({ method: 'GET', url: `/api/v1/customers/${customerId}/users` }),
  },
  createCustomerUser: {
    tenants: ['own', 'other'],
    expect: () => managers(201),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: `/api/v1/customers/${customerId}/users`,
      ...userForm(),
    }),
  },
  getCustomerUser: {
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId, ownerId }) => ({
      method: 'GET',
      url: `/api/v1/customers/${customerId}/users/${await makeUser(t, ownerId)}`,
    }),
  },
  updateCustomerUser: {
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    write: true,
    asCaller: true,
    request: async ({ customerId, ownerId }) => ({
      method: 'PATCH',
      url: `/api/v1/customers/${customerId}/users/${await makeUser(t, ownerId)}`,
      ...form({ name: `Renamed ${unique()}` }),
    }),
  },
  disableCustomerUser: {
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    write: true,
    asCaller: true,
    request: async ({ customerId, ownerId }) => ({
      method: 'DELETE',
      url: `/api/v1/customers/${customerId}/users/${await makeUser(t, ownerId)}`,
    }),
  },
  enableCustomerUser: {
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    write: true,
    asCaller: true,
    request: async ({ customerId, ownerId }) => {
      const userId = await makeUser(t, ownerId);
      await t.database.pool.query('update users set deleted_at = now() where id = $1', [userId]);
      return { method: 'POST', url: `/api/v1/customers/${customerId}/users/${userId}/undelete` };
    },
  },
  endUserSessions: {
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    write: true,
    asCaller: true,
    request: async ({ customerId, ownerId }) => {
      const userId = await makeUser(t, ownerId);
      await mintSession(t, userId);
      return { method: 'POST', url: `/api/v1/customers/${customerId}/users/${userId}/end-sessions` };
    },
  },
  resetUserSecondFactor: {
    tenants: ['own', 'other', 'mismatch'],
    // The SUPER_ADMIN's alone; an ADMIN is refused before the user is looked up.
    expect: (tenant) => ({ ...managers(403), SUPER_ADMIN: tenant === 'mismatch' ? 404 : 200 }),
    write: true,
    asCaller: true,
    request: async ({ customerId, ownerId }) => {
      const userId = await makeUser(t, ownerId);
      await giveTotp(t, userId);
      return {
        method: 'POST',
        url: `/api/v1/customers/${customerId}/users/${userId}/reset-second-factor`,
        ...form({ reason: 'Matrix: lost phone' }),
      };
    },
  },
  listCustomerDevices: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({ method: 'GET', url: `/api/v1/customers/${customerId}/devices` }),
  },
  createCustomerDevice: {
    tenants: ['own', 'other'],
    expect: () => managers(201),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: `/api/v1/customers/${customerId}/devices`,
      ...form({
        device_serial: `M${unique()}Z`,
        label: 'Matrix device',
        product_id: String(await productId(t)),
      }),
    }),
  },
  getCustomerDevice: {
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId, ownerId }) => ({
      method: 'GET',
      url: `/api/v1/customers/${customerId}/devices/${await makeDevice(t, ownerId)}`,
    }),
  },
  updateCustomerDevice: {
    tenants: ['own', 'other', 'mismatch'],
    expect: managerWrite(200),
    write: true,
    asCaller: true,
    request: async ({ customerId, ownerId }) => ({
      method: 'PATCH',
      url: `/api/v1/customers/${customerId}/devices/${await makeDevice(t, ownerId)}`,
      ...form({ label: `Relabelled ${unique()}` }),
    }),
  },
  listUsers: {
    tenants: ['own'],
    expect: () => staff(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/users' }),
  },
  listProducts: {
    tenants: ['own'],
    expect: () => managers(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/products' }),
  },
  listDevices: {
    tenants: ['own'],
    expect: () => staff(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/devices' }),
  },
  assignDeviceToCustomer: {
    tenants: ['own', 'other'],
    expect: () => managers(200),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: `/api/v1/device/${await makeDevice(t, customerId)}/assign-to/${spareCustomer}`,
    }),
  },
  getDeviceGaps: {
    tenants: ['own', 'other'],
    // Every role may read a device's gaps, like its page; a customer user only of a device it has or had.
    expect: (tenant) => ({ ...every(200), CUSTOMER: tenant === 'own' ? 200 : 404 }),
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/devices/${await makeDevice(t, customerId)}/gaps`,
    }),
  },
  listDeviceKeyEvents: {
    tenants: ['own', 'other'],
    // Like the device's gaps: every role, a customer user only for a device it has or had.
    expect: (tenant) => ({ ...every(200), CUSTOMER: tenant === 'own' ? 200 : 404 }),
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/devices/${await makeDevice(t, customerId, keyHistoryPem)}/key-events`,
    }),
  },
  revokeDeviceKey: {
    tenants: ['own', 'other'],
    // Key management is the SUPER_ADMIN's alone.
    expect: () => ({ ...every(403), SUPER_ADMIN: 200 }),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: `/api/v1/devices/${await makeDevice(t, customerId, keyHistoryPem)}/keys/1/revoke`,
      payload: { reason: 'Matrix revocation' },
    }),
  },
  getSterilizationEvidence: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/sterilizations/evidence/${(await blockOf(customerId)).recordId}`,
    }),
  },
  listSterilizations: {
    tenants: ['own', 'other'],
    // Callers without canSeeAllSterilizations get their own records whatever customerId says.
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/sterilizations?customerId=${customerId}`,
    }),
  },
  listRecallRecords: {
    tenants: ['own', 'other'],
    // A customer user's recall is its own records of the lot, whatever customerId says.
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/recall/records?lot=L-OTHER-TENANT&customerId=${customerId}`,
    }),
  },
  getRecallSummary: {
    tenants: ['own', 'other'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/recall/summary?lot=L-OTHER-TENANT&customerId=${customerId}`,
    }),
  },
  getSterilizationCustomerFilter: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/sterilizations/customer-filter' }),
  },
  getSterilizationDeviceFilter: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/sterilizations/device-filter/${customerId}`,
    }),
  },
  downloadCycleReport: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    // A record in a MINED block: the report reads the chain for its QR code's receipt.
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/sterilizations/cycle-report/${(await blockOf(customerId)).recordId}?lang=it`,
    }),
  },
  ingestSterilizations: {
    tenants: ['own', 'other'],
    // The device's signature authorises it, not a session.
    expect: () => anyone(200),
    write: true,
    asCaller: false,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: '/api/v1/ingest/sterilizations',
      payload: { token: await deviceToken(customerId) },
    }),
  },
  listCertificates: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/certificates' }),
  },
  uploadCertificate: {
    tenants: ['own'],
    expect: () => managers(201),
    write: true,
    asCaller: true,
    request: async () => {
      const body = new FormData();
      body.append('lot_number', `L${unique()}`);
      body.append('validated_treatment_number', `T${unique()}`);
      body.append('expiration_date', '2027-03-31');
      body.append(
        'italian_file',
        new Blob([new Uint8Array(await samplePdf())], { type: 'application/pdf' }),
        'certificato.pdf',
      );
      return { method: 'POST', url: '/api/v1/certificates', payload: body };
    },
  },
  getCertificateDeletionImpact: {
    tenants: ['own'],
    expect: () => managers(200),
    write: false,
    asCaller: true,
    request: async () => ({
      method: 'GET',
      url: `/api/v1/certificates/${await makeCertificate(t)}/deletion-impact`,
    }),
  },
  deleteCertificate: {
    tenants: ['own'],
    expect: () => managers(200),
    write: true,
    asCaller: true,
    request: async () => ({ method: 'DELETE', url: `/api/v1/certificates/${await makeCertificate(t)}` }),
  },
  downloadCertificate: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: `/api/v1/certificates/download/en/${certificate}` }),
  },
  getTransaction: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: `/api/v1/transactions/${transactionHash}` }),
  },
  calculateHash: {
    // The block root answers "does this guess match?", so a block is read like any object.
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => {
      const { blockId, recordId } = await blockOf(customerId);
      return {
        method: 'POST',
        url: '/api/v1/transactions/calculateHash',
        ...form({ blockchain_data_block_id: String(blockId), id: String(recordId) }),
      };
    },
  },
  getChainInfo: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: false,
    asCaller: false,
    request: async () => ({ method: 'GET', url: '/api/v1/chain' }),
  },
  chainRpc: {
    tenants: ['own'],
    expect: () => anyone(200),
    write: false,
    asCaller: false,
    request: async () => ({
      method: 'POST',
      url: '/chain-rpc',
      payload: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
    }),
  },
  listAudit: {
    tenants: ['own', 'other'],
    expect: () => managers(200),
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/audit?entityType=customer&entityId=${customerId}`,
    }),
  },
  listMailOutbox: {
    tenants: ['own'],
    expect: () => managers(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/mail-outbox?state=pending' }),
  },
  getAnchoringCosts: {
    tenants: ['own'],
    // The maker's own figures: SUPER_ADMIN and ADMIN; never customer care, never a clinic.
    expect: () => managers(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/chain/costs?months=3' }),
  },
  listAlerts: {
    tenants: ['own', 'other'],
    // A customer user's list is its own customer's alerts whatever customerId says (another's: empty).
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({ method: 'GET', url: `/api/v1/alerts?customerId=${customerId}` }),
  },
  countUnreadAlerts: {
    tenants: ['own'],
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/alerts/unread-count' }),
  },
  acknowledgeAlert: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: `/api/v1/alerts/${await alertOf(customerId)}/acknowledge`,
      payload: { comment: 'Seen' },
    }),
  },
  resolveAlert: {
    tenants: ['own', 'other'],
    // Customer care reads and passes on; managers and the clinic itself resolve.
    expect: (tenant) => ({ ...tenantRead(tenant), CUSTOMER_CARE: 403 }),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: `/api/v1/alerts/${await alertOf(customerId)}/resolve`,
      payload: {},
    }),
  },
  bulkAlertAction: {
    // Every role acknowledges. Another customer's alert is skipped as not found (a 200 that changes
    // nothing, which this matrix reads as a leak): alerts/bulk.test.ts checks that case.
    tenants: ['own'],
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: '/api/v1/alerts/bulk',
      payload: { action: 'acknowledge', ids: [await alertOf(customerId)] },
    }),
  },
  bulkUserAction: {
    // Managers only. A user a scoped caller may not see would be skipped as not found (a 200 that
    // changes nothing): users/bulk.test.ts checks the skips.
    tenants: ['own'],
    expect: () => managers(200),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: '/api/v1/users/bulk',
      payload: { action: 'disable', ids: [await makeUser(t, customerId)] },
    }),
  },
  createExportTicket: {
    tenants: ['own'],
    // The export of every customer's ok records needs canDownloadCustomers; the filtered one is open to all.
    expect: () => managers(201),
    write: true,
    asCaller: true,
    request: async () => ({
      method: 'POST',
      url: '/api/v1/export-tickets',
      payload: { export: 'sterilizations-ok' },
    }),
  },
  exportSterilizationsFiltered: {
    tenants: ['own', 'other'],
    // No session: the caller's one-time ticket (none for anonymous) authorises it.
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller, customerId }) => ({
      method: 'GET',
      url: `/export/sterilizations-filtered?ticket=${await ticketOf(caller, 'sterilizations-filtered')}&customerId=${customerId}`,
    }),
  },
  exportSterilizationsProofBundle: {
    tenants: ['own', 'other'],
    // No session: the caller's one-time ticket (none for anonymous) authorises it.
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller, customerId }) => ({
      method: 'GET',
      url: `/export/sterilizations-proof-bundle?ticket=${await ticketOf(caller, 'sterilizations-proof-bundle')}&customerId=${customerId}`,
    }),
  },
  exportRecall: {
    tenants: ['own', 'other'],
    // No session: the caller's one-time ticket (none for anonymous) authorises it.
    expect: () => every(200),
    write: true,
    asCaller: true,
    request: async ({ caller, customerId }) => ({
      method: 'GET',
      url: `/export/recall?ticket=${await ticketOf(caller, 'recall')}&lot=L-OTHER-TENANT&customerId=${customerId}`,
    }),
  },
  streamEvents: {
    tenants: ['own'],
    // Every role follows the stream; what each receives is decided per event (events.test.ts).
    expect: () => every(200),
    write: false,
    asCaller: true,
    request: async () => ({ method: 'GET', url: '/api/v1/events' }),
  },
  getComplianceSummary: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'GET',
      url: `/api/v1/customers/${customerId}/compliance-summary?from=2025-03-01&to=2025-03-31`,
    }),
  },
  listCustomerReports: {
    tenants: ['own', 'other'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async ({ customerId }) => {
      await makeReport(t, customerId, 'signed');
      return { method: 'GET', url: `/api/v1/customers/${customerId}/reports` };
    },
  },
  createReport: {
    tenants: ['own', 'other'],
    expect: (tenant) => ({ ...every(201), CUSTOMER: tenant === 'own' ? 201 : 404 }),
    write: true,
    asCaller: true,
    request: async ({ customerId }) => ({
      method: 'POST',
      url: `/api/v1/customers/${customerId}/reports`,
      ...form({ from: '2025-03-01', to: '2025-03-31', language: 'it' }),
    }),
  },
  getReport: {
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async (ctx) => ({ method: 'GET', url: await reportUrl(ctx, 'signed') }),
  },
  downloadReportDraft: {
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async (ctx) => ({ method: 'GET', url: `${await reportUrl(ctx)}/draft` }),
  },
  downloadReportVersion: {
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async (ctx) => ({ method: 'GET', url: `${await reportUrl(ctx, 'signed')}/versions/1` }),
  },
  getReportReceipt: {
    tenants: ['own', 'other', 'mismatch'],
    expect: tenantRead,
    write: false,
    asCaller: true,
    request: async (ctx) => ({
      method: 'GET',
      url: `${await reportUrl(ctx, 'anchored')}/versions/1/receipt`,
    }),
  },
  signReport: {
    tenants: ['own', 'other', 'mismatch'],
    expect: signing,
    write: true,
    asCaller: true,
    request: async (ctx) => {
      // Signed with the password alone (confirmTotpEnrolment's case enrols the demo users).
      if (ctx.caller !== 'anonymous') await withoutSecondFactor(t, userIds[ctx.caller]);
      return {
        method: 'POST',
        url: `${await reportUrl(ctx)}/signatures`,
        ...form({ password: DEMO_PASSWORD, meaning: 'reviewed', comment: 'Matrix' }),
      };
    },
  },
  exportSterilizationsOk: {
    tenants: ['own'],
    expect: () => managers(200),
    write: true,
    asCaller: true,
    request: async ({ caller }) => ({
      method: 'GET',
      url: `/export/sterilizations-ok?ticket=${await ticketOf(caller, 'sterilizations-ok')}`,
    }),
  },
};

/** A saved view of the alerts list, owned by `ownerId`, shared as `visibility` says. */
async function savedView(
  ownerId: number,
  visibility: 'private' | 'customer' | 'staff',
  customerId?: number,
): Promise<number> {
  const result = await t.database.pool.query(
    `insert into saved_views (owner_id, list, name, search, visibility, customer_id)
     values ($1, 'alerts', $2, 'state=open', $3, $4) returning id`,
    [ownerId, `Matrix view ${unique()}`, visibility, visibility === 'customer' ? customerId : null],
  );
  return Number(result.rows[0].id);
}

// ---- other tenants' data ------------------------------------------------------------------------

/**
 * Values that name another tenant: its customers' names, its users' emails, its devices' serials. A device the caller's customer had before (device_owners) is not
 * one: its serial comes with the customer's own records of it and among its device choices.
 */
async function otherTenantMarkers(): Promise<Set<string>> {
  const result = await t.database.pool.query<{ value: string }>(
    `select name as value from customers where id <> $1
     union select email from users where customer_id <> $1
     union select device_serial from devices d where not exists (
       select 1 from device_owners o where o.device_id = d.id and o.customer_id = $1)`,
    [ownCustomer],
  );
  return new Set(result.rows.map((row) => row.value));
}

function leaks(value: unknown, markers: Set<string>, path = '$'): string[] {
  if (typeof value === 'string') return markers.has(value) ? [`${path} = ${value}`] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => leaks(item, markers, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const found = leaks(item, markers, `${path}.${key}`);
    if (key === 'customer_id' && item !== ownCustomer) found.push(`${path}.${key} = ${String(item)}`);
    return found;
  });
}

function csvCells(text: string): string[] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r\n/)
    .flatMap((line) => line.split(','))
    .map((cell) => cell.replace(/^"|"$/g, '').replace(/""/g, '"').replace(/^'/, ''));
}

async function expectNoOtherTenantData(
  response: { headers: Record<string, unknown>; body: string },
  where: string,
) {
  const markers = await otherTenantMarkers();
  const type = String(response.headers['content-type']);
  const found = type.startsWith('application/json')
    ? leaks(JSON.parse(response.body), markers)
    : type.startsWith('text/csv')
      ? csvCells(response.body).filter((cell) => markers.has(cell))
      : [];
  expect(found, where).toEqual([]);
}

// ---- the matrix ---------------------------------------------------------------------------------

describe('tenant and role matrix', () => {
  it('has an entry for every operation of the contract', () => {
    expect(Object.keys(CASES).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
  });

  for (const op of OPERATIONS) {
    const item = CASES[op.operationId];
    if (!item) continue;
    for (const tenant of item.tenants) {
      for (const caller of CALLERS) {
        const status = item.expect(tenant)[caller];
        it(`${op.operationId} · ${caller} · ${tenant} customer → ${status}`, async () => {
          const customerId = tenant === 'other' ? otherCustomer : ownCustomer;
          const ownerId = tenant === 'own' ? ownCustomer : otherCustomer;
          const options = await item.request({ tenant, caller, customerId, ownerId });
          const headers: Record<string, string> = { 'x-forwarded-for': uniqueClientAddress() };
          if (op.requiresSession && caller !== 'anonymous') {
            headers.authorization = `Bearer ${await mintSession(t, userIds[caller])}`;
          }
          // The alert evaluation of a record the setup ingested runs after its answer: let it finish first.
          await t.app.alerts.idle();
          const before = await databaseDigest(t);
          const response = await injectAnswer(t.app, {
            ...options,
            headers: { ...options.headers, ...headers },
          });
          const where = `${op.operationId} ${caller} ${tenant}: ${response.body.slice(0, 300)}`;
          expect(response.statusCode, where).toBe(status);
          expectSecurityHeaders(response, where);
          if (String(response.headers['content-type']).startsWith('application/json'))
            expectContract(op.operationId, response, status);
          const after = await databaseDigest(t);
          if (status >= 300) {
            expectErrorEnvelope(response, where);
            // A ticket whose holder may no longer export is spent all the same: one use, whatever it brings.
            if (status === 403 && op.operationId.startsWith('exportSterilizations')) {
              delete after['public.export_tickets'];
              delete before['public.export_tickets'];
            }
            expect(after, `${where}: refused but the database changed`).toEqual(before);
          } else {
            if (item.write) expect(after, `${where}: a write that changed nothing`).not.toEqual(before);
            else expect(after, `${where}: a read that wrote`).toEqual(before);
            if (caller === 'CUSTOMER' && item.asCaller) await expectNoOtherTenantData(response, where);
          }
        });
      }
    }
  }

  it('answers ids beyond any row with 404, for staff too', async () => {
    // Operations whose body is required check it before they look the object up.
    for (const op of OPERATIONS.filter((item) => !item.bodyRequired)) {
      const names = Object.entries((op.paramsSchema?.properties ?? {}) as Record<string, { type?: string }>)
        .filter(([, schema]) => schema.type === 'integer')
        .map(([name]) => name);
      for (const name of names) {
        const url = op.url.replace(/:(\w+)/g, (_match, param: string) =>
          param === name ? '987654' : param === 'lang' ? 'it' : String(ownCustomer),
        );
        const headers = { authorization: `Bearer ${await mintSession(t, userIds.SUPER_ADMIN)}` };
        const response = await t.app.inject({ method: op.method, url, headers });
        expect([op.operationId, name, response.statusCode]).toEqual([op.operationId, name, 404]);
        expectErrorEnvelope(response, op.operationId);
      }
    }
  });
});
