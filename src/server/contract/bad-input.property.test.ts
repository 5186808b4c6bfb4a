/**
 * Bad input, everywhere: for every operation of openapi/openapi.yaml, fast-check derives a
 * valid request from the operation's schemas (plus the few values a schema cannot invent: real object
 * ids, a signed device token) and then breaks it — bad path ids, wrong types, missing and extra
 * fields, huge strings, unicode and NUL, extreme numbers, wrong media types, malformed and oversized
 * multipart, broken bearer tokens, mangled device-token claims. Whatever arrives, the server must
 * answer below 500 with the strict security headers; every refusal is the error envelope and leaves
 * every table exactly as it was.
 *
 * The one write a refused request makes by design: a failed re-authentication is recorded in the audit
 * trail (audit_log rows with action `login_failed`, `sign_failed` for a report signature with a wrong
 * password, `reauth_failed` for a profile change with a wrong current password, `second_factor_failed`
 * for a wrong code at sign-in), so those rows are left out of the digest; so are the counts of wrong
 * second-factor codes (totp_factors, login_steps) and the WebAuthn challenges a refused passkey answer
 * takes (webauthn_challenges).
 */
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ingestionClaims,
  type SterilizationClaim,
  sterilizationClaimSchema,
} from '#shared/ingestion/claims.ts';
import { raiseAlert } from '../modules/alerts/raise.ts';
import { READ_ONLY_METHODS } from '../modules/integrity/rpc-proxy.ts';
import { makeAccount, makeResetLink } from '../test/accounts.ts';
import {
  type Digest,
  databaseDigest,
  devnetTransactionHash,
  expectErrorEnvelope,
  expectSecurityHeaders,
  type InjectedAnswer,
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
  rsaPublicKeyPem,
  unique,
  userIdOf,
} from '../test/fixtures.ts';
import { assertionAnswer, givePasskey, registrationAnswer, type SoftPasskey } from '../test/passkeys.ts';
import { expectContract } from '../test/response-checks.ts';
import { giveTotp, pendingTotp, stepTokenFor, totpCode, withoutSecondFactor } from '../test/second-factor.ts';
import { mintSession } from '../test/sessions.ts';
import { createTestApp, DEMO, DEMO_PASSWORD, type TestApp, uniqueClientAddress } from '../test/test-app.ts';
import type { ContractOperation, JsonSchema } from './load-contract.ts';

/** Runs per operation: ~40 operations × this many requests, each with two table digests. */
const RUNS = Number(process.env.BAD_INPUT_RUNS ?? 15);
/** Small limits, so oversized bodies are cheap to send (the defaults are tested in plugins/). */
const UPLOAD_MAX_BYTES = 64 * 1024;

let t: TestApp;
let ownCustomer: number;
let spareCustomer: number;
let ownUser: number;
let ownDevice: number;
/** A record of the own customer (the cycle report's path). */
let ownRecord: number;
let certificate: number;
let transactionHash: string;
const callerIds = {} as Record<'SUPER_ADMIN' | 'CUSTOMER', number>;
let nextProgressive = 1_000_000;
/** The passkey removePasskey's path names, whose answer its body carries. */
let removedPasskey: SoftPasskey;

beforeAll(async () => {
  t = await createTestApp({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) });
  callerIds.SUPER_ADMIN = await userIdOf(t, DEMO.super);
  callerIds.CUSTOMER = await userIdOf(t, DEMO.customer);
  ownCustomer = await customerIdOf(t, DEMO.customer);
  spareCustomer = await makeCustomer(t);
  ownUser = await makeUser(t, ownCustomer);
  ownDevice = await makeDevice(t, ownCustomer);
  const record = await t.database.pool.query(
    `insert into sterilizations (device_id, customer_id, received_ts, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, notes)
     values ($1, $2, now(), 1, 300, 10, 10, 4000, 0, 'Property record') returning id`,
    [ownDevice, ownCustomer],
  );
  ownRecord = Number(record.rows[0].id);
  certificate = await makeCertificate(t);
  transactionHash = await devnetTransactionHash(t);
});
afterAll(() => t?.close());

// ---- requests as data -------------------------------------------------------------------------

type Caller = 'SUPER_ADMIN' | 'CUSTOMER' | 'anonymous';
type FormField =
  | { name: string; value: string; contentType?: string }
  | { name: string; file: Buffer; filename: string; contentType: string };
type Body =
  | { kind: 'none' }
  | { kind: 'form'; fields: FormField[] }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string | undefined; payload: Buffer };

interface Draft {
  method: string;
  path: Record<string, string>;
  query: [string, string][];
  body: Body;
  headers: Record<string, string>;
  /** The caller whose session (or export ticket) the request carries. */
  caller: Caller;
  /** Send no bearer token even for an operation that needs one. */
  noSession?: boolean;
}

interface Mutation {
  label: string;
  apply(draft: Draft, op: ContractOperation): Draft | Promise<Draft>;
}

/**
 * Bytes as UTF-8 percent-encoding; unlike encodeURIComponent it takes lone surrogates too. (No bad id
 * is "." or "..": URL clients resolve those, even percent-encoded, as a climb to another route.)
 */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function multipart(fields: FormField[], boundary: string): Buffer {
  const chunks: Buffer[] = [];
  const quoted = (text: string) => text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  for (const field of fields) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('file' in field) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${quoted(field.name)}"; filename="${quoted(field.filename)}"\r\nContent-Type: ${field.contentType}\r\n\r\n`,
        ),
        field.file,
      );
    } else {
      const type = field.contentType ? `Content-Type: ${field.contentType}\r\n` : '';
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${quoted(field.name)}"\r\n${type}\r\n`),
        Buffer.from(field.value, 'utf8'),
      );
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const BOUNDARY = '----uvtrace-property-boundary';

function encodeBody(body: Body): { payload?: Buffer; contentType?: string } {
  switch (body.kind) {
    case 'none':
      return {};
    case 'form':
      return {
        payload: multipart(body.fields, BOUNDARY),
        contentType: `multipart/form-data; boundary=${BOUNDARY}`,
      };
    case 'json':
      return { payload: Buffer.from(JSON.stringify(body.value) ?? 'null'), contentType: 'application/json' };
    case 'raw':
      return { payload: body.payload, contentType: body.contentType };
  }
}

