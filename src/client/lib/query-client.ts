/**
 * TanStack Query owns server state. Failed queries and mutations raise the SPEC §8 alert in one
 * place; a query or mutation that reports its own errors sets `meta: { silentError: true }`.
 */
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { notifyApiError } from './toasts';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silentError?: boolean };
    mutationMeta: { silentError?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silentError) notifyApiError(error);
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
        // The server answered: asking again gives the same answer. Network failures get one more try.
        retry: (failureCount, error) => !(error instanceof ApiError) && failureCount < 1,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
