/**
 * The bare baseline of `npm run bench:cost` (not part of the product): a Fastify and `pg` server that
 * does only what a request of each kind must do, against the same database the product uses:
 *   - a list page: look up the bearer session, run the page query, answer its rows as JSON;
 *   - a device token: find the device by `iss`, verify the RS256 signature with its key, insert the record.
 * Whatever uvtrace spends beyond this (contract validation, access rules, envelope, hooks, evidence,
 * counters, events) is the overhead bench:cost reports as a ratio.
 *
 *   DATABASE_URL=… PORT=… node scripts/bench/baseline-server.ts
 */
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { importSPKI, jwtVerify } from 'jose';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
const keys = new Map<string, Promise<CryptoKey>>();

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

app.get('/api/v1/health', async () => ({ status: 'success' }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
