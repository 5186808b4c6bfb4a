/**
 * The integrity sweep (docs/backups.md, "The integrity sweep") on records a device signed and the
 * anchor worker mined, on PGlite and (TEST_DATABASE_URL) PostgreSQL: a sound database passes; an insider
 * changing a record after its block was mined, a block's stored root, a token or an audit entry is
 * named by the sweep — the record and the field, the block — and `npm run integrity:sweep` exits 1;
 * the background pass raises a staff-only alert a clinic never sees, clears it once the data is sound
 * again, and goes on from where it was after a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServerControlSocket } from '#server/control/server-control.ts';
import type { ControlSocket } from '#server/control/socket.ts';
import { asDatabaseOwner, makeUser } from '#server/test/fixtures.ts';
import { mintSession, mintSessionOf } from '#server/test/sessions.ts';
import {
  postSigned,
  type SigningDevice,
  signingDevice,
  waitUntilMined,
} from '#server/test/signed-records.ts';
import { createTestApp, DEMO, type TestApp } from '#server/test/test-app.ts';
import { createIntegritySweep } from './background.ts';
import { type Mismatch, SWEEP_PHASES, type SweepPhase } from './checks.ts';
import { integritySweepCommand } from './command.ts';

let t: TestApp;
let device: SigningDevice;
let recordIds: number[];
let blockId: number;
let dataDir: string;
let control: ControlSocket | null;

beforeAll(async () => {
  t = await createTestApp({ ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '8' });
  device = await signingDevice(t.database.pool);
  recordIds = [
    ...(await postSigned(t.app, device, 3)),
    ...(await postSigned(t.app, device, 1, { supplied_energy: 12.345, notes: 'first "cycle"\nok' })),
  ];
  await waitUntilMined(t.database.pool);
  // A login and a password change: entries of the audit trail to chain.
  await t.login(DEMO.admin);
  const found = await t.database.pool.query(
    'select blockchain_data_block_id as id from sterilizations where id = $1',
    [recordIds[0]],
  );
  blockId = Number(found.rows[0].id);
  dataDir = mkdtempSync(path.join(tmpdir(), 'uvtrace-sweep-'));
  control = await openServerControlSocket(t.app, t.database, { dataDir });
}, 120_000);
afterAll(async () => {
  await control?.close();
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function sweep(): Promise<Mismatch[]> {
  const found: Mismatch[] = [];
  await t.app.integritySweep.runWhole((mismatch) => found.push(mismatch));
  return found;
}

/** Runs `npm run integrity:sweep`'s command against the running app (through its control socket). */
async function command(): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await integritySweepCommand(
    { dataDir, databaseUrl: undefined, chain: t.config.chain },
    (line) => lines.push(line),
  );
  return { code, lines };
}

