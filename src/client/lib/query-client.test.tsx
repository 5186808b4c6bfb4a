import { act, cleanup, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { sterilizationCustomerFilterQueryOptions } from '../features/sterilizations/api/sterilizations';
import en from '../i18n/en.json';
import { ApiError } from './api-client';
import { createQueryClient, shouldRetryQuery } from './query-client';
import { customerOptionsQueryOptions } from './reference-lists';
import { dismissAllToasts, Toaster } from './toasts';

afterEach(() => {
  cleanup();
  act(() => dismissAllToasts());
});

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

describe('a failed query', () => {
  async function fail(error: unknown, options: ReturnType<typeof customerOptionsQueryOptions>) {
    render(
      <IntlProvider locale="en" messages={en}>
        <Toaster />
      </IntlProvider>,
    );
    const client = createQueryClient();
    await act(async () => {
      await client
        .fetchQuery({
          ...options,
          queryKey: [...options.queryKey, String(Math.random())],
          queryFn: () => Promise.reject(error),
          retry: false,
        })
        .catch(() => undefined);
    });
  }

  it('shows "Unable to retrieve client list" when a customer list fails (docs/product.md §8)', async () => {
    await fail(new ApiError(500, 'server_error'), customerOptionsQueryOptions());
    expect(screen.getByText('Unable to retrieve client list')).toBeTruthy();
    expect(screen.queryByText('The server could not complete the request')).toBeNull();
    cleanup();
    const filter = sterilizationCustomerFilterQueryOptions();
    expect(filter.meta).toEqual(customerOptionsQueryOptions().meta);
  });

  it('still says the session expired when that is why', async () => {
    await fail(new ApiError(401, 'session_expired'), customerOptionsQueryOptions());
    expect(screen.getByText('Session expired. Log in again')).toBeTruthy();
    expect(screen.queryByText('Unable to retrieve client list')).toBeNull();
  });
});
