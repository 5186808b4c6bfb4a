/**
 * The integrity sweep the server runs by itself (docs/backups.md, "The integrity sweep"): a full pass
 * every INTEGRITY_SWEEP_INTERVAL_HOURS, in slices of a few thousand records with a pause between them so
 * requests are not slowed, in one process of all those on the database (its own advisory lock,
 * background/leadership.ts). Where the pass has got to is kept in integrity_sweep_state, so a restart
 * goes on from there. Each mismatch raises a staff-only `integrity_mismatch` alert (docs/alerts.md);
 * a pass that no longer finds a mismatch clears its alert, as any condition that stops holding does
 * (docs/adr/0020-alerts-are-rows.md).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { describeError } from '#server/db/error-causes.ts';
import { type AlertToRaise, raiseAlerts, resolveAlertsFor } from '#server/modules/alerts/index.ts';
import { createSlicer } from '#shared/integrity/index.ts';
import type { Chain } from '../chain.ts';
import {
  addCounts,
  type Mismatch,
  mismatchKey,
  NO_COUNTS,
  START_POSITION,
  SWEEP_PHASES,
  type SweepCounts,
  type SweepPhase,
  type SweepPosition,
  sweepSlice,
} from './checks.ts';
import { runIntegritySweep, type SweepSummary } from './run.ts';

/** The advisory lock of the background sweep's leader (apart from the anchor worker's, 4_242_017_010). */
export const INTEGRITY_SWEEP_LOCK_KEY = 4_242_017_014;
/** Records (or tokens, or audit entries) per slice. */
const DEFAULT_SLICE_SIZE = 2_000;
/** Between two slices of a pass: the requests' time. */
const DEFAULT_PAUSE_MS = 250;
/** Between two looks at whether a pass is due, when none is under way. */
const IDLE_CHECK_MS = 60_000;
/** Mismatch keys remembered per pass; past it, the pass clears no alert (it cannot tell which still hold). */
const MAX_REMEMBERED_KEYS = 10_000;

type Log = { info(msg: string): void; warn(msg: string): void; error(msg: string): void };

export interface IntegritySweepOptions {
  db: Db;
  /** The chain MINED blocks are compared with (the app's chain service); null: they are not compared. */
  chain: () => Promise<Chain | null>;
  /** Hours between the starts of two passes; 0 = no background pass (INTEGRITY_SWEEP_INTERVAL_HOURS). */
  intervalHours: number;
  log: Log;
  /** Hears the ids of the alerts a slice raised (mails and live updates: modules/alerts/announce.ts). */
  onRaised?: (alertIds: number[]) => Promise<void>;
  sliceSize?: number;
  pauseMs?: number;
}

/** What one step of the background work did. */
export type SweepStep =
  | { kind: 'idle' }
  | { kind: 'slice'; phase: SweepPhase; mismatches: Mismatch[]; raised: number[]; passEnded: boolean };

export interface IntegritySweepService {
  /** Runs passes in the background (this process leads the sweep). */
  start(): void;
  /** Stops after the slice in hand. */
  stop(): Promise<void>;
  /** One step: a slice of the pass under way, or the start of a pass when one is due (or `force`). */
  step(options?: { force?: boolean }): Promise<SweepStep>;
  /** A whole pass now, slice after slice, with its state and alerts (what the schedule does, at once). */
  runPass(): Promise<{ counts: SweepCounts; mismatches: Mismatch[]; raised: number[] }>;
  /** A whole sweep now outside the schedule: no state, no alert (the command line's run, docs/backups.md). */
  runWhole(onMismatch: (mismatch: Mismatch) => void): Promise<SweepSummary>;
}

type StateRow = {
  cycle_started_at: Date | string | null;
  phase: string;
  cursor: string;
  audit_hash: string | null;
  counts: Partial<SweepCounts>;
  mismatch_keys: string[] | null;
  last_completed_at: Date | string | null;
};

async function readState(db: Db): Promise<StateRow> {
  // The first pass of a database is due one interval after the sweep first looks at it, not at once:
  // a server started on a large database (or a benchmark's) is not swept the moment it starts.
  await db.execute(sql`insert into integrity_sweep_state (id, last_completed_at) values (1, now())
    on conflict (id) do nothing`);
  const result = await db.execute<StateRow>(sql`
    select cycle_started_at, phase, cursor, audit_hash, counts, mismatch_keys, last_completed_at
    from integrity_sweep_state where id = 1`);
  return result.rows[0]!;
}

const isPhase = (value: string): value is SweepPhase => (SWEEP_PHASES as readonly string[]).includes(value);

