import { describe, expect, it } from 'vitest';
import { loadConfig, openUrl } from './config.ts';

describe('log format', () => {
  it('is readable lines on a terminal, coloured unless NO_COLOR', () => {
    expect(loadConfig({}, true).logFormat).toBe('color');
    expect(loadConfig({ NO_COLOR: '1' }, true).logFormat).toBe('plain');
  });

  it('is JSON when nobody reads it live (a pipe, a file) or in production', () => {
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'production' }, true).logFormat).toBe('json');
  });
});

describe('the address to open', () => {
  it('is the configured host, localhost for "all interfaces", IPv6 in brackets', () => {
    expect(openUrl('localhost', 3000)).toBe('http://localhost:3000');
    expect(openUrl('192.168.1.5', 80)).toBe('http://192.168.1.5:80');
    expect(openUrl('0.0.0.0', 3000)).toBe('http://localhost:3000');
    expect(openUrl('::', 3000)).toBe('http://localhost:3000');
    expect(openUrl('::1', 4173)).toBe('http://[::1]:4173');
  });
});

describe('a cluster worker on the primary devnet', () => {
  const onDevnet = {
    CHAIN_RPC_URL: 'http://127.0.0.1:40123/',
    ANCHOR_PRIVATE_KEY: `0x${'a'.repeat(64)}`,
    ANCHOR_CONTRACT_ADDRESS: `0x${'b'.repeat(40)}`,
  };

  it('is marked only by the primary, and only together with the node it names', () => {
    expect(loadConfig({}).chain.clusterDevnet).toBe(false);
    expect(loadConfig(onDevnet).chain.clusterDevnet).toBe(false);
    expect(loadConfig({ ...onDevnet, UVTRACE_CLUSTER_DEVNET: 'true' }).chain.clusterDevnet).toBe(true);
    // Without a node to reach, the process runs its own embedded devnet whatever the flag says.
    expect(loadConfig({ UVTRACE_CLUSTER_DEVNET: 'true' }).chain.clusterDevnet).toBe(false);
  });
});

describe('several chain nodes', () => {
  const key = { ANCHOR_PRIVATE_KEY: `0x${'a'.repeat(64)}`, ANCHOR_CONTRACT_ADDRESS: `0x${'b'.repeat(40)}` };

  it('takes CHAIN_RPC_URL and CHAIN_PUBLIC_RPC_URL as comma-separated lists, in order', () => {
    const chain = loadConfig({
      ...key,
      CHAIN_RPC_URL: 'https://one.example/rpc, http://10.0.0.2:8545/ ,',
      CHAIN_PUBLIC_RPC_URL: 'https://public-a.example/rpc,https://public-b.example/rpc',
      CHAIN_RPC_TIMEOUT_SECONDS: '4',
    }).chain;
    expect(chain.rpcUrls).toEqual(['https://one.example/rpc', 'http://10.0.0.2:8545/']);
    expect(chain.rpcUrl).toBe('https://one.example/rpc');
    expect(chain.publicRpcUrls).toEqual(['https://public-a.example/rpc', 'https://public-b.example/rpc']);
    expect(chain.publicRpcUrl).toBe('https://public-a.example/rpc');
    expect(chain.rpcTimeoutSeconds).toBe(4);
    expect(loadConfig({}).chain).toMatchObject({ rpcUrls: [], publicRpcUrls: [], rpcTimeoutSeconds: 10 });
  });

  it('refuses a node that is not an http(s) URL, and a time-out under a second', () => {
    expect(() => loadConfig({ ...key, CHAIN_RPC_URL: 'https://one.example, ws://two.example' })).toThrow(
      /CHAIN_RPC_URL/,
    );
    expect(() => loadConfig({ CHAIN_RPC_TIMEOUT_SECONDS: '0' })).toThrow(/CHAIN_RPC_TIMEOUT_SECONDS/);
  });
});

describe('anchor fees', () => {
  it('reads the ceiling in gwei (decimals allowed) and the blocks before a replacement', () => {
    expect(loadConfig({}).chain).toMatchObject({ maxFeePerGasWei: 100_000_000_000n, replaceAfterBlocks: 5 });
    const chain = loadConfig({ ANCHOR_MAX_FEE_GWEI: '0.25', ANCHOR_REPLACE_AFTER_BLOCKS: '3' }).chain;
    expect(chain.maxFeePerGasWei).toBe(250_000_000n);
    expect(chain.replaceAfterBlocks).toBe(3);
    expect(loadConfig({ ANCHOR_MAX_FEE_GWEI: '2.000000001' }).chain.maxFeePerGasWei).toBe(2_000_000_001n);
    for (const bad of ['0', '-1', '1e3', 'abc', '1.0000000001']) {
      expect(() => loadConfig({ ANCHOR_MAX_FEE_GWEI: bad }), bad).toThrow(/ANCHOR_MAX_FEE_GWEI/);
    }
  });
});

describe('finality', () => {
  it("is the node's finalized tag unless CHAIN_FINALITY_DEPTH names a depth", () => {
    expect(loadConfig({}).chain.finalityDepth).toBeNull();
    expect(loadConfig({ CHAIN_FINALITY_DEPTH: '12' }).chain.finalityDepth).toBe(12);
    expect(() => loadConfig({ CHAIN_FINALITY_DEPTH: 'deep' })).toThrow(/CHAIN_FINALITY_DEPTH/);
  });
});
