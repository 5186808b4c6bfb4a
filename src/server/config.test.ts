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