export function createIntegritySweep(options: IntegritySweepOptions): IntegritySweepService {
  const { db, log } = options;
  const sliceSize = options.sliceSize ?? DEFAULT_SLICE_SIZE;
  const pauseMs = options.pauseMs ?? DEFAULT_PAUSE_MS;
  const intervalMs = options.intervalHours * 3_600_000;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let inHand: Promise<unknown> = Promise.resolve();

  const due = (state: StateRow, force: boolean) =>
    force ||
    (intervalMs > 0 &&
      (state.last_completed_at === null ||
        Date.now() - new Date(state.last_completed_at).getTime() >= intervalMs));

  async function step({ force = false } = {}): Promise<SweepStep> {
    const state = await readState(db);
    if (state.cycle_started_at === null) {
      if (!due(state, force)) return { kind: 'idle' };
      await db.execute(sql`update integrity_sweep_state set cycle_started_at = now(), phase = ${START_POSITION.phase},
        cursor = 0, audit_hash = null, counts = '{}'::jsonb, mismatch_keys = '[]'::jsonb where id = 1`);
      log.info('integrity sweep: a pass begins');
      return step();
    }
    const position: SweepPosition = {
      phase: isPhase(state.phase) ? state.phase : START_POSITION.phase,
      cursor: Number(state.cursor),
      auditHash: state.audit_hash,
    };
    // 10 ms of work at a time, as the anchor worker's (docs/adr/0012-anchoring-on-chain.md): requests
    // are answered between them.
    const slice = await sweepSlice(
      { db, chain: await options.chain(), slicer: createSlicer(10) },
      position,
      sliceSize,
    );
    const raised = slice.mismatches.length > 0 ? await raiseMismatches(slice.mismatches) : [];
    const keys = [...(state.mismatch_keys ?? []), ...slice.mismatches.map(mismatchKey)];
    const counts = addCounts({ ...NO_COUNTS, ...state.counts }, slice.counts);
    if (slice.next) {
      await db.execute(sql`update integrity_sweep_state set phase = ${slice.next.phase}, cursor = ${slice.next.cursor},
        audit_hash = ${slice.next.auditHash}, counts = ${JSON.stringify(counts)}::jsonb,
        mismatch_keys = ${JSON.stringify(keys.slice(0, MAX_REMEMBERED_KEYS + 1))}::jsonb
        where id = 1`);
    } else {
      await endPass(counts, keys);
    }
    if (raised.length > 0) await options.onRaised?.(raised).catch(() => {});
    return {
      kind: 'slice',
      phase: position.phase,
      mismatches: slice.mismatches,
      raised,
      passEnded: !slice.next,
    };
  }

  async function raiseMismatches(mismatches: Mismatch[]): Promise<number[]> {
    const alerts: AlertToRaise[] = mismatches.map((mismatch) => ({
      kind: 'integrity_mismatch',
      // Staff only: what the sweep finds is about the manufacturer's own records and machinery.
      customerId: null,
      subjectId: mismatch.subjectId,
      conditionKey: mismatchKey(mismatch),
      details: {
        subject: mismatch.subject,
        subject_id: mismatch.subjectId,
        check: mismatch.check,
        field: mismatch.field ?? null,
        record_id: mismatch.recordId ?? null,
        block_id: mismatch.blockId ?? null,
        token_id: mismatch.tokenId ?? null,
        message: mismatch.message,
      },
    }));
    return raiseAlerts(db, alerts);
  }

  async function endPass(counts: SweepCounts, keys: string[]): Promise<void> {
    const found = new Set(keys);
    // Alerts of conditions this whole pass no longer found have cleared (only when it could remember them all).
    if (keys.length <= MAX_REMEMBERED_KEYS) {
      const open = await db.execute<{ condition_key: string }>(sql`
        select condition_key from alerts where kind = 'integrity_mismatch' and condition_cleared_at is null`);
      const cleared = open.rows.map((row) => row.condition_key).filter((key) => !found.has(key));
      if (cleared.length > 0) await resolveAlertsFor(db, cleared);
    }
    const summary = { counts, mismatches: keys.length };
    await db.execute(sql`update integrity_sweep_state set cycle_started_at = null, phase = ${START_POSITION.phase},
      cursor = 0, audit_hash = null, counts = '{}'::jsonb, mismatch_keys = '[]'::jsonb, last_completed_at = now(),
      last_summary = ${JSON.stringify(summary)}::jsonb || jsonb_build_object('started_at', cycle_started_at, 'ended_at', now())
      where id = 1`);
    const text = `integrity sweep: pass done, ${counts.records} records in ${counts.blocks} blocks, ${counts.signedRecords} signed records, ${counts.tokens} tokens, ${counts.auditEntries} audit entries`;
    if (keys.length === 0) log.info(`${text}: no mismatch`);
    else log.error(`${text}: ${keys.length} MISMATCHES (integrity_mismatch alerts raised)`);
  }

  function schedule(ms: number): void {
    if (!running) return;
    timer = setTimeout(() => {
      const work = step().then(
        (done) => schedule(done.kind === 'idle' ? IDLE_CHECK_MS : pauseMs),
        (error: unknown) => {
          log.warn(`integrity sweep: a slice failed, will retry: ${describeError(error)}`);
          schedule(IDLE_CHECK_MS);
        },
      );
      inHand = work;
    }, ms);
    timer.unref();
  }

  return {
    start() {
      if (running || intervalMs === 0) return;
      running = true;
      schedule(pauseMs);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await inHand.catch(() => {});
    },
    step,
    async runPass() {
      const mismatches: Mismatch[] = [];
      const raised: number[] = [];
      let counts = NO_COUNTS;
      for (let force = true; ; force = false) {
        const done = await step({ force });
        if (done.kind === 'idle') break;
        mismatches.push(...done.mismatches);
        raised.push(...done.raised);
        if (done.passEnded) break;
      }
      const last = await db.execute<{ last_summary: { counts: SweepCounts } | null }>(
        sql`select last_summary from integrity_sweep_state where id = 1`,
      );
      counts = last.rows[0]?.last_summary?.counts ?? counts;
      return { counts, mismatches, raised };
    },
    async runWhole(onMismatch) {
      return runIntegritySweep({ db, chain: await options.chain() }, onMismatch);
    },
  };
}
