// Two app instances on one database (PGlite, or PostgreSQL with TEST_DATABASE_URL), both with the
// anchor worker on, as two server processes would be: exactly one leads; records ingested through
// either are each in exactly one block and each block is anchored once; when the leader closes, the
// other takes over and anchors what comes next.
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SterilizationClaim } from '#shared/ingestion/claims.ts';
import { loadConfig } from '../config.ts';
import { ANCHORED_EVENT } from '../modules/integrity/artifact.ts';
import { type Chain, connectChain } from '../modules/integrity/chain.ts';
import { ingestRecords } from '../test/ingest.ts';
import { waitUntilMined } from '../test/signed-records.ts';
import { createPeerApp, createTestApp, DEMO, type TestApp, uniqueClientAddress } from '../test/test-app.ts';
import { BACKGROUND_LOCK_KEY, createLeadership } from './leadership.ts';

let t: TestApp;
let chain: Chain;

beforeAll(async () => {
  t = await createTestApp();
  chain = await connectChain(loadConfig({}).chain);
});
afterAll(() => t?.close());

type Peer = Awaited<ReturnType<typeof createPeerApp>>;
const anchoringPeer = () =>
  createPeerApp(
    t,
    { ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '4' },
    { chain, leadershipRetryMs: 50 },
  );

let progressive = 800_000;
async function ingestThrough(peer: Peer, count: number): Promise<void> {
  const { rows } = await t.database.pool.query<{ device_serial: string }>(
    `select d.device_serial from devices d join customers c on c.id = d.customer_id
      where c.enable_blockchain and d.deleted_at is null and d.public_key is not null order by d.id limit 1`,
  );
  const device = t.seed.devices.find((one) => one.serial === rows[0]!.device_serial)!;
  const records: SterilizationClaim[] = Array.from({ length: count }, () => ({
    progressive_id: ++progressive,
    supplied_energy: 300,
    nominal_time: 10,
    effective_time: 9.5,
    residual_lamp_life: 4000,
    status_code: 0,
    latitude: null,
    longitude: null,
    consumables_lot: 'L-LEAD-01',
    lot_progressive_id: 1,
    batch_quantity: 500,
    notes: null,
  }));
  await ingestRecords(peer.app, device, records, { 'x-forwarded-for': uniqueClientAddress() });
}

/** Waits until every blockchain-enabled record is in a MINED (or FINAL) block. */
const allMined = () => waitUntilMined(t.database.pool);

/** Each block holding records is on chain once, with its root, by the transaction the database names. */
async function expectEachBlockAnchoredOnce(): Promise<number> {
  const blocks = await t.database.pool.query<{ id: number; merkle_root: Hex; transaction_hash: Hex }>(
    `select distinct b.id, b.merkle_root, b.transaction_hash from blockchain_data_blocks b
      join sterilizations s on s.blockchain_data_block_id = b.id order by b.id`,
  );
  const logs = await chain.client.getLogs({
    address: chain.contractAddress,
    event: ANCHORED_EVENT,
    fromBlock: 'earliest',
    toBlock: 'latest',
  });
  const events = new Map<number, Hex[]>();
  for (const log of logs) {
    const id = Number(log.args.blockId);
    events.set(id, [...(events.get(id) ?? []), log.transactionHash]);
  }
  for (const block of blocks.rows) {
    expect(events.get(Number(block.id)), `block ${block.id}`).toEqual([block.transaction_hash]);
    expect(await chain.anchoredRoot(Number(block.id))).toBe(block.merkle_root);
  }
  // Nothing on chain that no stored block accounts for (a block anchored and then lost).
  expect([...events.keys()].sort((a, b) => a - b)).toEqual(blocks.rows.map((block) => Number(block.id)));
  return blocks.rows.length;
}

/**
 * pg_locks shows the whole server's locks: the other test files' databases (run at the same time) hold
 * the same advisory key, and must be neither counted nor cut.
 */
const THIS_DATABASE = `database = (select oid from pg_database where datname = current_database())`;