describe('the integrity sweep', () => {
  it('passes on what was stored and anchored, having checked every kind of evidence', async () => {
    const summary = await t.app.integritySweep.runWhole(() => {});
    expect(summary.mismatches).toBe(0);
    expect(summary.counts.records).toBeGreaterThanOrEqual(recordIds.length);
    expect(summary.counts.blocksOnChain).toBeGreaterThan(0);
    expect(summary.counts.blocksNotOnChain).toBe(0);
    expect(summary.counts.signedRecords).toBeGreaterThanOrEqual(recordIds.length);
    expect(summary.counts.tokens).toBeGreaterThanOrEqual(2);
    expect(summary.counts.auditEntries).toBeGreaterThan(0);
    const { code, lines } = await command();
    expect(code).toBe(0);
    expect(lines.at(-1)).toMatch(/integrity sweep passed/);
  });

  it('names a record changed with SQL after its block was mined, and the field, and exits 1', async () => {
    const [recordId] = recordIds;
    await asDatabaseOwner(t.database, 'update sterilizations set supplied_energy = 999 where id = $1', [
      recordId,
    ]);
    try {
      const found = await sweep();
      expect(found).toContainEqual(
        expect.objectContaining({ subject: 'record', subjectId: recordId, blockId, check: 'leaf' }),
      );
      expect(found).toContainEqual(
        expect.objectContaining({
          subject: 'record',
          subjectId: recordId,
          check: 'signed_value',
          field: 'supplied_energy',
        }),
      );
      // Its block no longer adds up; no other record is blamed.
      expect(found).toContainEqual(
        expect.objectContaining({ subject: 'block', subjectId: blockId, check: 'root' }),
      );
      expect(found.filter((m) => m.subject === 'record').map((m) => m.subjectId)).toEqual([
        recordId,
        recordId,
      ]);

      const { code, lines } = await command();
      expect(code).toBe(1);
      const named = lines.filter(
        (line) => line.startsWith('MISMATCH') && line.includes(`record=${recordId}`),
      );
      expect(named.some((line) => line.includes('field=supplied_energy'))).toBe(true);
      expect(lines.at(-1)).toMatch(/integrity sweep FAILED/);
    } finally {
      await asDatabaseOwner(t.database, 'update sterilizations set supplied_energy = 300 where id = $1', [
        recordId,
      ]);
    }
    expect(await sweep()).toEqual([]);
  });

  it('names a block whose stored root was changed, and only the block', async () => {
    const before = await t.database.pool.query(
      'select merkle_root from blockchain_data_blocks where id = $1',
      [blockId],
    );
    await asDatabaseOwner(t.database, 'update blockchain_data_blocks set merkle_root = $1 where id = $2', [
      `0x${'ab'.repeat(32)}`,
      blockId,
    ]);
    try {
      const found = await sweep();
      expect(found).toContainEqual(
        expect.objectContaining({
          subject: 'block',
          subjectId: blockId,
          check: 'root',
          field: 'merkle_root',
        }),
      );
      // The chain still holds the root the records make.
      expect(found).toContainEqual(
        expect.objectContaining({ subject: 'block', subjectId: blockId, check: 'chain' }),
      );
      expect(found.every((m) => m.subject === 'block' && m.subjectId === blockId)).toBe(true);
    } finally {
      await asDatabaseOwner(t.database, 'update blockchain_data_blocks set merkle_root = $1 where id = $2', [
        before.rows[0].merkle_root,
        blockId,
      ]);
    }
  });

  it('names a token whose bytes were changed, and an audit entry edited after it was chained', async () => {
    const token = await t.database.pool.query(
      'select t.id, t.jws from device_tokens t join sterilizations s on s.token_id = t.id where s.id = $1',
      [recordIds[0]],
    );
    const { id: tokenId, jws } = token.rows[0] as { id: string; jws: string };
    const [header, payload, signature] = jws.split('.');
    const forged = `${header}.${payload}.${signature!.slice(0, -4)}AAAA`;
    const audit = await t.database.pool.query('select id, reason from audit_log order by id limit 1');
    const entry = audit.rows[0] as { id: string; reason: string | null };
    await asDatabaseOwner(t.database, 'update device_tokens set jws = $1 where id = $2', [forged, tokenId]);
    await asDatabaseOwner(t.database, `update audit_log set reason = 'rewritten' where id = $1`, [entry.id]);
    try {
      const found = await sweep();
      expect(found).toContainEqual(
        expect.objectContaining({ subject: 'token', subjectId: Number(tokenId), check: 'sha256' }),
      );
      expect(found).toContainEqual(
        expect.objectContaining({ subject: 'token', subjectId: Number(tokenId), check: 'signature' }),
      );
      expect(found).toContainEqual(
        expect.objectContaining({
          subject: 'audit_entry',
          subjectId: Number(entry.id),
          check: 'audit_chain',
        }),
      );
    } finally {
      await asDatabaseOwner(t.database, 'update device_tokens set jws = $1 where id = $2', [jws, tokenId]);
      await asDatabaseOwner(t.database, 'update audit_log set reason = $1 where id = $2', [
        entry.reason,
        entry.id,
      ]);
    }
    expect(await sweep()).toEqual([]);
  });
});

