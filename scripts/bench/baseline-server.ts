/**
 * The bare baseline of `npm run bench:cost` (not part of the product): a Fastify and `pg` server that
 * does only what a request of each kind must do, against the same database the product uses:
 *   - a list page: look up the bearer session, run the page query, answer its rows as JSON;
 *   - a device token: find the device by `iss`, verify the RS256 signature with its key, insert the record;
 *   - a record's evidence, a customer, a customer's devices: the session, then the row(s) as JSON;
 *   - a login: find the user by e-mail, verify the argon2 hash, insert a session;
 *   - the CSV export: the session, then every visible record in keyset batches, each row as a CSV line.
 * Whatever uvtrace spends beyond this (contract validation, access rules, envelope, hooks, evidence,
 * counters, events) is the overhead bench:cost reports as a ratio.
 *
 *   DATABASE_URL=… PORT=… node scripts/bench/baseline-server.ts
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import argon2 from 'argon2';
import Fastify from 'fastify';
import { importSPKI, jwtVerify } from 'jose';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
const keys = new Map<string, Promise<CryptoKey>>();
await app.register(multipart, { attachFieldsToBody: 'keyValues' });

async function session(authorization: string | undefined) {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
  const { rows } = await pool.query(
    `select u.id, u.role, u.customer_id from sessions s join users u on u.id = s.user_id
     where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now()`,
    [createHash('sha256').update(token).digest('hex')],
  );
  return rows[0] as { id: number; role: string; customer_id: number } | undefined;
}

app.get('/api/v1/sterilizations', async (request, reply) => {
  const user = await session(request.headers.authorization);
  if (!user) return reply.code(401).send({ message: 'session_expired' });
  const query = request.query as { page?: string; customerId?: string };
  const page = Math.max(1, Math.floor(Number(query.page ?? 1)) || 1);
  const scoped =
    user.role === 'CUSTOMER' ? user.customer_id : query.customerId ? Number(query.customerId) : null;
  // No total: the least a page needs is its rows (a window count would scan every matching row). The
  // bounds are written into the statement, as the product does, so the planner sees them.
  const offset = (page - 1) * 20;
  const { rows } = await pool.query(
    `select s.*, d.device_serial, c.name as customer_name
     from sterilizations s join devices d on d.id = s.device_id join customers c on c.id = s.customer_id
     where ${scoped === null ? 'true' : 's.customer_id = $1'}
     order by s.received_ts desc, s.id desc limit 20 offset ${offset}`,
    scoped === null ? [] : [scoped],
  );
  return { data: rows };
});

/** Staff see every customer; a clinic user only its own. */
const scopeOf = (user: { role: string; customer_id: number }) =>
  user.role === 'CUSTOMER' ? user.customer_id : null;

app.get('/api/v1/sterilizations/evidence/:id', async (request, reply) => {
  const user = await session(request.headers.authorization);
  if (!user) return reply.code(401).send({ message: 'session_expired' });
  const { rows } = await pool.query(
    `select s.id, s.token_id, s.token_position, s.cycle_ts, s.received_ts, t.jws, t.sha256, t.issued_at,
       e.slot, e.thumbprint, e.public_key
     from sterilizations s left join device_tokens t on t.id = s.token_id
       left join device_key_events e on e.id = t.key_event_id
     where s.id = $1 and ($2::int is null or s.customer_id = $2)`,
    [Number((request.params as { id: string }).id), scopeOf(user)],
  );
  if (rows.length === 0) return reply.code(404).send({ message: 'not_found' });
  return { data: rows[0] };
});

app.get('/api/v1/customers/:id', async (request, reply) => {
  const user = await session(request.headers.authorization);
  if (!user) return reply.code(401).send({ message: 'session_expired' });
  const id = Number((request.params as { id: string }).id);
  const scoped = scopeOf(user);
  if (scoped !== null && scoped !== id) return reply.code(404).send({ message: 'not_found' });
  const { rows } = await pool.query('select * from customers where id = $1', [id]);
  if (rows.length === 0) return reply.code(404).send({ message: 'not_found' });
  return { data: rows[0] };
});