async function advisoryHolders(): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: string }>(
    `select count(*) as n from pg_locks where locktype = 'advisory' and granted
      and ((classid::bigint << 32) | objid::bigint) = $1 and ${THIS_DATABASE}`,
    [BACKGROUND_LOCK_KEY],
  );
  return Number(rows[0]!.n);
}

describe('background work across app instances on one database', () => {
  it('runs in one instance at a time, anchors each record once, and moves on when the leader closes', async () => {
    const first = await anchoringPeer();
    const second = await anchoringPeer();
    let closedFirst = false;
    try {
      expect([first.app.leadsBackgroundWork(), second.app.leadsBackgroundWork()]).toEqual([true, false]);
      if (t.database.kind === 'postgres') expect(await advisoryHolders()).toBe(1);
      // The lead, held for good, blocks nothing else: an audited write (a login) goes through.
      expect(await t.login(DEMO.admin)).toEqual(expect.any(String));

      await Promise.all([ingestThrough(first, 9), ingestThrough(second, 7)]);
      await allMined();
      const before = await expectEachBlockAnchoredOnce();
      expect(before).toBeGreaterThanOrEqual(1);
      expect(second.app.leadsBackgroundWork()).toBe(false);

      await first.close();
      closedFirst = true;
      for (let polls = 0; polls < 600 && !second.app.leadsBackgroundWork(); polls += 1)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(second.app.leadsBackgroundWork()).toBe(true);

      await ingestThrough(second, 6);
      await allMined();
      expect(await expectEachBlockAnchoredOnce()).toBeGreaterThan(before);
    } finally {
      if (!closedFirst) await first.close();
      await second.close();
    }
  }, 90_000);
});

const quiet = { info() {}, warn() {} };
const until = async (condition: () => boolean) => {
  for (let polls = 0; polls < 400 && !condition(); polls += 1)
    await new Promise((resolve) => setTimeout(resolve, 25));
};

describe('leadership', () => {
  // PostgreSQL only: on PGlite the lead is a flag of the one process, with no connection to lose.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'a leader whose lock connection dies stops its work before anyone leads again',
    async () => {
      const events: string[] = [];
      const contender = (name: string) =>
        createLeadership({
          database: t.database,
          lead: async () => {
            events.push(`${name} leads`);
          },
          stepDown: async () => {
            events.push(`${name} stops`);
          },
          log: quiet,
          retryMs: 25,
        });
      const a = contender('a');
      const b = contender('b');
      try {
        await a.start();
        await b.start();
        expect([a.leading(), b.leading()]).toEqual([true, false]);
        expect(events).toEqual(['a leads']);

        // The lock's connection ends (a database restart, a network cut, an administrator).
        const ended = await t.database.pool.query(
          `select pg_terminate_backend(pid) from pg_locks
            where locktype = 'advisory' and granted and ((classid::bigint << 32) | objid::bigint) = $1
              and ${THIS_DATABASE}`,
          [BACKGROUND_LOCK_KEY],
        );
        expect(ended.rowCount).toBe(1);
        await until(() => events.length >= 3);
        expect(events.slice(0, 2)).toEqual(['a leads', 'a stops']);
        expect(['a leads', 'b leads']).toContain(events[2]);
        expect([a.leading(), b.leading()].filter(Boolean)).toHaveLength(1);
        expect(await advisoryHolders()).toBe(1);
      } finally {
        await a.stop();
        await b.stop();
      }
      expect(await advisoryHolders()).toBe(0);
    },
  );

  it('gives the lead back when its work does not start, and tries again', async () => {
    let failures = 1;
    let leads = 0;
    const leadership = createLeadership({
      database: t.database,
      lead: async () => {
        if (failures-- > 0) throw new Error('the chain is not reachable');
        leads += 1;
      },
      stepDown: async () => {},
      log: quiet,
      retryMs: 25,
    });
    try {
      await leadership.start();
      expect(leadership.leading()).toBe(false);
      await until(() => leadership.leading());
      expect(leads).toBe(1);
    } finally {
      await leadership.stop();
    }
    expect(leadership.leading()).toBe(false);
  });
});