/** The bearer token the request carries, minted before the "before" digest is taken. */
async function sessionFor(op: ContractOperation, draft: Draft): Promise<string | undefined> {
  if (!op.requiresSession || draft.noSession || draft.caller === 'anonymous') return undefined;
  return mintSession(t, callerIds[draft.caller]);
}

function send(op: ContractOperation, draft: Draft, token: string | undefined): Promise<InjectedAnswer> {
  const url = op.url.replace(/:(\w+)/g, (_match, name: string) => percentEncode(draft.path[name] ?? ''));
  const query = draft.query.map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`).join('&');
  const { payload, contentType } = encodeBody(draft.body);
  const headers: Record<string, string> = { 'x-forwarded-for': uniqueClientAddress() };
  if (contentType) headers['content-type'] = contentType;
  if (token) headers.authorization = `Bearer ${token}`;
  const options: InjectOptions = {
    method: draft.method as InjectOptions['method'],
    url: query ? `${url}?${query}` : url,
    headers: { ...headers, ...draft.headers },
  };
  if (payload) options.payload = payload;
  return injectAnswer(t.app, options);
}

// ---- valid requests, derived from the schemas ----------------------------------------------------

type Node = Record<string, unknown>;
type Values = Record<string, unknown>;

interface Input {
  /** Who sends it (session operations: the caller's session; exports: the ticket's holder). */
  callers: Caller[];
  /** What the schema cannot invent: ids of real objects, values that pass the business rules. */
  path?: (caller: Caller) => Promise<Record<string, string>>;
  query?: (caller: Caller) => Promise<Record<string, string>>;
  body?: (caller: Caller) => Promise<Values>;
  /** Ways to be wrong the contract cannot describe (the claims inside a device token, JSON-RPC calls). */
  mutations?: () => fc.Arbitrary<Mutation>[];
}

const revocableKey = rsaPublicKeyPem();
const STAFF_AND_CUSTOMER: Caller[] = ['SUPER_ADMIN', 'CUSTOMER'];
const MANAGER: Caller[] = ['SUPER_ADMIN'];
const ANYONE: Caller[] = ['anonymous'];

const own = async () => ({ id: String(ownCustomer) });
/** A saved view of the caller's, for the calls that change one. */
async function ownView(caller: Caller): Promise<number> {
  const result = await t.database.pool.query(
    `insert into saved_views (owner_id, list, name, search, visibility) values ($1, 'alerts', $2, '', 'private')
     returning id`,
    [callerIds[caller as 'SUPER_ADMIN'], `Prop view ${unique()}`],
  );
  return Number(result.rows[0].id);
}
const newUser = async () => ({
  name: `Prop user ${unique()}`,
  email: `prop-${unique().toLowerCase()}@example.com`,
  new_password: 'password-1',
  repeat_new_password: 'password-1',
});

type Claims = Record<string, unknown>;

async function validRecord(): Promise<Claims> {
  nextProgressive += 1;
  return {
    progressive_id: nextProgressive,
    supplied_energy: 312.5,
    nominal_time: 10,
    effective_time: 9.75,
    residual_lamp_life: 4321,
    status_code: 0,
    latitude: 45.4642,
    longitude: 9.19,
    consumables_lot: 'L-PROP-01',
    lot_progressive_id: 3,
    batch_quantity: 50,
    notes: null,
  };
}

const device = () => t.seed.devices[0] as (typeof t.seed.devices)[number];

/** Claims for one record of a seed device, as plain data a mutation can break. */
const claimsOf = (record: Claims): Claims => ({
  ...ingestionClaims(device().serial, [record as unknown as SterilizationClaim]),
});

async function deviceToken(claims?: Claims): Promise<string> {
  return signDeviceToken(claims ?? claimsOf(await validRecord()), device().privateKeyPem);
}

/** A fresh open alert of the customer user's customer (each valid request acts on its own). */
async function openAlert(): Promise<number> {
  const id = await raiseAlert(t.database.db, {
    kind: 'record_gap',
    customerId: ownCustomer,
    conditionKey: `prop:${unique()}`,
  });
  if (id === null) throw new Error('alert not raised');
  return id;
}

async function integrityForm(): Promise<Values> {
  const result = await t.database.pool.query(
    `select s.id, s.received_ts, d.device_serial, s.progressive_id, s.supplied_energy, s.nominal_time, s.effective_time,
       s.residual_lamp_life, s.status_code, s.latitude, s.longitude, s.consumables_lot, s.lot_progressive_id, s.notes
     from sterilizations s join devices d on d.id = s.device_id order by s.id limit 1`,
  );
  const row = result.rows[0] as Record<string, unknown>;
  const form: Values = { hashing_version: '1' };
  for (const [key, value] of Object.entries(row)) {
    if (value !== null) form[key] = value instanceof Date ? value.toISOString() : String(value);
  }
  return form;
}

const reportPath = async (state: 'draft' | 'signed' | 'anchored') => ({
  id: String(ownCustomer),
  reportId: String(await makeReport(t, ownCustomer, state)),
});

/** A new live session of this user, other than the one a request will carry; answers its id. */
async function otherSessionOf(userId: number): Promise<number> {
  await mintSession(t, userId);
  const result = await t.database.pool.query('select max(id) as id from sessions where user_id = $1', [
    userId,
  ]);
  return Number(result.rows[0].id);
}

/** One entry per operation of the contract: a test below fails when the yaml gains one without it. */
const INPUTS: Record<string, Input> = {
  getHealth: { callers: ANYONE },
  login: {
    callers: ANYONE,
    body: async () => {
      await withoutSecondFactor(t, callerIds.CUSTOMER);
      return { email: DEMO.customer, password: DEMO_PASSWORD };
    },
  },
  loginSecondFactor: {
    callers: ANYONE,
    body: async () => {
      const { userId } = await makeAccount(t);
      const secret = await giveTotp(t, userId);
      return { step_token: await stepTokenFor(t, userId, 'second_factor'), code: await totpCode(secret) };
    },
  },
  loginEnrolStart: {
    callers: ANYONE,
    body: async () => ({ step_token: await stepTokenFor(t, (await makeAccount(t)).userId, 'enrol') }),
  },
  loginEnrolConfirm: {
    callers: ANYONE,
    body: async () => {
      const { userId, email } = await makeAccount(t);
      const secret = await pendingTotp(t, userId, email);
      return { step_token: await stepTokenFor(t, userId, 'enrol'), code: await totpCode(secret) };
    },
  },
  loginPasskeyOptions: {
    callers: ANYONE,
    body: async () => {
      const { userId } = await makeAccount(t);
      await givePasskey(t, userId);
      return { step_token: await stepTokenFor(t, userId, 'second_factor') };
    },
  },
  loginPasskey: {
    callers: ANYONE,
    body: async () => {
      const { userId } = await makeAccount(t);
      const { passkey } = await givePasskey(t, userId);
      return {
        step_token: await stepTokenFor(t, userId, 'second_factor'),
        credential: await assertionAnswer(t, passkey, 'second_factor', userId),
      };
    },
  },
  passkeySignInOptions: { callers: ANYONE },
  passkeySignIn: {
    callers: ANYONE,
    body: async () => {
      const { passkey } = await givePasskey(t, (await makeAccount(t)).userId);
      return { credential: await assertionAnswer(t, passkey, 'passwordless', null) };
    },
  },
  requestPasswordReset: {
    callers: ANYONE,
    body: async () => ({ email: (await makeAccount(t)).email }),
  },
  completePasswordReset: {
    callers: ANYONE,
    body: async () => ({
      token: await makeResetLink(t, (await makeAccount(t)).userId),
      new_password: 'property new password',
      repeat_new_password: 'property new password',
    }),
  },
  logout: { callers: STAFF_AND_CUSTOMER },
  getMe: { callers: STAFF_AND_CUSTOMER },
  updateProfile: {
    callers: STAFF_AND_CUSTOMER,
    body: async (caller) => {
      const result = await t.database.pool.query(`select name, email from users where id = $1`, [
        callerIds[caller as 'SUPER_ADMIN'],
      ]);
      const { name, email } = result.rows[0] as { name: string; email: string };
      return {
        name,
        email,
        current_password: DEMO_PASSWORD,
        new_password: DEMO_PASSWORD,
        repeat_new_password: DEMO_PASSWORD,
      };
    },
  },
  listOwnSessions: { callers: STAFF_AND_CUSTOMER },
  endOwnSession: {
    callers: STAFF_AND_CUSTOMER,
    path: async (caller) => ({ sessionId: String(await otherSessionOf(callerIds[caller as 'SUPER_ADMIN'])) }),
  },
  endOtherOwnSessions: { callers: STAFF_AND_CUSTOMER },
  getSecondFactor: { callers: STAFF_AND_CUSTOMER },
  startTotpEnrolment: {
    callers: STAFF_AND_CUSTOMER,
    body: async (caller) => {
      await withoutSecondFactor(t, callerIds[caller as 'SUPER_ADMIN']);
      return { current_password: DEMO_PASSWORD };
    },
  },
  confirmTotpEnrolment: {
    callers: STAFF_AND_CUSTOMER,
    body: async (caller) => {
      const userId = callerIds[caller as 'SUPER_ADMIN'];
      const secret = await pendingTotp(t, userId, caller === 'CUSTOMER' ? DEMO.customer : DEMO.super);
      return { code: await totpCode(secret) };
    },
  },
  removeSecondFactor: {
    callers: STAFF_AND_CUSTOMER,
    body: async (caller) => {
      const secret = await giveTotp(t, callerIds[caller as 'SUPER_ADMIN']);
      return { current_password: DEMO_PASSWORD, code: await totpCode(secret) };
    },
  },
  listPasskeys: { callers: STAFF_AND_CUSTOMER },
  startPasskeyEnrolment: {
    callers: STAFF_AND_CUSTOMER,
    body: async (caller) => {
      await withoutSecondFactor(t, callerIds[caller as 'SUPER_ADMIN']);
      return { current_password: DEMO_PASSWORD };
    },
  },
  enrolPasskey: {
    callers: STAFF_AND_CUSTOMER,
    body: async (caller) => ({
      name: 'Property key',
      credential: await registrationAnswer(t, callerIds[caller as 'SUPER_ADMIN']),
    }),
  },
  startPasskeyCheck: {
    callers: STAFF_AND_CUSTOMER,
    // No path parameter: the caller's passkey is given while the (empty) path is drawn.
    path: async (caller) => {
      await givePasskey(t, callerIds[caller as 'SUPER_ADMIN']);
      return {};
    },
  },
  renamePasskey: {
    callers: STAFF_AND_CUSTOMER,
    path: async (caller) => ({
      passkeyId: String((await givePasskey(t, callerIds[caller as 'SUPER_ADMIN'])).id),
    }),
    body: async () => ({ name: 'Property renamed' }),
  },
  removePasskey: {
    callers: STAFF_AND_CUSTOMER,
    // The path's passkey answers the body's proof.
    path: async (caller) => {
      const userId = callerIds[caller as 'SUPER_ADMIN'];
      await withoutSecondFactor(t, userId);
      const given = await givePasskey(t, userId);
      removedPasskey = given.passkey;
      return { passkeyId: String(given.id) };
    },
    body: async (caller) => ({
      current_password: DEMO_PASSWORD,
      passkey: await assertionAnswer(t, removedPasskey, 'reauth', callerIds[caller as 'SUPER_ADMIN']),
    }),
  },
  getNotificationSettings: { callers: STAFF_AND_CUSTOMER },
  updateNotificationSettings: {
    callers: STAFF_AND_CUSTOMER,
    body: async () => ({ language: 'en', email_alert_kinds: ['failed_cycle'] }),
  },
  getListColumns: { callers: STAFF_AND_CUSTOMER },
  setListColumns: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ list: 'sterilizations' }),
    body: async () => ({ columns: ['received_ts', 'supplied_energy'] }),
  },
  listSavedViews: { callers: STAFF_AND_CUSTOMER, query: async () => ({ list: 'alerts' }) },
  createSavedView: {
    callers: STAFF_AND_CUSTOMER,
    body: async () => ({
      list: 'alerts',
      name: `Prop view ${unique()}`,
      search: 'state=open',
      visibility: 'private',
    }),
  },
  updateSavedView: {
    callers: STAFF_AND_CUSTOMER,
    path: async (caller) => ({ viewId: String(await ownView(caller)) }),
    body: async () => ({ name: `Prop renamed ${unique()}`, search: 'state=open', visibility: 'private' }),
  },
  deleteSavedView: {
    callers: STAFF_AND_CUSTOMER,
    path: async (caller) => ({ viewId: String(await ownView(caller)) }),
  },
  getDashboard: { callers: STAFF_AND_CUSTOMER },
  listCustomers: { callers: STAFF_AND_CUSTOMER },
  createCustomer: {
    callers: MANAGER,
    body: async () => ({ name: `Prop clinic ${unique()}`, country: 'IT' }),
  },
  getCustomerFullList: { callers: STAFF_AND_CUSTOMER },
  getCustomer: { callers: STAFF_AND_CUSTOMER, path: own },
  updateCustomer: {
    callers: MANAGER,
    path: async () => ({ id: String(await makeCustomer(t)) }),
    body: async () => ({ phone: '+39 045 000000' }),
  },
  listCustomerUsers: { callers: STAFF_AND_CUSTOMER, path: own },
  createCustomerUser: { callers: MANAGER, path: own, body: newUser },
  getCustomerUser: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ id: String(ownCustomer), userId: String(ownUser) }),
  },
  updateCustomerUser: {
    callers: MANAGER,
    path: async () => ({ id: String(ownCustomer), userId: String(await makeUser(t, ownCustomer)) }),
    body: async () => ({ name: `Renamed ${unique()}` }),
  },
  disableCustomerUser: {
    callers: MANAGER,
    path: async () => ({ id: String(ownCustomer), userId: String(await makeUser(t, ownCustomer)) }),
  },
  enableCustomerUser: {
    callers: MANAGER,
    path: async () => {
      const userId = await makeUser(t, ownCustomer);
      await t.database.pool.query('update users set deleted_at = now() where id = $1', [userId]);
      return { id: String(ownCustomer), userId: String(userId) };
    },
  },
  endUserSessions: {
    callers: MANAGER,
    path: async () => ({ id: String(ownCustomer), userId: String(ownUser) }),
  },
  resetUserSecondFactor: {
    callers: MANAGER,
    path: async () => {
      const userId = await makeUser(t, ownCustomer);
      await giveTotp(t, userId);
      return { id: String(ownCustomer), userId: String(userId) };
    },
    body: async () => ({ reason: 'Property: lost phone' }),
  },
  listCustomerDevices: { callers: STAFF_AND_CUSTOMER, path: own },
  createCustomerDevice: {
    callers: MANAGER,
    path: own,
    body: async () => ({
      device_serial: `P${unique()}Q`,
      label: 'Prop device',
      product_id: String(await productId(t)),
    }),
  },
  getCustomerDevice: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ id: String(ownCustomer), deviceId: String(ownDevice) }),
  },
  updateCustomerDevice: {
    callers: MANAGER,
    path: async () => ({ id: String(ownCustomer), deviceId: String(await makeDevice(t, ownCustomer)) }),
    body: async () => ({ label: `Relabelled ${unique()}` }),
  },
  listUsers: { callers: STAFF_AND_CUSTOMER },
  listProducts: { callers: STAFF_AND_CUSTOMER },
  listDevices: { callers: STAFF_AND_CUSTOMER },
  assignDeviceToCustomer: {
    callers: MANAGER,
    path: async () => ({
      deviceId: String(await makeDevice(t, ownCustomer)),
      customerId: String(spareCustomer),
    }),
  },
  getDeviceGaps: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ deviceId: String(ownDevice) }),
    query: async () => ({ limit: '50' }),
  },
  listDeviceKeyEvents: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ deviceId: String(ownDevice) }),
  },
  revokeDeviceKey: {
    callers: MANAGER,
    // Each request revokes the key of a device of its own.
    path: async () => ({ deviceId: String(await makeDevice(t, ownCustomer, revocableKey)), slot: '1' }),
    body: async () => ({ reason: 'Property revocation' }),
  },
  getSterilizationEvidence: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ id: String(ownRecord) }),
  },
  listSterilizations: {
    callers: STAFF_AND_CUSTOMER,
    query: async () => ({
      customerId: String(ownCustomer),
      anomaly: 'gaps',
      from: '2020-01-01',
      to: '2030-12-31',
    }),
  },
  listRecallRecords: {
    callers: STAFF_AND_CUSTOMER,
    query: async () => ({ lot: 'L-PROP-01', customerId: String(ownCustomer), from: '2020-01-01' }),
  },
  getRecallSummary: {
    callers: STAFF_AND_CUSTOMER,
    query: async () => ({ lot: 'L-PROP-01', from: '2020-01-01' }),
  },
  getSterilizationCustomerFilter: { callers: STAFF_AND_CUSTOMER },
  getSterilizationDeviceFilter: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ customerId: String(ownCustomer) }),
  },
  downloadCycleReport: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ id: String(ownRecord) }),
    query: async () => ({ lang: 'it' }),
  },
  ingestSterilizations: {
    callers: ANYONE,
    body: async () => ({ token: await deviceToken() }),
    mutations: () => [claimsMutation()],
  },
  listCertificates: { callers: STAFF_AND_CUSTOMER },
  uploadCertificate: {
    callers: MANAGER,
    body: async () => ({
      lot_number: `LOT-${unique()}`,
      validated_treatment_number: `VT-${unique()}`,
      expiration_date: '2027-03-31',
    }),
  },
  deleteCertificate: { callers: MANAGER, path: async () => ({ id: String(await makeCertificate(t)) }) },
  getCertificateDeletionImpact: {
    callers: MANAGER,
    path: async () => ({ id: String(await makeCertificate(t)) }),
  },
  downloadCertificate: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ lang: 'it', id: String(certificate) }),
  },
  getTransaction: { callers: STAFF_AND_CUSTOMER, path: async () => ({ id: transactionHash }) },
  calculateHash: { callers: STAFF_AND_CUSTOMER, body: integrityForm },
  getChainInfo: { callers: ANYONE },
  streamEvents: { callers: STAFF_AND_CUSTOMER },
  chainRpc: {
    callers: ANYONE,
    body: async () => ({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    mutations: () => [rpcMutation()],
  },
  listAudit: {
    callers: STAFF_AND_CUSTOMER,
    query: async () => ({ entityType: 'customer', entityId: String(ownCustomer), from: '2020-01-01' }),
  },
  listMailOutbox: {
    callers: STAFF_AND_CUSTOMER,
    query: async () => ({ state: 'pending', to: 'example' }),
  },
  getAnchoringCosts: {
    callers: STAFF_AND_CUSTOMER,
    query: async () => ({ months: '6' }),
  },
  createExportTicket: {
    callers: STAFF_AND_CUSTOMER,
    body: async () => ({ export: 'sterilizations-filtered' }),
  },
  listAlerts: {
    callers: STAFF_AND_CUSTOMER,
    query: async () => ({ customerId: String(ownCustomer), state: 'active', sortBy: 'kind', sortDir: 'asc' }),
  },
  countUnreadAlerts: { callers: STAFF_AND_CUSTOMER },
  acknowledgeAlert: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ alertId: String(await openAlert()) }),
    body: async () => ({ comment: 'Seen' }),
  },
  resolveAlert: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ alertId: String(await openAlert()) }),
    body: async () => ({ comment: 'Done' }),
  },
  bulkAlertAction: {
    callers: STAFF_AND_CUSTOMER,
    body: async () => ({ action: 'acknowledge', ids: [await openAlert()], comment: 'Seen' }),
  },
  bulkUserAction: {
    callers: MANAGER,
    body: async () => ({ action: 'disable', ids: [await makeUser(t, ownCustomer)] }),
  },
  exportSterilizationsFiltered: {
    callers: STAFF_AND_CUSTOMER,
    query: async (caller) => ({
      ticket: await mintTicket(t, callerIds[caller as 'SUPER_ADMIN'], 'sterilizations-filtered'),
      from: '2020-01-01',
      anomaly: 'out_of_order',
    }),
  },
  exportSterilizationsProofBundle: {
    callers: STAFF_AND_CUSTOMER,
    query: async (caller) => ({
      ticket: await mintTicket(t, callerIds[caller as 'SUPER_ADMIN'], 'sterilizations-proof-bundle'),
      from: '2020-01-01',
      anomaly: 'out_of_order',
    }),
  },
  exportRecall: {
    callers: STAFF_AND_CUSTOMER,
    query: async (caller) => ({
      ticket: await mintTicket(t, callerIds[caller as 'SUPER_ADMIN'], 'recall'),
      lot: 'L-PROP-01',
    }),
  },
  getComplianceSummary: {
    callers: STAFF_AND_CUSTOMER,
    path: own,
    query: async () => ({ from: '2025-03-01', to: '2025-03-31' }),
  },
  listCustomerReports: { callers: STAFF_AND_CUSTOMER, path: own },
  createReport: {
    callers: STAFF_AND_CUSTOMER,
    path: own,
    body: async () => ({ from: '2025-03-01', to: '2025-03-31', language: 'en' }),
  },
  getReport: { callers: STAFF_AND_CUSTOMER, path: async () => reportPath('signed') },
  downloadReportDraft: { callers: STAFF_AND_CUSTOMER, path: async () => reportPath('draft') },
  downloadReportVersion: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ ...(await reportPath('signed')), version: '1' }),
  },
  getReportReceipt: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => ({ ...(await reportPath('anchored')), version: '1' }),
  },
  signReport: {
    callers: STAFF_AND_CUSTOMER,
    path: async () => reportPath('draft'),
    body: async (caller) => {
      // Signed with the password alone (confirmTotpEnrolment's requests enrol the callers).
      await withoutSecondFactor(t, callerIds[caller as 'SUPER_ADMIN']);
      return { password: DEMO_PASSWORD, meaning: 'reviewed', comment: 'Property' };
    },
  },
  exportSterilizationsOk: {
    callers: MANAGER,
    query: async () => ({ ticket: await mintTicket(t, callerIds.SUPER_ADMIN, 'sterilizations-ok') }),
  },
};

/** A plausible valid value for a schema: the first enum value, a date, a PDF for a file. */
async function sample(schema: Node): Promise<FormField | string> {
  if (schema.format === 'binary') {
    return { name: '', file: await samplePdf(), filename: 'certificato.pdf', contentType: 'application/pdf' };
  }
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.format === 'date') return '2027-03-31';
  if (schema.type === 'integer' || schema.type === 'number') return '1';
  return 'Sample';
}

const propertiesOf = (schema: JsonSchema | undefined) => (schema?.properties ?? {}) as Record<string, Node>;
const requiredOf = (schema: JsonSchema | undefined) => (schema?.required ?? []) as string[];
const formSchema = (op: ContractOperation) => op.bodySchemas['multipart/form-data'];
const jsonSchema = (op: ContractOperation) => op.bodySchemas['application/json'];

/** The operation's valid request: schema-required values, then the entry's own values on top. */
async function baseDraft(op: ContractOperation, caller: Caller): Promise<Draft> {
  const input = INPUTS[op.operationId] as Input;
  const path: Record<string, string> = {};
  for (const [name, schema] of Object.entries(propertiesOf(op.paramsSchema))) {
    path[name] = String(await sample(schema));
  }
  Object.assign(path, await input.path?.(caller));
  const query = Object.entries((await input.query?.(caller)) ?? {});
  let body: Body = { kind: 'none' };
  const form = formSchema(op);
  const json = jsonSchema(op);
  if (form) {
    const values: Values = {};
    const properties = propertiesOf(form);
    for (const name of Object.keys(properties)) {
      const schema = properties[name] as Node;
      if (requiredOf(form).includes(name) || schema.format === 'binary') values[name] = await sample(schema);
    }
    Object.assign(values, await input.body?.(caller));
    body = {
      kind: 'form',
      fields: Object.entries(values).map(([name, value]) =>
        typeof value === 'object' && value !== null
          ? { ...(value as FormField), name }
          : { name, value: String(value) },
      ),
    };
  } else if (json) {
    body = { kind: 'json', value: (await input.body?.(caller)) ?? {} };
  }
  return { method: op.method, path, query, body, headers: {}, caller };
}

// ---- ways to be wrong ----------------------------------------------------------------------------

const HUGE = 'x'.repeat(100_000);
/** A plausible value with a control character the database or a parser may choke on. */
const controlled = fc
  .tuple(
    fc.string({ maxLength: 20 }),
    fc.oneof(
      { weight: 3, arbitrary: fc.constant('\u0000') },
      fc.constantFrom('\u0001', '\u001b', '\u007f', '\u2028', '\uFEFF', '\r\n'),
    ),
    fc.string({ maxLength: 20 }),
  )
  .map(([before, control, after]) => `${before}${control}${after}`);

const nastyString = fc.oneof(
  { weight: 3, arbitrary: controlled },
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uFFFF',
    '💥🧪',
    'e\u0301',
    'İı',
    '\u202Eevil',
    "'; drop table customers; --",
    '<script>alert(1)</script>',
    '../../../etc/passwd',
    '%00',
    '%s%n',
    '\r\n\r\n',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    'NaN',
    'Infinity',
    '-Infinity',
    '-1',
    '0',
    '-0',
    '1.5',
    '1e308',
    '-1e308',
    '1e-400',
    '9223372036854775808',
    '-9223372036854775809',
    '2147483648',
    '0x1F',
    '１２３',
    '2027-02-31',
    '0000-01-01',
    '9999-12-31',
    HUGE,
    'é'.repeat(100_000),
    '😀'.repeat(30_000),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
);

const badId = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '9223372036854775808',
    '18446744073709551616',
    '2147483648',
    '2147483647',
    'abc',
    '1.5',
    '1e3',
    '1e400',
    '0x10',
    ' 1',
    '+1',
    '00001',
    '\u0000',
    '/',
    '...',
    '💥',
    'null',
    'NaN',
    'Infinity',
    'x'.repeat(300),
  ),
  fc.integer().map(String),
  fc.bigInt().map(String),
);

const extraName = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    '_method',
    'id',
    'customer_id',
    'role',
    'deleted_at',
    '',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
);

const extremeNumber = fc.oneof(
  fc.constantFrom(-1, -0, 0.5, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 5e-324, 9_999_999_999.999),
  fc.double({ noNaN: true }),
  fc.integer(),
);
/** Any JSON value, including the extremes. */
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), extremeNumber, nastyString);

/** fast-check prints a counterexample's mutations by their labels. */
const mutation = (label: string, apply: Mutation['apply']): Mutation =>
  Object.assign({ label, apply }, { [fc.toStringMethod]: () => label });
const short = (value: unknown) => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 40)}…(${text.length})` : text;
};

