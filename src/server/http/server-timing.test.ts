import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../test/test-app.ts';

/** The metrics of a Server-Timing header, by name: its dur, or its desc when it has no dur. */
function metrics(header: unknown): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().split(';');
    const dur = params.find((p) => p.startsWith('dur='))?.slice(4);
    const desc = params
      .find((p) => p.startsWith('desc='))
      ?.slice(5)
      .replaceAll('"', '');
    if (name) found.set(name, dur ?? desc ?? '');
  }
  return found;
}

describe('Server-Timing (SERVER_TIMING=true)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ SERVER_TIMING: 'true' });
    token = await t.login(DEMO.super);
  });
  afterAll(() => t.close());

  it('charges a request its own database round trips, pool wait and time', async () => {
    const response = await t.as(token, { method: 'GET', url: '/api/v1/sterilizations?page=1' });
    expect(response.statusCode).toBe(200);
    const m = metrics(response.headers['server-timing']);
    // The session check and the page at least; the total covers the database time.
    expect(Number(m.get('queries'))).toBeGreaterThanOrEqual(2);
    const db = Number(m.get('db'));
    expect(db).toBeGreaterThan(0);
    expect(Number(m.get('pool'))).toBeGreaterThanOrEqual(0);
    expect(Number(m.get('total'))).toBeGreaterThanOrEqual(db);
  });

  it('charges each of many concurrent requests its own round trips, even when they queue for a connection', async () => {
    const url = '/api/v1/customers?page=1';
    const alone = metrics((await t.as(token, { method: 'GET', url })).headers['server-timing']);
    const together = await Promise.all(Array.from({ length: 30 }, () => t.as(token, { method: 'GET', url })));
    for (const response of together) {
      expect(response.statusCode).toBe(200);
      expect(metrics(response.headers['server-timing']).get('queries')).toBe(alone.get('queries'));
    }
  });

  it('a request that reads nothing from the database counts no round trip', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/sterilizations' });
    expect(response.statusCode).toBe(401);
    const m = metrics(response.headers['server-timing']);
    expect(m.get('queries')).toBe('0');
    expect(Number(m.get('db'))).toBe(0);
  });

  it('is not sent unless turned on', async () => {
    const plain = await createTestApp();
    try {
      const response = await plain.app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(response.headers['server-timing']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
