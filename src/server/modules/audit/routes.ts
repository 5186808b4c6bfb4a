/** The audit trail, read-only (docs/audit.md): the audit view and the history panels, for canSeeAudit. */

import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { ok } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { receivedWindow } from '#server/http/received-window.ts';
import { requireAbility } from '#server/security/guards.ts';
import { listAuditPage } from './repository.ts';

export function auditModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async listAudit(request) {
        requireAbility(request, 'canSeeAudit');
        const { page, entityType, entityId, actor, from, to } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listAuditPage(
          db,
          { entityType, entityId, actor, window: receivedWindow(from, to) },
          paging,
        );
        return ok(pageOf(rows, total, paging));
      },
    },
  };
}
