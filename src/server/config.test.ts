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
