import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { api } from './api-client';
import { session } from './session';

/** Ends the session here and on the server (best effort), then goes to login (docs/product.md §2 Layout). */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    const current = session.get();
    // Cleared first, so a 401 from the logout call is not taken for an expired session.
    session.clear();
    if (current) {
      void api
        .POST('/auth/logout', { headers: { Authorization: `Bearer ${current.token}` } })
        .catch(() => undefined);
    }
    await navigate({ to: '/login' });
    queryClient.clear();
  }, [navigate, queryClient]);
}
