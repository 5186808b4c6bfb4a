import { createRootRouteWithContext } from '@tanstack/react-router';
import { AppShell } from '../components/layout/app-shell';
import { NotFoundRedirect } from '../components/route-fallbacks';
import type { RouterContext } from '../lib/router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
  notFoundComponent: NotFoundRedirect,
});
