import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { ok } from '#server/http/envelope.ts';
import { currentAuth, tenantScope } from '#server/security/guards.ts';
import { hasModule } from '#shared/access/index.ts';
import {
  countActiveCustomers,
  countActiveDevicesByType,
  countActiveUsers,
  countDevicesWithGaps,
  countLotFlagged,
  currentBatches,
} from './repository.ts';

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
        const [customers, users, devices, disposables, devicesWithGaps, lotCompliance] = await Promise.all([
          hasModule(role, 'customers') ? countActiveCustomers(db) : null,
          hasModule(role, 'users') ? countActiveUsers(db, scope) : null,
          countActiveDevicesByType(db, scope),
          currentBatches(db, scope),
          countDevicesWithGaps(db, scope),
          countLotFlagged(db, scope),
        ]);
        return ok({
          customers,
          users,
          baths: devices.baths,
          plugs: devices.plugs,
          disposables,
          devices_with_gaps: devicesWithGaps,
          lot_compliance: lotCompliance,
        });
      },
    },
  };
}
