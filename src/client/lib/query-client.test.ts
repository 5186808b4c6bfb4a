import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { shouldRetryQuery } from './query-client';

describe('shouldRetryQuery', () => {
  it('tries a read once more after a network failure or 503, never after another answer', () => {
    expect(shouldRetryQuery(0, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetryQuery(0, new ApiError(503, 'service_unavailable'))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError(503, 'service_unavailable'))).toBe(false);
    expect(shouldRetryQuery(1, new TypeError('Failed to fetch'))).toBe(false);
    for (const status of [400, 401, 403, 404, 422, 429, 500])
      expect(shouldRetryQuery(0, new ApiError(status, 'x')), String(status)).toBe(false);
  });
});
