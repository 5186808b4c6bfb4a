/**
 * The anchor worker's schedule: one pass every pollMs (releases abandoned blocks, follows SENT ones,
 * sends PENDING ones, forms and sends new ones, looks at MINED ones again until FINAL), started and stopped with the app. What each step does
 * is in its own module: collect, build, store, send, confirm.
 */

import type { Hex } from 'viem';
import { describeError } from '#server/db/error-causes.ts';
import { createSlicer } from '#shared/integrity/index.ts';
import { isUnreachable } from '../reachability.ts';
import { buildBlock } from './build.ts';
import { collectBlockContents } from './collect.ts';
import { followMined, followSent } from './confirm.ts';
import { type AnchorWorkerOptions, anchoringContext } from './context.ts';
import { sendPending } from './send.ts';
import { releaseAbandoned, storeBlock } from './store.ts';

export interface AnchorWorker {
  start(): void;
  /** Stops the timer and waits for the running pass. */
  stop(): Promise<void>;
  /** One full pass: follow SENT and MINED, send PENDING, form and send new blocks. */
  tick(): Promise<void>;
  /** Forms at most one block; returns its id (or null when nothing is due). */
  formBlock(): Promise<number | null>;
  /** Sends every PENDING block. */
  sendPending(): Promise<void>;
  /** Follows every SENT block. */
  followSent(): Promise<void>;
  /** Looks at every MINED block again (a reorganisation, finality), once per new chain head. */
  followMined(): Promise<void>;
}

/** New blocks formed in one pass at most, before the pass ends and the next one is scheduled. */
const BLOCKS_PER_PASS = 50;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createAnchorWorker(options: AnchorWorkerOptions): AnchorWorker {
  const context = anchoringContext(options);
  const { pollMs, log } = context;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;
  /** Set by stop(): a running pass ends after its current step. */
  let halting = false;
  const isHalting = () => halting;

  /**
   * A block is made so that neither the event loop nor (on the embedded database, one connection) the
   * database is held while a large block's leaves, tree and proofs are computed: the records are read
   * without locks, the computation runs in time slices, and only then are the records locked and
   * written. When any record was taken meanwhile, nothing is kept and the next pass reads again.
   */
  async function formBlock(): Promise<number | null> {
    const slicer = createSlicer();
    const contents = await collectBlockContents(context, slicer);
    if (contents.records.length === 0 && contents.reports.length === 0 && contents.keyEvents.length === 0)
      return null;
    const block = await buildBlock(contents, slicer);
    await context.beforeStore?.();
    const blockId = await storeBlock(context, block, slicer);
    if (blockId !== null) {
      const reports = contents.reports.length > 0 ? `, ${contents.reports.length} signed reports` : '';
      const keys = contents.keyEvents.length > 0 ? `, ${contents.keyEvents.length} key events` : '';
      log.info(`anchor: block ${blockId} formed with ${contents.records.length} records${reports}${keys}`);
    }
    return blockId;
  }

  /** The chain head MINED blocks were last looked at on (they are looked at again on a new one). */
  const minedState: { head?: Hex } = {};
  /** Whether a chain node answers now; the first failure and the return are logged once each. */
  let chainAway = false;
  async function chainAnswers(): Promise<boolean> {
    try {
      await context.chain.blockNumber();
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      if (!chainAway)
        log.warn(`anchor: no chain node answers, blocks wait to be sent: ${describeError(error)}`);
      chainAway = true;
      return false;
    }
    if (chainAway) log.info('anchor: a chain node answers again, anchoring resumes');
    chainAway = false;
    return true;
  }
  /** The chain steps of a pass, skipped while no node answers (a step that finds it away ends early). */
  const whileChainAnswers = async (step: () => Promise<void>) => {
    if (!chainAway) await step();
    if (context.chain.reachability.last()?.state === 'unreachable') chainAway = true;
  };

  async function tick(): Promise<void> {
    await releaseAbandoned(context);
    // Blocks are formed while no node answers (records wait in them, not in a backlog); they are sent,
    // and the sent ones followed, once a node answers again.
    await chainAnswers();
    await whileChainAnswers(() => followSent(context));
    let followed = performance.now();
    await whileChainAnswers(() => sendPending(context, isHalting));
    // A backlog (the seeded demo, or a burst) becomes several blocks, one transaction each, with the
    // event loop free between them; under steady ingestion this goes on for a while, so the sent
    // blocks are followed every pollMs meanwhile (else they would be MINED only at the end).
    for (let formed = 0; formed < BLOCKS_PER_PASS; formed += 1) {
      if (halting) break;
      const blockId = await formBlock();
      if (blockId === null) break;
      await whileChainAnswers(() => sendPending(context, isHalting));
      if (performance.now() - followed >= pollMs) {
        await whileChainAnswers(() => followSent(context));
        followed = performance.now();
      }
      await yieldToEventLoop();
    }
    await whileChainAnswers(() => followSent(context));
    await whileChainAnswers(() => followMined(context, minedState));
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      running = tick()
        .catch((error: unknown) => log.error(`anchor: pass failed: ${describeError(error)}`))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, pollMs);
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      halting = false;
      schedule();
    },
    async stop() {
      stopped = true;
      halting = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
    tick,
    formBlock,
    sendPending: () => sendPending(context, isHalting),
    followSent: () => followSent(context),
    followMined: () => followMined(context, minedState),
  };
}
