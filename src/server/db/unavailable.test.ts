import { createServer, type Server } from 'node:net';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../http/envelope.ts';
import { openTestDatabase } from '../test/test-database.ts';
import type { Database } from './client.ts';
import { describeError } from './error-causes.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isDatabaseUnavailable', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('is true when nothing listens where the database should be, also through drizzle', async () => {
    const port = await closedPort();
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres' });
    expect(isDatabaseUnavailable(await rejection(client.connect()))).toBe(true);

    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres' });
    const wrapped = await rejection(drizzle({ client: pool }).execute(sql`select 1`));
    expect(wrapped).toBeInstanceOf(Error);
    expect((wrapped as Error).message).toMatch(/select 1/); // drizzle's own error, the driver's as cause
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    await pool.end();
  });

  it('is true when the connection is cut, and for a pool already closed', async () => {
    const cutting = createServer((socket) => socket.destroy());
    const port = await listening(cutting);
    try {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres' });
      expect(isDatabaseUnavailable(await rejection(client.connect()))).toBe(true);
    } finally {
      await new Promise((resolve) => cutting.close(resolve));
    }

    const pool = new pg.Pool({ host: '127.0.0.1', port: await closedPort() });
    await pool.end();
    expect(isDatabaseUnavailable(await rejection(pool.query('select 1')))).toBe(true);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'is true when PostgreSQL ends the session (57P01, as in a shutdown)',
    async () => {
      const client = await database.pool.connect();
      try {
        const error = await rejection(client.query('select pg_terminate_backend(pg_backend_pid())'));
        expect((error as { code?: string }).code).toBe('57P01');
        expect(isDatabaseUnavailable(error)).toBe(true);
      } finally {
        client.release(true);
      }
    },
  );

  it('is false for what the request or the code did wrong', async () => {
    const syntax = await rejection(database.pool.query('selec 1'));
    expect((syntax as { code?: string }).code).toBe('42601');
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    const missing = await rejection(database.db.execute(sql`select * from no_such_table`));
    expect(isDatabaseUnavailable(missing)).toBe(false);
    const division = await rejection(database.pool.query('select 1 from (values (1)) v(x) where x = 1 / 0'));
    expect(isDatabaseUnavailable(division)).toBe(false);
    expect(isDatabaseUnavailable(new ApiError(404, 'not_found'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('describeError tells what the wrapped driver error said', async () => {
    const missing = await rejection(database.db.execute(sql`select * from no_such_table`));
    expect(describeError(missing)).toMatch(
      /^Failed query: select \* from no_such_table params: ← caused by: relation "no_such_table" does not exist$/,
    );
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError('text')).toBe('text');
  });
});
