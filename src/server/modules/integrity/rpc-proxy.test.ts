/**
 * POST /chain-rpc through HTTP against the embedded devnet: what a public caller may ask, and the
 * bounds on what one caller may cost the node (methods, batch size, log ranges, eth_call target, rate).
 */
import type { EIP1193RequestFn } from 'viem';
import { encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postChainRpc, rpcCall } from '#server/test/chain-rpc.ts';
import { expectContract } from '#server/test/response-checks.ts';
import { createTestApp, type TestApp, uniqueClientAddress } from '#server/test/test-app.ts';
import { ANCHOR_ABI } from './artifact.ts';
import { forwardReadOnly, MAX_BATCH_CALLS, MAX_LOG_BLOCKS } from './rpc-proxy.ts';

const RATE_LIMIT = 5;
let t: TestApp;
let contractAddress: string;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_RPC_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
  contractAddress = (await t.app.inject({ method: 'GET', url: '/api/v1/chain' })).json().data
    .contract_address;
});
afterAll(() => t?.close());

/** One request from its own client address, so the rate limit only counts where a test means it to. */
const rpc = (payload: object, from = uniqueClientAddress()) =>
  postChainRpc(t.app, payload, { 'x-forwarded-for': from });

describe('POST /chain-rpc', () => {
  it('answers the reads a verifier makes, and refuses every other method with a JSON-RPC error', async () => {
    const chainId = await rpc(rpcCall('eth_chainId'));
    expectContract('chainRpc', chainId, 200);
    expect(chainId.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7a69' });
    expect((await rpc(rpcCall('eth_blockNumber'))).json().result).toMatch(/^0x[0-9a-f]+$/);
    for (const method of [
      'net_version',
      'eth_sendRawTransaction',
      'eth_accounts',
      'hardhat_mine',
      'evm_mine',
    ]) {
      const refused = await rpc(rpcCall(method, ['0x00']));
      expectContract('chainRpc', refused, 200);
      expect(refused.json().error).toEqual({ code: -32601, message: `method not available: ${method}` });
    }
  });

  it(`takes a batch of at most ${MAX_BATCH_CALLS} calls, and refuses a larger one whole`, async () => {
    const calls = (n: number) => Array.from({ length: n }, (_, i) => rpcCall('eth_chainId', [], i));
    const full = await rpc(calls(MAX_BATCH_CALLS));
    expectContract('chainRpc', full, 200);
    expect(full.json()).toHaveLength(MAX_BATCH_CALLS);
    const over = await rpc(calls(MAX_BATCH_CALLS + 1));
    expectContract('chainRpc', over, 200);
    expect(over.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32005, message: `a batch holds at most ${MAX_BATCH_CALLS} calls` },
    });
  });

  it(`serves eth_getLogs over at most ${MAX_LOG_BLOCKS} blocks, tags counted as the blocks they name`, async () => {
    const logs = (filter: Record<string, unknown>) =>
      rpc(rpcCall('eth_getLogs', [{ address: contractAddress, ...filter }]));
    const whole = await logs({ fromBlock: 'earliest', toBlock: 'latest' });
    expectContract('chainRpc', whole, 200);
    expect(Array.isArray(whole.json().result)).toBe(true);
    expect(Array.isArray((await logs({})).json().result)).toBe(true);
    const last = `0x${(MAX_LOG_BLOCKS - 1).toString(16)}`;
    expect(Array.isArray((await logs({ fromBlock: '0x0', toBlock: last })).json().result)).toBe(true);

    const tooWide = await logs({ fromBlock: '0x0', toBlock: `0x${MAX_LOG_BLOCKS.toString(16)}` });
    expectContract('chainRpc', tooWide, 200);
    expect(tooWide.json().error).toEqual({
      code: -32005,
      message: `eth_getLogs covers at most ${MAX_LOG_BLOCKS} blocks`,
    });
    const unknown = await logs({ fromBlock: 'yesterday' });
    expect(unknown.json().error.code).toBe(-32602);
    expect((await rpc(rpcCall('eth_getLogs', []))).json().error.code).toBe(-32602);
  });

  it('serves eth_call on the anchor contract only', async () => {
    const data = encodeFunctionData({ abi: ANCHOR_ABI, functionName: 'roots', args: [0n] });
    const onContract = await rpc(rpcCall('eth_call', [{ to: contractAddress, data }, 'latest']));
    expect(onContract.json().result).toMatch(/^0x[0-9a-f]{64}$/);
    const elsewhere = await rpc(rpcCall('eth_call', [{ to: `0x${'11'.repeat(20)}`, data }, 'latest']));
    expect(elsewhere.json().error).toEqual({
      code: -32602,
      message: 'eth_call is served for the anchor contract only',
    });
    expect((await rpc(rpcCall('eth_call', [{ data }, 'latest']))).json().error.code).toBe(-32602);
  });

  it('limits requests per client address and minute (CHAIN_RPC_RATE_LIMIT_PER_MINUTE), an IPv6 /64 as one', async () => {
    const addresses = [
      '2001:db8:42::1',
      '2001:db8:42::2',
      '2001:0DB8:0042::3',
      '2001:db8:42:0:ffff::4',
      '2001:db8:42::5',
    ];
    for (const from of addresses.slice(0, RATE_LIMIT))
      expect((await rpc(rpcCall('eth_chainId'), from)).statusCode).toBe(200);
    const limited = await rpc(rpcCall('eth_chainId'), '2001:db8:42::99');
    expect(limited.statusCode).toBe(429);
    expectContract('chainRpc', limited, 429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await rpc(rpcCall('eth_chainId'), '2001:db8:43::1')).statusCode).toBe(200);
  });
});

