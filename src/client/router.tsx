import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { NotFoundRedirect, PagePending, RouteError } from './components/route-fallbacks';
import { setSessionExpiredHandler } from './lib/api-client';
import { session } from './lib/session';
import { toast } from './lib/toasts';
import { routeTree } from './routeTree.gen';

const PUBLIC_PATHS = new Set(['/login', '/blockchain']);

export function createAppRouter(queryClient: QueryClient) {
  const router = createRouter({
    routeTree,
    context: { queryClient, session },
    defaultPreload: 'intent',
    // TanStack Query decides freshness; the router always asks it.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    defaultPendingComponent: PagePending,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFoundRedirect,
  });

  // docs/product.md §8 session_expired: logout, alert, go to login (and come back after it).
  setSessionExpiredHandler(() => {
    session.clear();
    toast.error({ id: 'errors.session_expired' });
    const { pathname, href } = router.state.location;
    if (!PUBLIC_PATHS.has(pathname)) {
      void router.navigate({ to: '/login', search: { redirect: href }, replace: true });
    }
  });

  // Logged out (or in as someone else) in another tab: re-run the route guards here.
  session.subscribeExternal(() => {
    if (!session.get() && !PUBLIC_PATHS.has(router.state.location.pathname)) void router.invalidate();
  });

  return router;
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
