// The chain's nodes can fail (docs/integrity.md §8): CHAIN_RPC_URL's nodes are used in order, each call
// going to the next when one refuses or does not answer in time; while none answers, ingestion and the
// lists work as usual, health says the chain is unreachable, blocks wait, and anchoring catches up by
// itself when a node is back. The devnet sits behind switchable JSON-RPC nodes (src/server/test/
// switchable-node.ts), on PGlite or (TEST_DATABASE_URL) PostgreSQL.
import { describe, expect, it } from 'vitest';
import { postChainRpc, rpcCall } from '#server/test/chain-rpc.ts';
import {
  eventually,
  expectEachBlockAnchoredOnce,
  ingestThrough,
  setUpChainSuite,
  waitingRecords,
} from '#server/test/node-chain.ts';
import { createPeerApp, DEMO } from '#server/test/test-app.ts';

const suite = setUpChainSuite({ nodes: 2 });

describe('chain nodes in order, with fail-over', () => {
  it('asks the next node when the first refuses or hangs, and says unreachable when none answers', async () => {
    const [first, second] = suite.nodes.nodes;
    const chain = suite.nodes.chain;
    try {
      const head = await suite.nodes.devnet.blockNumber();
      first!.set('down');
      expect(await chain.blockNumber()).toBe(head);
      first!.set('silent');
      const started = Date.now();
      expect(await chain.blockNumber()).toBe(head);
      // The first node's time-out (CHAIN_RPC_TIMEOUT_SECONDS=1), then the second answered.
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      expect(chain.reachability.last()?.state).toBe('ok');

      second!.set('down');
      await expect(chain.blockNumber()).rejects.toThrow();
      expect(chain.reachability.last()?.state).toBe('unreachable');
    } finally {
      first!.set('up');
      second!.set('up');
    }
    expect(await chain.blockNumber()).toBeGreaterThanOrEqual(0n);
    expect(chain.reachability.last()?.state).toBe('ok');
  });
});

describe('while no chain node answers', () => {
  it('ingestion, lists and health answer as usual, health says so, and anchoring catches up when a node is back', async () => {
    const peer = await createPeerApp(
      suite.t,
      { ANCHOR_ENABLED: 'true', ANCHOR_INTERVAL_SECONDS: '0', ANCHOR_BATCH_SIZE: '4' },
      { chain: suite.nodes.chain, leadershipRetryMs: 50 },
    );
    const admin = await suite.t.login(DEMO.admin);
    const health = async () => (await peer.app.inject({ method: 'GET', url: '/api/v1/health' })).json();
    try {
      await ingestThrough(suite.t, peer.app, 5);
      await eventually('the first records mined', async () => (await waitingRecords(suite.t)) === 0);
      expect((await health()).data).toEqual({ status: 'ok', database: 'ok', chain: 'ok' });

      // One node refuses every connection, the other hangs until the caller's time-out.
      suite.nodes.nodes[0]!.set('silent');
      suite.nodes.nodes[1]!.set('down');
      const during = await ingestThrough(suite.t, peer.app, 7);
      expect(during).toHaveLength(7);
      const list = await peer.app.inject({
        method: 'GET',
        url: '/api/v1/sterilizations',
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.data.map((row: { id: number }) => row.id)).toEqual(
        expect.arrayContaining(during),
      );
      await eventually('health says the chain is unreachable', async () => {
        const answer = await health();
        expect(answer.status).toBe('success');
        return answer.data.chain === 'unreachable';
      });
      // The records wait in blocks of their own, none of them mined while the node is away.
      await eventually('the new records in blocks', async () => {
        const { rows } = await suite.t.database.pool.query<{ n: string }>(
          'select count(*) as n from sterilizations where id = any($1::bigint[]) and blockchain_data_block_id is not null',
          [during],
        );
        return Number(rows[0]!.n) === during.length;
      });
      expect(await waitingRecords(suite.t)).toBe(during.length);

      suite.nodes.nodes[0]!.set('up');
      suite.nodes.nodes[1]!.set('up');
      await eventually('anchoring caught up', async () => (await waitingRecords(suite.t)) === 0);
      await eventually('health says the chain answers', async () => (await health()).data.chain === 'ok');
      expect(await expectEachBlockAnchoredOnce(suite.t, suite.nodes.devnet)).toBeGreaterThanOrEqual(2);
    } finally {
      suite.nodes.nodes[0]!.set('up');
      suite.nodes.nodes[1]!.set('up');
      await peer.close();
    }
  }, 90_000);
});

describe('the public nodes', () => {
  it('GET /chain names every CHAIN_PUBLIC_RPC_URL in order, the first as rpc_url, and the page may connect to each', async () => {
    const peer = await createPeerApp(
      suite.t,
      { CHAIN_PUBLIC_RPC_URL: 'https://rpc-a.example/v1,https://rpc-b.example:8545/' },
      { chain: suite.nodes.chain },
    );
    try {
      const info = await peer.app.inject({ method: 'GET', url: '/api/v1/chain' });
      expect(info.statusCode).toBe(200);
      expect(info.json().data).toMatchObject({
        rpc_url: 'https://rpc-a.example/v1',
        rpc_urls: ['https://rpc-a.example/v1', 'https://rpc-b.example:8545/'],
      });
      const csp = String(info.headers['content-security-policy']);
      expect(csp).toContain('https://rpc-a.example');
      expect(csp).toContain('https://rpc-b.example:8545');

      // The server's own read-only endpoint forwards to the first of its nodes that answers.
      suite.nodes.nodes[0]!.set('down');
      const read = await postChainRpc(peer.app, rpcCall('eth_blockNumber'));
      expect(read.statusCode).toBe(200);
      expect(read.json().result).toMatch(/^0x[0-9a-f]+$/);
    } finally {
      suite.nodes.nodes[0]!.set('up');
      await peer.close();
    }
  });
});