function formFields(draft: Draft): FormField[] {
  return draft.body.kind === 'form' ? draft.body.fields : [];
}
const withFields = (draft: Draft, fields: FormField[]): Draft => ({
  ...draft,
  body: { kind: 'form', fields },
});

/** Every wrong request this operation can get from its own description. */
function mutationsFor(op: ContractOperation): fc.Arbitrary<Mutation> {
  // Wrong values in the parts a handler reads weigh most; the rest are shapes the parsers refuse.
  const options: fc.WeightedArbitrary<Mutation>[] = [];
  const add = (weight: number, ...arbitraries: fc.Arbitrary<Mutation>[]) => {
    for (const arbitrary of arbitraries) options.push({ weight, arbitrary });
  };
  const pathNames = Object.keys(propertiesOf(op.paramsSchema));
  if (pathNames.length > 0) {
    add(
      3,
      fc
        .tuple(fc.constantFrom(...pathNames), badId)
        .map(([name, value]) =>
          mutation(`path ${name}=${short(value)}`, (d) => ({ ...d, path: { ...d.path, [name]: value } })),
        ),
    );
  }
  const queryNames = [
    ...Object.keys(propertiesOf(op.querySchema)),
    'unknown',
    '__proto__',
    'page[]',
    'ticket',
  ];
  add(
    3,
    fc
      .tuple(fc.constantFrom(...queryNames), fc.oneof(nastyString, badId), fc.boolean())
      .map(([name, value, repeat]) =>
        mutation(`query ${name}=${short(value)}${repeat ? ' (repeated)' : ''}`, (d) => ({
          ...d,
          query: repeat
            ? [...d.query, [name, value], [name, value]]
            : [...d.query.filter(([key]) => key !== name), [name, value]],
        })),
      ),
  );

  const form = formSchema(op);
  if (form) {
    const declared = Object.keys(propertiesOf(form));
    const fileValue = fc.constantFrom<FormField>(
      {
        name: '',
        file: Buffer.from('%PDF-1.7 not really'),
        filename: 'x.pdf',
        contentType: 'application/pdf',
      },
      { name: '', file: Buffer.alloc(0), filename: '', contentType: 'application/octet-stream' },
      { name: '', file: Buffer.from('<html>'), filename: '../../evil\u0000.pdf', contentType: 'text/html' },
    );
    const textValue = nastyString.map((value) => ({ name: '', value }) as FormField);
    const jsonPart = anyJson.map(
      (value) =>
        ({ name: '', value: JSON.stringify(value) ?? 'null', contentType: 'application/json' }) as FormField,
    );
    const brokenJsonPart = fc.constant<FormField>({
      name: '',
      value: '{"a":',
      contentType: 'application/json',
    });
    const fieldValue = fc.oneof(
      { weight: 6, arbitrary: textValue },
      { weight: 1, arbitrary: fileValue },
      { weight: 1, arbitrary: jsonPart },
      { weight: 1, arbitrary: brokenJsonPart },
    );
    if (declared.length > 0) {
      add(
        6,
        fc
          .tuple(fc.constantFrom(...declared), fieldValue)
          .map(([name, value]) =>
            mutation(
              `field ${name}=${short('file' in value ? `file ${value.filename}` : value.value)}`,
              (d) =>
                withFields(d, [...formFields(d).filter((field) => field.name !== name), { ...value, name }]),
            ),
          ),
      );
      add(
        1,
        fc.constantFrom(...declared).map((name) =>
          mutation(`drop field ${name}`, (d) =>
            withFields(
              d,
              formFields(d).filter((field) => field.name !== name),
            ),
          ),
        ),
        fc.constantFrom(...declared).map((name) =>
          mutation(`field ${name} twice`, (d) => {
            const fields = formFields(d);
            const existing = fields.find((field) => field.name === name) ?? { name, value: 'again' };
            return withFields(d, [...fields, existing]);
          }),
        ),
      );
    }
    add(
      1,
      fc.constant(mutation('no fields', (d) => withFields(d, []))),
      fc
        .tuple(extraName, fieldValue)
        .map(([name, value]) =>
          mutation(`extra field ${short(name)}`, (d) =>
            withFields(d, [...formFields(d), { ...value, name }]),
          ),
        ),
      fc.constant(
        mutation('file over the upload limit', (d) =>
          withFields(d, [
            ...formFields(d),
            {
              name: 'italian_file',
              file: Buffer.alloc(UPLOAD_MAX_BYTES + 1, 0x25),
              filename: 'big.pdf',
              contentType: 'application/pdf',
            },
          ]),
        ),
      ),
      fc.constant(
        mutation('two files', (d) =>
          withFields(d, [
            ...formFields(d),
            { name: 'a', file: Buffer.from('%PDF-'), filename: 'a.pdf', contentType: 'application/pdf' },
            { name: 'b', file: Buffer.from('%PDF-'), filename: 'b.pdf', contentType: 'application/pdf' },
          ]),
        ),
      ),
      fc.constant(
        mutation('too many fields', (d) =>
          withFields(d, [
            ...formFields(d),
            ...Array.from({ length: 80 }, (_, i) => ({ name: `f${i}`, value: 'x' })),
          ]),
        ),
      ),
      fc.constant(
        mutation('field over the field size limit', (d) =>
          withFields(d, [...formFields(d), { name: 'notes', value: 'n'.repeat(2 * 1024 * 1024) }]),
        ),
      ),
      fc
        .tuple(fc.nat(), fc.constantFrom('truncated', 'wrong boundary', 'no boundary', 'junk'))
        .map(([cut, kind]) =>
          mutation(`malformed multipart: ${kind}`, (d) => {
            const encoded = multipart(formFields(d), BOUNDARY);
            const payloads: Record<string, [string, Buffer]> = {
              truncated: [
                `multipart/form-data; boundary=${BOUNDARY}`,
                encoded.subarray(0, cut % Math.max(1, encoded.length)),
              ],
              'wrong boundary': ['multipart/form-data; boundary=not-the-boundary', encoded],
              'no boundary': ['multipart/form-data', encoded],
              junk: [
                `multipart/form-data; boundary=${BOUNDARY}`,
                Buffer.from(`--${BOUNDARY}\r\n\u0000\u00ff\r\n\r\n--${BOUNDARY}`),
              ],
            };
            const [contentType, payload] = payloads[kind] as [string, Buffer];
            return { ...d, body: { kind: 'raw', contentType, payload } };
          }),
        ),
    );
  }

  const json = jsonSchema(op);
  if (json) {
    const declared = Object.keys(propertiesOf(json));
    const jsonObject = (d: Draft): Record<string, unknown> =>
      d.body.kind === 'json' &&
      typeof d.body.value === 'object' &&
      d.body.value !== null &&
      !Array.isArray(d.body.value)
        ? (d.body.value as Record<string, unknown>)
        : {};
    const names = declared.length > 0 ? declared : ['value'];
    add(
      1,
      fc.tuple(fc.constantFrom(...names), anyJson).map(([name, value]) =>
        mutation(`json ${name}=${short(value)}`, (d) => ({
          ...d,
          body: { kind: 'json', value: { ...jsonObject(d), [name]: value } },
        })),
      ),
      fc.constantFrom(...names).map((name) =>
        mutation(`json without ${name}`, (d) => {
          const { [name]: _dropped, ...rest } = jsonObject(d);
          return { ...d, body: { kind: 'json', value: rest } };
        }),
      ),
      fc.tuple(extraName, anyJson).map(([name, value]) =>
        mutation(`json extra ${short(name)}`, (d) => ({
          ...d,
          body: { kind: 'json', value: { ...jsonObject(d), [name]: value } },
        })),
      ),
      anyJson.map((value) =>
        mutation(`json body ${short(value)}`, (d) => ({ ...d, body: { kind: 'json', value } })),
      ),
      fc
        .constantFrom(
          '{',
          '{"a":1,}',
          '\u0000',
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{"x":1}}}',
          '['.repeat(5000),
          '"\\ud800"',
        )
        .map((text) =>
          mutation(`json text ${short(text)}`, (d) => ({
            ...d,
            body: { kind: 'raw', contentType: 'application/json', payload: Buffer.from(text) },
          })),
        ),
      fc.constant(
        mutation('json over the body limit', (d) => ({
          ...d,
          body: { kind: 'json', value: { ...jsonObject(d), padding: 'p'.repeat(1_100_000) } },
        })),
      ),
    );
  }

  // The wrong media type, whatever the operation expects.
  add(
    1,
    fc
      .constantFrom<[string, string | undefined, string]>(
        ['as JSON', 'application/json', '{"name":"x"}'],
        ['as urlencoded', 'application/x-www-form-urlencoded', 'name=x&country=IT'],
        ['as text', 'text/plain', 'name=x'],
        ['as xml', 'application/xml', '<a/>'],
        ['without content type', undefined, 'name=x'],
        [
          'as multipart with a charset',
          'multipart/form-data; charset=utf-7; boundary=b',
          '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--b--\r\n',
        ],
        ['with a bad content type', 'invalid/ /type;;', 'x'],
      )
      .map(([label, contentType, payload]) =>
        mutation(`body ${label}`, (d) => ({
          ...d,
          body: { kind: 'raw', contentType, payload: Buffer.from(payload) },
        })),
      ),
  );

  if (op.requiresSession) {
    add(
      1,
      fc
        .constantFrom(
          'Bearer',
          'Bearer ',
          'Bearer not-a-token',
          `Bearer ${'A'.repeat(5000)}`,
          'Basic dXNlcjpwYXNz',
          'bearer  two  spaces',
          'Bearer %00',
          'Bearer ../../',
        )
        .map((header) =>
          mutation(`authorization ${short(header)}`, (d) => ({
            ...d,
            noSession: true,
            headers: { ...d.headers, authorization: header },
          })),
        ),
      fc.constant(mutation('no session', (d) => ({ ...d, noSession: true }))),
      fc.constant(
        mutation('session token in the query string', async (d) => ({
          ...d,
          noSession: true,
          query: [...d.query, ['access_token', await mintSession(t, callerIds.SUPER_ADMIN)]],
        })),
      ),
    );
  }

  if (op.method === 'PATCH' || op.method === 'PUT' || op.method === 'DELETE') {
    add(
      1,
      fc.constantFrom(op.method, 'GET', 'TRACE', '', 'patch', '\u0000').map((override) =>
        mutation(`POST with _method=${short(override)}`, (d) => ({
          ...d,
          method: 'POST',
          body: {
            kind: 'form',
            fields: [{ name: '_method', value: override }, ...formFields(d)],
          },
        })),
      ),
    );
  }
  add(4, ...(INPUTS[op.operationId]?.mutations?.() ?? []));
  return fc.oneof(...options);
}