describe('the background sweep', () => {
  const listed = async (token: string) => {
    const response = await t.as(token, { method: 'GET', url: '/api/v1/alerts?kind=integrity_mismatch' });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.data as { id: number; kind: string; details: Record<string, unknown> }[];
  };

  it("raises a staff-only alert for a changed record, which the record's own clinic never sees, and clears it", async () => {
    const recordId = recordIds[1]!;
    const staff = await mintSessionOf(t, DEMO.care);
    const clinicUser = await mintSession(t, await makeUser(t, device.customerId, 'CUSTOMER'));
    const demoClinic = await mintSessionOf(t, DEMO.customer);
    await asDatabaseOwner(t.database, `update sterilizations set notes = 'rewritten' where id = $1`, [
      recordId,
    ]);
    try {
      const pass = await t.app.integritySweep.runPass();
      expect(pass.raised.length).toBeGreaterThan(0);
      const alerts = await listed(staff);
      const ofRecord = alerts.filter(
        (alert) => alert.details.subject === 'record' && alert.details.subject_id === recordId,
      );
      expect(ofRecord.map((alert) => alert.details.check).sort()).toEqual(['leaf', 'signed_value']);
      expect(ofRecord.find((alert) => alert.details.check === 'signed_value')?.details.field).toBe('notes');
      expect(
        alerts.some((alert) => alert.details.subject === 'block' && alert.details.subject_id === blockId),
      ).toBe(true);
      expect(await listed(clinicUser)).toEqual([]);
      expect(await listed(demoClinic)).toEqual([]);
      const alertId = ofRecord[0]!.id;
      expect(
        (
          await t.as(clinicUser, {
            method: 'POST',
            url: `/api/v1/alerts/${alertId}/acknowledge`,
            payload: {},
          })
        ).statusCode,
      ).toBe(404);
      // The same pass again raises nothing new.
      expect((await t.app.integritySweep.runPass()).raised).toEqual([]);
    } finally {
      await asDatabaseOwner(t.database, `update sterilizations set notes = null where id = $1`, [recordId]);
    }
    const sound = await t.app.integritySweep.runPass();
    expect(sound.mismatches).toEqual([]);
    const open = await t.database.pool.query(
      `select count(*)::int as n from alerts where kind = 'integrity_mismatch' and state <> 'resolved'`,
    );
    expect(open.rows[0].n).toBe(0);
  });

  it('works in slices and goes on after a restart from the phase and id it had reached', async () => {
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    // Without a chain (MINED blocks are then not compared), in slices of two records' worth.
    const options = {
      db: t.database.db,
      chain: async () => null,
      intervalHours: 24,
      log: quiet,
      sliceSize: 2,
    };
    const first = createIntegritySweep(options);
    const started = await first.step({ force: true });
    expect(started).toMatchObject({ kind: 'slice', phase: 'blocks', passEnded: false });
    const state = async () =>
      (await t.database.pool.query('select phase, cursor, cycle_started_at from integrity_sweep_state'))
        .rows[0] as {
        phase: string;
        cursor: string;
        cycle_started_at: Date | null;
      };
    const progress = (at: { phase: string; cursor: string }) =>
      SWEEP_PHASES.indexOf(at.phase as SweepPhase) * 1e12 + Number(at.cursor);
    const reached = await state();
    expect(reached.cycle_started_at).not.toBeNull();
    expect(progress(reached)).toBeGreaterThan(0);
    // "After a restart": a new service on the same database takes the next slice from the saved cursor.
    const second = createIntegritySweep(options);
    await second.step();
    expect(progress(await state())).toBeGreaterThan(progress(reached));
    // Not due again until the interval has passed once the pass ends.
    for (
      let step = await second.step();
      step.kind === 'slice' && !step.passEnded;
      step = await second.step()
    ) {
      // slice after slice
    }
    expect((await state()).cycle_started_at).toBeNull();
    expect(await second.step()).toEqual({ kind: 'idle' });
  });
});