app.get('/api/v1/customers/:id/devices', async (request, reply) => {
  const user = await session(request.headers.authorization);
  if (!user) return reply.code(401).send({ message: 'session_expired' });
  const id = Number((request.params as { id: string }).id);
  const scoped = scopeOf(user);
  if (scoped !== null && scoped !== id) return reply.code(404).send({ message: 'not_found' });
  const { rows } = await pool.query(
    `select d.*, p.name as product_name from devices d left join products p on p.id = d.product_id
     where d.customer_id = $1 and d.deleted_at is null order by d.device_serial limit 20`,
    [id],
  );
  return { data: rows };
});

app.post('/api/v1/auth/login', async (request, reply) => {
  const { email, password } = request.body as { email: string; password: string };
  const { rows } = await pool.query(
    'select id, password_hash from users where email = $1 and deleted_at is null',
    [email],
  );
  const user = rows[0] as { id: number; password_hash: string } | undefined;
  if (!user || !(await argon2.verify(user.password_hash, password)))
    return reply.code(401).send({ message: 'invalid_credentials' });
  const token = randomBytes(32).toString('base64url');
  await pool.query(
    `insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '8 hours')`,
    [user.id, createHash('sha256').update(token).digest('hex')],
  );
  return { data: { token } };
});

app.post('/api/v1/ingest/sterilizations', async (request, reply) => {
  const { token } = request.body as { token: string };
  const iss = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).iss as string;
  const { rows } = await pool.query(
    'select id, customer_id, public_key from devices where device_serial = $1 and deleted_at is null',
    [iss],
  );
  const device = rows[0] as { id: number; customer_id: number; public_key: string } | undefined;
  if (!device) return reply.code(401).send({ message: 'invalid_token' });
  if (!keys.has(device.public_key)) keys.set(device.public_key, importSPKI(device.public_key, 'RS256'));
  const key = await (keys.get(device.public_key) as Promise<CryptoKey>);
  const { payload } = await jwtVerify(token, key, { algorithms: ['RS256'] });
  const record = payload.sterilization as Record<string, number | string | null>;
  const inserted = await pool.query(
    `insert into sterilizations (device_id, customer_id, progressive_id, supplied_energy, nominal_time,
       effective_time, residual_lamp_life, status_code, latitude, longitude, consumables_lot, lot_progressive_id, notes)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     on conflict (device_id, progressive_id) do nothing returning id`,
    [
      device.id,
      device.customer_id,
      record.progressive_id,
      record.supplied_energy,
      record.nominal_time,
      record.effective_time,
      record.residual_lamp_life,
      record.status_code,
      record.latitude ?? null,
      record.longitude ?? null,
      record.consumables_lot ?? null,
      record.lot_progressive_id ?? null,
      record.notes ?? null,
    ],
  );
  return { data: inserted.rows };
});

const csvCell = (value: unknown) => {
  if (value === null || value === undefined) return '';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

async function* exportCsv(scoped: number | null): AsyncGenerator<string> {
  let cursor: { ts: Date; id: number } | null = null;
  let header = true;
  for (;;) {
    const parameters: unknown[] = [scoped];
    if (cursor) parameters.push(cursor.ts, cursor.id);
    const { rows } = await pool.query(
      `select s.*, d.device_serial, c.name as customer_name
       from sterilizations s join devices d on d.id = s.device_id join customers c on c.id = s.customer_id
       where ($1::int is null or s.customer_id = $1) ${cursor ? 'and (s.received_ts, s.id) < ($2, $3)' : ''}
       order by s.received_ts desc, s.id desc limit 5000`,
      parameters,
    );
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0] as object);
    let text = header ? `${columns.join(',')}\n` : '';
    header = false;
    for (const row of rows) text += `${columns.map((column) => csvCell(row[column])).join(',')}\n`;
    yield text;
    const last = rows[rows.length - 1] as { received_ts: Date; id: number };
    cursor = { ts: last.received_ts, id: last.id };
    if (rows.length < 5000) return;
  }
}

app.get('/export/sterilizations-filtered', async (request, reply) => {
  const user = await session(request.headers.authorization);
  if (!user) return reply.code(401).send({ message: 'session_expired' });
  reply.header('content-type', 'text/csv; charset=utf-8');
  return reply.send(Readable.from(exportCsv(scopeOf(user))));
});

app.get('/api/v1/health', async () => ({ status: 'success' }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
