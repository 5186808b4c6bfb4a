/**
 * What the generated contract tests (src/server/contract/*.test.ts) share: the operations of
 * openapi.yaml, sessions and export tickets minted straight into the database (so a test can spend
 * one per request without argon2 or a login throttle), fixtures the schema cannot invent (a stored
 * certificate, a signed device token), a digest of every table to prove that a refused request wrote
 * nothing, and the checks every answer must pass (envelope, security headers).
 */

import { createHash } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { CompactSign, importPKCS8 } from 'jose';
import { PDFDocument } from 'pdf-lib';
import { expect } from 'vitest';
import { type ContractOperation, loadContract } from '../contract/load-contract.ts';
import type { ExportName } from '../modules/sterilizations/tickets.ts';
import { hashToken, newToken } from '../security/tokens.ts';
import { postChainRpc, rpcCall } from './chain-rpc.ts';
import { unique, userIdOf } from './fixtures.ts';
import type { TestApp } from './test-app.ts';

export const contract = loadContract();
export const OPERATIONS: ContractOperation[] = contract.operations;

/** A one-time export ticket for this user, as createExportTicket would make it. */
export async function mintTicket(t: TestApp, userId: number, exportName: ExportName): Promise<string> {
  const ticket = newToken();
  // A ticket belongs to a live session of its user: one made for it here.
  await t.database.pool.query(
    `with session as (
       insert into sessions (user_id, token_hash, expires_at) values ($2, $4, now() + interval '1 hour') returning id)
     insert into export_tickets (ticket_hash, user_id, session_id, export, expires_at)
     select $1, $2, session.id, $3, now() + interval '1 minute' from session`,
    [hashToken(ticket), userId, exportName, hashToken(newToken())],
  );
  return ticket;
}

let pdf: Promise<Buffer> | undefined;
/** A small real one-page PDF. */
export function samplePdf(): Promise<Buffer> {
  pdf ??= (async () => {
    const document = await PDFDocument.create();
    document.addPage([200, 200]);
    return Buffer.from(await document.save());
  })();
  return pdf;
}

/** A stored certificate with both files, written directly (uploads are what the tests exercise). */
export async function makeCertificate(t: TestApp): Promise<number> {
  const tag = unique();
  const data = await samplePdf();
  const inserted = await t.database.pool.query(
    `insert into certificates (lot_number, validated_treatment_number, expiration_date, it_file_name, en_file_name)
     values ($1, $2, '2027-03-31', $3, $4) returning id`,
    [`LOT-${tag}`, `VT-${tag}`, `certificato-${tag}.pdf`, `checklist-${tag}.pdf`],
  );
  const id = Number(inserted.rows[0].id);
  for (const language of ['it', 'en']) {
    await t.database.pool.query(
      `insert into certificate_files (certificate_id, language, content, content_type, size_bytes)
       values ($1, $2, $3, 'application/pdf', $4)`,
      [id, language, data, data.length],
    );
  }
  return id;
}

/** A compact RS256 JWT over these claims, signed with a device's private key (PKCS#8 PEM). */
export async function signDeviceToken(claims: object, privateKeyPem: string): Promise<string> {
  const key = await importPKCS8(privateKeyPem, 'RS256');
  // CompactSign, not SignJWT: the bad-input test signs claims of any shape (iat: null, exp: "x"), which
  // SignJWT refuses to build; the bytes are the same JWT either way.
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .sign(key);
}

/** A transaction on the devnet (the contract's deployment), found through the public read-only RPC. */
export async function devnetTransactionHash(t: TestApp): Promise<string> {
  for (let block = 1; block < 10; block++) {
    const tag = `0x${block.toString(16)}`;
    const response = await postChainRpc(t.app, rpcCall('eth_getBlockByNumber', [tag, false]));
    const hash = response.json().result?.transactions?.[0];
    if (typeof hash === 'string') return hash;
  }
  throw new Error('no transaction on the devnet');
}

/**
 * A compliance report of this customer, made in the database (its draft is any PDF): with `signed`, a
 * signed version 1; with `anchored`, that version in a mined block too.
 */
export async function makeReport(
  t: TestApp,
  customerId: number,
  state: 'draft' | 'signed' | 'anchored' = 'draft',
): Promise<number> {
  const pdf = await samplePdf();
  const sha = createHash('sha256').update(pdf).digest('hex');
  const admin = await userIdOf(t, 'admin@example.com');
  const made = await t.database.pool.query(
    `insert into reports (customer_id, period_from, period_to, language, created_by, draft_pdf, draft_sha256)
     values ($1, '2025-03-01', '2025-03-31', 'en', $2, $3, $4) returning id`,
    [customerId, admin, pdf, sha],
  );
  const reportId = Number(made.rows[0].id);
  if (state === 'draft') return reportId;
  let block: number | null = null;
  if (state === 'anchored') {
    const mined = await t.database.pool.query(
      `insert into blockchain_data_blocks (status, network, merkle_root, transaction_hash, hashing_version)
       values ('MINED', 'devnet', $1, $1, 2) returning id`,
      [`0x${'22'.repeat(32)}`],
    );
    block = Number(mined.rows[0].id);
  }
  await t.database.pool.query(
    `insert into report_versions (report_id, version, pdf, sha256, size_bytes, signer_user_id, signer_name, signer_email,
       meaning, signed_at, blockchain_data_block_id, merkle_proof)
     values ($1, 1, $2, $3, $4, $5, 'Admin', 'admin@example.com', 'reviewed', now(), $6, $7)`,
    [reportId, pdf, sha, pdf.length, admin, block, block === null ? null : '{}'],
  );
  return reportId;
}