/** The records inside a signed device token, broken field by field (the shared claims schema's fields). */
function claimsMutation(): fc.Arbitrary<Mutation> {
  const fields = Object.keys(sterilizationClaimSchema.fields);
  const resign = (
    label: string,
    change: (claims: Record<string, unknown>, record: Record<string, unknown>) => void,
  ) =>
    mutation(label, async (d) => {
      const record = await validRecord();
      const claims = claimsOf(record);
      change(claims, record);
      return { ...d, body: { kind: 'json', value: { token: await deviceToken(claims) } } };
    });
  return fc.oneof(
    fc.tuple(fc.constantFrom(...fields), anyJson).map(([field, value]) =>
      resign(`claim ${field}=${short(value)}`, (_claims, record) => {
        record[field] = value;
      }),
    ),
    fc
      .constantFrom(...fields)
      .map((field) => resign(`claim without ${field}`, (_claims, record) => void delete record[field])),
    fc.tuple(extraName, anyJson).map(([name, value]) =>
      resign(`claim extra ${short(name)}`, (_claims, record) => {
        record[name] = value;
      }),
    ),
    fc
      .tuple(fc.constantFrom('iss', 'iat', 'exp', 'sterilization', 'sterilizations', 'nbf'), anyJson)
      .map(([name, value]) =>
        resign(`token ${name}=${short(value)}`, (claims) => {
          claims[name] = value;
        }),
      ),
    fc.constant(
      resign('101 records', (claims, record) => {
        delete claims.sterilization;
        claims.sterilizations = Array.from({ length: 101 }, (_, i) => ({
          ...record,
          progressive_id: Number(record.progressive_id) + i,
        }));
      }),
    ),
    fc.constant(
      resign('no records', (claims) => {
        claims.sterilizations = [];
      }),
    ),
    fc.constantFrom('none', 'HS256', 'tampered').map((kind) =>
      mutation(`token signature ${kind}`, async (d) => {
        const [header, payload, signature] = (await deviceToken()).split('.') as [string, string, string];
        const forged =
          kind === 'tampered'
            ? `${header}.${payload}.${signature.slice(0, -2)}AA`
            : `${Buffer.from(JSON.stringify({ alg: kind, typ: 'JWT' })).toString('base64url')}.${payload}.${signature}`;
        return { ...d, body: { kind: 'json', value: { token: forged } } };
      }),
    ),
  );
}

