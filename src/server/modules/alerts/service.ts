/**
 * The alert evaluation of one server process: records handed over by ingestion are evaluated in the
 * background (never in the device's request: its answer is ready first, and a failure is only logged),
 * one evaluation at a time, with the records that arrived meanwhile taken together; and a periodic
 * sweep of the time rules, started and stopped with the app like the anchor worker.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AlertConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { describeError } from '#server/db/error-causes.ts';
import { evaluateStoredRecords } from './ingested.ts';
import { clearCoveredLots, evaluateSequenceAndLots } from './sequence-and-lots.ts';
import { type SweepResult, sweepAlerts } from './sweep.ts';

export interface AlertService {
  /** Queues stored records for evaluation; returns at once. */
  recordsStored(recordIds: readonly number[]): void;
  /** Resolves when every record queued so far has been evaluated (tests, shutdown). */
  idle(): Promise<void>;
  /** One sweep now, with this clock (default: the real one). */
  sweep(now?: Date): Promise<SweepResult>;
  /** Sweeps at once, then every sweepIntervalSeconds (none when it is 0). */
  start(): void;
  /** Stops the timer and waits for the running sweep and evaluations. */
  stop(): Promise<void>;
}

/** Records evaluated together at most, so one evaluation stays one short statement under a burst. */
const EVALUATION_BATCH = 500;

/**
 * How long records gather before an evaluation starts. At 300 records/s an evaluation per arrival
 * costs the embedded database's single connection several statements a request; gathered for 100 ms
 * they cost a few statements per 30 records (an alert is raised at most this much later).
 */
const GATHER_MS = 100;

export function createAlertService(deps: {
  db: Db;
  config: AlertConfig;
  log: Pick<FastifyBaseLogger, 'error' | 'info'>;
  /** Hears the ids of alerts this process raised (e-mail, live updates); must not throw. */
  onRaised?: (alertIds: number[]) => Promise<void>;
}): AlertService {
  const { db, config, log } = deps;
  const announce = async (alertIds: number[]) => {
    if (alertIds.length === 0 || !deps.onRaised) return;
    try {
      await deps.onRaised(alertIds);
    } catch (error) {
      log.error(`alerts: announcing ${alertIds.length} alerts failed: ${describeError(error)}`);
    }
  };
  const pending: number[] = [];
  let evaluating: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  let stopped = true;

  async function drain(): Promise<void> {
    while (pending.length > 0) {
      const batch = pending.splice(0, EVALUATION_BATCH);
      try {
        const raised = await evaluateStoredRecords(db, batch, config);
        raised.push(...(await evaluateSequenceAndLots(db, batch)));
        await announce(raised);
      } catch (error) {
        log.error(`alerts: evaluation of ${batch.length} records failed: ${describeError(error)}`);
      }
    }
  }

  function recordsStored(recordIds: readonly number[]) {
    pending.push(...recordIds);
    evaluating ??= new Promise((resolve) => setTimeout(resolve, GATHER_MS)).then(drain).finally(() => {
      evaluating = undefined;
    });
  }

  async function idle() {
    while (evaluating) await evaluating;
  }

  async function sweep(now = new Date()) {
    const result = await sweepAlerts(db, config, now);
    if (result.ran) result.cleared.push(...(await clearCoveredLots(db)));
    await announce(result.raised);
    return result;
  }

  function schedule(delayMs: number) {
    if (stopped || config.sweepIntervalSeconds === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      sweeping = sweep()
        .catch((error: unknown) => log.error(`alerts: sweep failed: ${describeError(error)}`))
        .finally(() => {
          sweeping = undefined;
          schedule(config.sweepIntervalSeconds * 1000);
        });
    }, delayMs);
  }

  return {
    recordsStored,
    idle,
    sweep,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await sweeping;
      await idle();
    },
  };
}
