import { describe, expect, it } from 'vitest';
import { summariseUserAgent } from './user-agent.ts';

describe('a session user agent as its owner reads it', () => {
  it('names the browser with its major version and the operating system', () => {
    expect(
      summariseUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'),
    ).toEqual({ browser: 'Firefox 128', os: 'Windows 10' });
    expect(
      summariseUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toEqual({ browser: 'Chrome 131', os: 'Linux' });
    expect(
      summariseUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ browser: 'Safari 17', os: 'iOS 17' });
  });

  it('says nothing it cannot read', () => {
    expect(summariseUserAgent(null)).toEqual({ browser: null, os: null });
    expect(summariseUserAgent('  ')).toEqual({ browser: null, os: null });
    expect(summariseUserAgent('curl/8.5.0')).toEqual({ browser: null, os: null });
  });
});
