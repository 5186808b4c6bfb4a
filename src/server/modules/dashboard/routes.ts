import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { ok } from '#server/http/envelope.ts';
import { currentAuth, tenantScope } from '#server/security/guards.ts';
import { hasModule } from '#shared/access/index.ts';
import { dashboardFigures } from './repository.ts';

/**
 * A figure is null (its card is omitted) when the caller has no module for it: customer users see
 * only their own devices and batches, never customer or user counts.
 */
export function dashboardModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async getDashboard(request) {
        const auth = currentAuth(request);
        const role = auth.user.role;
        const scope = tenantScope(auth);
        const figures = await dashboardFigures(db, {
          customerId: scope,
          withCustomers: hasModule(role, 'customers'),
          withUsers: hasModule(role, 'users'),
        });
        return ok({
          customers: figures.customers,
          users: figures.users,
          baths: figures.baths,
          plugs: figures.plugs,
          disposables: figures.batches,
          devices_with_gaps: figures.devicesWithGaps,
          lot_compliance: figures.lotCompliance,
        });
      },
    },
  };
}