describe('eth_getLogs bounds given as tags', () => {
  /** A node whose head is block `head` and whose finalized block is `finalized`, recording what it is asked. */
  function node(head: number, finalized: number | null) {
    const asked: { method: string; params?: unknown }[] = [];
    const request = (async ({ method, params }: { method: string; params?: unknown }) => {
      asked.push({ method, params });
      if (method === 'eth_blockNumber') return `0x${head.toString(16)}`;
      if (method === 'eth_getBlockByNumber')
        return finalized === null ? null : { number: `0x${finalized.toString(16)}` };
      if (method === 'eth_getLogs') return [];
      throw new Error(`unexpected ${method}`);
    }) as unknown as EIP1193RequestFn;
    return { request, asked };
  }
  const getLogs = (request: EIP1193RequestFn, filter: Record<string, unknown>) =>
    forwardReadOnly(
      request,
      { jsonrpc: '2.0', id: 7, method: 'eth_getLogs', params: [filter] },
      {
        contractAddress: '0x0',
      },
    );

  it('counts "earliest" as block 0 and "latest" as the head, and forwards the numbers it checked', async () => {
    const long = node(MAX_LOG_BLOCKS + 5, null);
    expect(await getLogs(long.request, { fromBlock: 'earliest', toBlock: 'latest' })).toMatchObject({
      error: { code: -32005 },
    });
    expect(long.asked.some((asked) => asked.method === 'eth_getLogs')).toBe(false);
    // A filter without bounds is the head alone.
    expect(await getLogs(long.request, {})).toEqual({ jsonrpc: '2.0', id: 7, result: [] });
    expect(long.asked.at(-1)).toEqual({
      method: 'eth_getLogs',
      params: [
        {
          fromBlock: `0x${(MAX_LOG_BLOCKS + 5).toString(16)}`,
          toBlock: `0x${(MAX_LOG_BLOCKS + 5).toString(16)}`,
        },
      ],
    });

    const recent = node(MAX_LOG_BLOCKS + 5, null);
    expect(await getLogs(recent.request, { fromBlock: '0x6', toBlock: 'latest' })).toMatchObject({
      result: [],
    });
    expect(recent.asked.at(-1)?.params).toEqual([
      { fromBlock: '0x6', toBlock: `0x${(MAX_LOG_BLOCKS + 5).toString(16)}` },
    ]);
  });

  it('resolves "finalized" through the node, and refuses a tag the node cannot place', async () => {
    const withFinal = node(MAX_LOG_BLOCKS * 3, MAX_LOG_BLOCKS * 2);
    expect(await getLogs(withFinal.request, { fromBlock: 'finalized', toBlock: 'latest' })).toMatchObject({
      error: { code: -32005 },
    });
    const withoutFinal = node(100, null);
    expect(await getLogs(withoutFinal.request, { fromBlock: 'finalized' })).toMatchObject({
      error: { code: -32602 },
    });
  });
});