/** Read-only JSON-RPC calls with arbitrary parameters, forwarded to the devnet. */
function rpcMutation(): fc.Arbitrary<Mutation> {
  const call = fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null)),
    method: fc.oneof(
      fc.constantFrom(...READ_ONLY_METHODS, 'eth_sendTransaction', 'debug_traceTransaction'),
      fc.string({ maxLength: 64 }),
    ),
    params: fc.array(anyJson, { maxLength: 4 }),
  });
  return fc
    .oneof(call, fc.array(call, { minLength: 1, maxLength: 20 }))
    .map((value) => mutation(`rpc ${short(value)}`, (d) => ({ ...d, body: { kind: 'json', value } })));
}

// ---- the property -------------------------------------------------------------------------------

/** The audit trail records failed logins, signatures and re-authentications, the one write a refused request makes by design. */
async function digest(): Promise<Digest> {
  return databaseDigest(t, {
    'public.audit_log': `action not in ('login_failed', 'sign_failed', 'reauth_failed', 'second_factor_failed')`,
    // A wrong second-factor code counts against its account and its step token (docs/accounts.md §5).
    'public.totp_factors': 'false',
    'public.login_steps': 'false',
    // A passkey's answer takes its challenge whatever follows, so that none is answered twice (§6).
    'public.webauthn_challenges': 'false',
  });
}

