/**
 * Bulk alert actions through HTTP: the chosen alerts, or every alert matching a filter, acknowledged or
 * resolved one by one (each audited on its own), what cannot be done skipped with its reason; the same
 * abilities and tenant rules as one alert at a time; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCustomer, makeDevice, makeUser, unique } from '#server/test/fixtures.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { mintSession, mintSessionOf } from '#server/test/sessions.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { raiseAlert } from './raise.ts';

let t: TestApp;
let clinic: number;
let device: number;
let tokens: Record<'admin' | 'care' | 'clinicUser', string>;

beforeAll(async () => {
  t = await createTestApp();
  clinic = await makeCustomer(t, { name: `Bulk clinic ${unique()}` });
  device = await makeDevice(t, clinic);
  tokens = {
    admin: await mintSessionOf(t, DEMO.admin),
    care: await mintSessionOf(t, DEMO.care),
    clinicUser: await mintSession(t, await makeUser(t, clinic, 'CUSTOMER')),
  };
});
afterAll(() => t?.close());

async function raise(customerId: number | null = clinic, deviceId: number | null = device): Promise<number> {
  const id = await raiseAlert(t.database.db, {
    kind: 'failed_cycle',
    customerId,
    deviceId,
    conditionKey: `bulk:${unique()}`,
    details: { status_code: 1, status_text: 'Nulled' },
  });
  if (id === null) throw new Error('not raised');
  return id;
}

const bulk = (token: string, payload: object) =>
  t.as(token, { method: 'POST', url: '/api/v1/alerts/bulk', payload });

const states = async (ids: number[]) =>
  (await t.database.pool.query('select id, state from alerts where id = any($1) order by id', [ids])).rows;
const auditCount = async (ids: number[]) =>
  Number(
    (
      await t.database.pool.query(
        `select count(*) as n from audit_log where entity_type = 'alert' and entity_id = any($1)`,
        [ids],
      )
    ).rows[0].n,
  );

describe('POST /alerts/bulk', () => {
  it('acknowledges the chosen alerts one by one, each audited, and skips what it cannot do', async () => {
    const [a, b, c] = [await raise(), await raise(), await raise()];
    await t.database.pool.query(`update alerts set state = 'resolved', resolution = 'manual' where id = $1`, [
      c,
    ]);
    const response = await bulk(tokens.admin, { action: 'acknowledge', ids: [a, b, c, 2_000_000_000] });
    expectContract('bulkAlertAction', response, 200);
    expect(response.json().data).toEqual({
      done: [a, b],
      skipped: [
        { id: c, reason: 'alerts.already_resolved' },
        { id: 2_000_000_000, reason: 'not_found' },
      ],
      more: false,
    });
    expect(await states([a, b])).toEqual([
      { id: a, state: 'acknowledged' },
      { id: b, state: 'acknowledged' },
    ]);
    expect(await auditCount([a, b, c])).toBe(2);

    // Resolving them next: acknowledged alerts may be resolved, with the comment on each.
    const resolved = await bulk(tokens.admin, { action: 'resolve', ids: [a, b], comment: 'Lamp replaced' });
    expectContract('bulkAlertAction', resolved, 200);
    expect(resolved.json().data.done).toEqual([a, b]);
    const { rows } = await t.database.pool.query('select resolve_comment from alerts where id = any($1)', [
      [a, b],
    ]);
    expect(rows.map((row) => row.resolve_comment)).toEqual(['Lamp replaced', 'Lamp replaced']);
  });

  it("acts on every alert matching a filter, within the caller's tenant only", async () => {
    const otherClinic = await makeCustomer(t, { name: `Bulk other ${unique()}` });
    const otherDevice = await makeDevice(t, otherClinic);
    const mine = [await raise(), await raise()];
    const theirs = await raise(otherClinic, otherDevice);
    // The clinic's user asks for every open alert: theirs is not among them.
    const response = await bulk(tokens.clinicUser, { action: 'resolve', filter: { state: 'open' } });
    expectContract('bulkAlertAction', response, 200);
    const { done, more } = response.json().data as { done: number[]; more: boolean };
    expect(done).toEqual(expect.arrayContaining(mine));
    expect(done).not.toContain(theirs);
    expect(more).toBe(false);
    expect(await states([theirs])).toEqual([{ id: theirs, state: 'open' }]);

    // And an id of another tenant is not found for them, as one at a time.
    const foreign = await bulk(tokens.clinicUser, { action: 'acknowledge', ids: [theirs] });
    expect(foreign.json().data).toMatchObject({ done: [], skipped: [{ id: theirs, reason: 'not_found' }] });
  });

  it('needs the ability of the action: customer care acknowledges but may not resolve', async () => {
    const id = await raise();
    expectContract('bulkAlertAction', await bulk(tokens.care, { action: 'resolve', ids: [id] }), 403);
    expect(await states([id])).toEqual([{ id, state: 'open' }]);
    const acknowledged = await bulk(tokens.care, { action: 'acknowledge', ids: [id] });
    expectContract('bulkAlertAction', acknowledged, 200);
    expect(acknowledged.json().data.done).toEqual([id]);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/alerts/bulk', payload: {} })).statusCode).toBe(
      401,
    );
  });

  it('refuses bad input and changes nothing', async () => {
    const id = await raise();
    for (const payload of [
      { action: 'delete', ids: [id] },
      { action: 'acknowledge' },
      { action: 'acknowledge', ids: [id], filter: {} },
      { action: 'acknowledge', ids: [] },
      { action: 'acknowledge', ids: [id, id] },
      { action: 'acknowledge', ids: Array.from({ length: 501 }, (_, i) => i + 1) },
      { action: 'acknowledge', ids: ['x'] },
      { action: 'acknowledge', filter: { state: 'gone' } },
      { action: 'acknowledge', ids: [id], comment: 'x'.repeat(1001) },
      { action: 'acknowledge', ids: [id], extra: true },
    ]) {
      const response = await bulk(tokens.admin, payload);
      expectContract('bulkAlertAction', response, 422);
    }
    expect(await states([id])).toEqual([{ id, state: 'open' }]);
    expect(await auditCount([id])).toBe(0);
  });
});
