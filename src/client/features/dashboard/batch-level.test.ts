import { describe, expect, it } from 'vitest';
import { batchLevel } from './batch-level';

describe('batchLevel', () => {
  it('is ok under 80% of the batch quantity', () => {
    expect(batchLevel(0, 1000)).toBe('ok');
    expect(batchLevel(799, 1000)).toBe('ok'); // 79.9 %
  });

  it('is a warning from 80% up to just under 100%', () => {
    expect(batchLevel(800, 1000)).toBe('warning'); // 80 %
    expect(batchLevel(999, 1000)).toBe('warning'); // 99.9 %
  });

  it('is danger at or over 100%', () => {
    expect(batchLevel(1000, 1000)).toBe('danger'); // 100 %
    expect(batchLevel(1200, 1000)).toBe('danger');
  });

  it('handles exact 80% with quantities that are not multiples of 10', () => {
    expect(batchLevel(3, 5)).toBe('ok'); // 60 %
    expect(batchLevel(4, 5)).toBe('warning'); // 80 %
    expect(batchLevel(5, 5)).toBe('danger');
  });

  it('treats a batch without quantity as exhausted', () => {
    expect(batchLevel(0, 0)).toBe('danger');
  });
});
