/**
 * TanStack Query owns server state. Failed queries and mutations raise the docs/product.md §8 alert in one
 * place; a query or mutation that reports its own errors sets `meta: { silentError: true }`, one whose
 * failure has its own text names it in `meta.failureMessage`.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { type MessageRef, notifyApiError } from './toasts';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      silentError?: boolean;
      /**
       * The alert for this query's failure instead of the server's message (docs/product.md §8's own texts).
       */
      failureMessage?: MessageRef;
    };
    mutationMeta: { silentError?: boolean };
  }
}

/**
 * A read is tried once more after a network failure or a 503 (the database away for a moment: the
 * next try, a second later, may well succeed); any other answer of the server would only repeat.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  const passing = !(error instanceof ApiError) || error.status === 503;
  return passing && failureCount < 1;
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silentError) notifyApiError(error, query.meta?.failureMessage);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.silentError) notifyApiError(error);
      },
      // Every successful write is an audit entry: the audit view and history panels are out of date.
      onSuccess: () => {
        void client.invalidateQueries({ queryKey: ['audit'] });
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: shouldRetryQuery,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
