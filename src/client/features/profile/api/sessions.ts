import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '#client/lib/api-client.ts';
import type { DataOf } from '#shared/api/index.ts';

export type OwnSession = DataOf<'listOwnSessions'>[number];

/** GET /auth/me/sessions: where the user is signed in now (docs/accounts.md §3). */
export const ownSessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'me', 'sessions'],
    queryFn: () => unwrap(api.GET('/auth/me/sessions')),
  });

export const useOwnSessions = () => useQuery(ownSessionsQueryOptions());

function useSessionsChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ownSessionsQueryOptions().queryKey });
}

/** DELETE /auth/me/sessions/{sessionId}: ends one other session. */
export function useEndOwnSession() {
  const changed = useSessionsChanged();
  return useMutation({
    mutationKey: ['auth', 'me', 'sessions', 'end'],
    mutationFn: (sessionId: number) =>
      unwrap(api.DELETE('/auth/me/sessions/{sessionId}', { params: { path: { sessionId } } })),
    onSettled: changed,
  });
}

/** POST /auth/me/sessions/end-others: ends every session but this one. */
export function useEndOtherOwnSessions() {
  const changed = useSessionsChanged();
  return useMutation({
    mutationKey: ['auth', 'me', 'sessions', 'end-others'],
    mutationFn: () => unwrap(api.POST('/auth/me/sessions/end-others')),
    onSettled: changed,
  });
}
