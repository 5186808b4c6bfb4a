import { isNotFound } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { idParam } from './route-params';

describe('idParam', () => {
  const params = idParam('userId');

  it('parses a positive integer id and writes it back as text', () => {
    expect(params.parse({ userId: '42' })).toEqual({ userId: 42 });
    expect(params.stringify({ userId: 42 })).toEqual({ userId: '42' });
  });

  it('finds nothing for anything else', () => {
    for (const raw of ['abc', '0', '-3', '1.5', '', '1e3x']) {
      let thrown: unknown;
      try {
        params.parse({ userId: raw });
      } catch (error) {
        thrown = error;
      }
      expect([raw, isNotFound(thrown)]).toEqual([raw, true]);
    }
  });
});
