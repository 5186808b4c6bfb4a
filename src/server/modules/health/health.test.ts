import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('server basics', () => {
  it('answers health with the envelope and strict security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'success',
      message: 'ok',
      data: { status: 'ok', database: 'ok', chain: 'ok' },
    });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers unknown API paths and methods with a JSON 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 'error', message: 'not_found', data: null });
  });

  it('refuses malformed JSON and wrong media types without internals', async () => {
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ingest/sterilizations',
      headers: { 'content-type': 'application/json' },
      payload: '{"token": ',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ status: 'error', message: 'bad_request', data: null });
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a@b.it&password=x',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().message).toBe('unsupported_media_type');
  });

  it('treats a malformed id as not found', async () => {
    const token = await t.login(DEMO.admin);
    const response = await t.as(token, { method: 'GET', url: '/api/v1/customers/not-a-number' });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('not_found');
  });

  it('refuses a method override to an unknown method', async () => {
    const token = await t.login(DEMO.admin);
    const form = new FormData();
    form.append('_method', 'TRACE');
    const response = await t.as(token, { method: 'POST', url: '/api/v1/auth/me', payload: form });
    expect(response.statusCode).toBe(405);
    expect(response.json().message).toBe('method_not_allowed');
  });
});