async function check(op: ContractOperation, draft: Draft, labels: string[]) {
  const context = `${op.operationId} [${draft.caller}] ${labels.join(' · ')}`;
  const token = await sessionFor(op, draft);
  // The alert evaluation of an earlier accepted ingestion runs after its answer: let it finish first.
  await t.app.alerts.idle();
  const before = await digest();
  const response = await send(op, draft, token);
  expect(response.statusCode, `${context}: ${response.body.slice(0, 200)}`).toBeLessThan(500);
  expectSecurityHeaders(response, context);
  if (response.statusCode >= 300) {
    expectErrorEnvelope(response, context);
    expect(await digest(), `${context}: refused (${response.statusCode}) but the database changed`).toEqual(
      before,
    );
  } else if (String(response.headers['content-type']).startsWith('application/json')) {
    expectContract(op.operationId, response);
  }
  return response;
}

describe('bad input, everywhere', () => {
  it('has a request generator for every operation of the contract', () => {
    expect(Object.keys(INPUTS).sort()).toEqual(OPERATIONS.map((op) => op.operationId).sort());
  });

  describe('the unbroken requests reach their handlers', () => {
    for (const op of OPERATIONS) {
      it(`${op.operationId} answers 2xx`, async () => {
        const input = INPUTS[op.operationId] as Input;
        const response = await check(op, await baseDraft(op, input.callers[0] as Caller), ['as generated']);
        expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(300);
      });
    }
  });

  describe('broken requests are refused cleanly', () => {
    for (const op of OPERATIONS) {
      it(`${op.operationId}`, async () => {
        const input = INPUTS[op.operationId] as Input;
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...input.callers),
            fc.array(mutationsFor(op), { minLength: 1, maxLength: 3 }),
            async (caller, mutations) => {
              let draft = await baseDraft(op, caller);
              for (const item of mutations) draft = await item.apply(draft, op);
              await check(
                op,
                draft,
                mutations.map((item) => item.label),
              );
            },
          ),
          { numRuns: RUNS, endOnFailure: true },
        );
      }, 120_000);
    }
  });
});
