import { createRootRouteWithContext } from '@tanstack/react-router';
import { AppShell } from '../components/layout/app-shell';
import { NotFoundRedirect } from '../components/route-fallbacks';
import { AlertsBell } from '../features/alerts/alerts-bell';
import type { RouterContext } from '../lib/router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => <AppShell Bell={AlertsBell} />,
  notFoundComponent: NotFoundRedirect,
});