// ---- every table, digested --------------------------------------------------------------------

export type Digest = Record<string, string>;

/**
 * Counters every request to a limited call writes by design, refused or not (the rate limits count
 * each request, the login throttle each failure): left out of every digest.
 */
const COUNTER_TABLES = ['public.login_throttle', 'public.rate_limit_hits'];

let tableList: Promise<string[]> | undefined;
async function tables(t: TestApp): Promise<string[]> {
  tableList ??= t.database.pool
    .query<{ name: string }>(
      `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name
       from information_schema.tables
       where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
       order by 1`,
    )
    .then((result) => result.rows.map((row) => row.name).filter((name) => !COUNTER_TABLES.includes(name)));
  return tableList;
}

/**
 * An md5 of every row of every table but the counters (the migrations' own table included), by table. `only` narrows a
 * table to the rows matching a condition, for a write a test expects (and says why).
 */
export async function databaseDigest(t: TestApp, only: Record<string, string> = {}): Promise<Digest> {
  const names = await tables(t);
  const query = names
    .map((name, i) => {
      const where = only[name] ? ` where ${only[name]}` : '';
      return `select ${i} as i, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as digest from ${name} x${where}`;
    })
    .join(' union all ');
  const result = await t.database.pool.query<{ i: number; digest: string }>(query);
  const digest: Digest = {};
  for (const row of result.rows) digest[names[Number(row.i)] as string] = row.digest;
  return digest;
}

/** What the contract tests read of an answer (inject()'s response, or a stream's beginning). */
export interface InjectedAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json(): unknown;
}

/**
 * inject() for every operation, the event stream included: inject() resolves when an answer ends,
 * which a stream never does, so the answer is taken as a stream and an open event stream is judged by
 * its first chunk (then left, and ended by the app's close); any other answer is read whole.
 */
export async function injectAnswer(app: FastifyInstance, options: InjectOptions): Promise<InjectedAnswer> {
  const response = await app.inject({ ...options, payloadAsStream: true });
  const stream = response.stream();
  let body = '';
  const streaming = String(response.headers['content-type']).startsWith('text/event-stream');
  for await (const chunk of stream) {
    body += String(chunk);
    if (streaming) break;
  }
  if (streaming) stream.destroy();
  return { statusCode: response.statusCode, headers: response.headers, body, json: () => JSON.parse(body) };
}

// ---- checks every answer passes ----------------------------------------------------------------

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const MESSAGE_ID = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;
/** What a stack trace, a driver error or SQL looks like in text. */
const INTERNALS =
  /(\bat [\w$.<>]+ \(|\.ts:\d+|node_modules|\bselect\b.+\bfrom\b|\binsert into\b|\bupdate \w+ set\b|\bdelete from\b|relation "|violates|syntax error|duplicate key|drizzle|postgres|pglite)/i;

/** An error answer: the envelope, JSON, with a message id and nothing internal. */
export function expectErrorEnvelope(response: Answer, context = ''): void {
  const where = `${context} ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(String(response.headers['content-type']), where).toMatch(/^application\/json/);
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    throw new Error(`not JSON: ${where}`);
  }
  expect(body, where).toBeTypeOf('object');
  const envelope = body as Record<string, unknown>;
  expect(Object.keys(envelope).sort(), where).toEqual(['data', 'message', 'status']);
  expect(envelope.status, where).toBe('error');
  expect(envelope.message, where).toMatch(MESSAGE_ID);
  const data = envelope.data;
  if (data !== null) {
    expect(typeof data === 'object' && !Array.isArray(data), where).toBe(true);
    for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
      if (field === 'retry_after_seconds') expect(value, where).toBeTypeOf('number');
      else {
        expect(Array.isArray(value), where).toBe(true);
        for (const id of value as unknown[]) expect(id, where).toMatch(MESSAGE_ID);
      }
    }
  }
  expect(response.body, where).not.toMatch(INTERNALS);
}

/** The strict headers every answer carries, whatever its status or type (plugins/security-headers.ts). */
export function expectSecurityHeaders(response: Answer, context = ''): void {
  const where = `${context} ${response.statusCode}`;
  const csp = String(response.headers['content-security-policy'] ?? '');
  expect(csp, where).toMatch(/(^|;)\s*default-src 'self'/);
  expect(csp, where).toMatch(/(^|;)\s*script-src 'self'(;|$)/);
  expect(csp, where).toMatch(/(^|;)\s*script-src-attr 'none'/);
  expect(csp, where).toMatch(/(^|;)\s*object-src 'none'/);
  expect(csp, where).toMatch(/(^|;)\s*frame-ancestors 'none'/);
  expect(csp, where).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(response.headers['x-content-type-options'], where).toBe('nosniff');
  expect(response.headers['referrer-policy'], where).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-frame-options'], where).toBe('DENY');
  expect(response.headers['x-powered-by'], where).toBeUndefined();
}
