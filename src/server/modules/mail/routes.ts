/** The e-mail outbox, read-only (canSeeMailOutbox): what was sent, what waits, what failed. */

import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { ok } from '#server/http/envelope.ts';
import { pageOf, pageRequest } from '#server/http/paging.ts';
import { requireAbility } from '#server/security/guards.ts';
import { listMailPage } from './repository.ts';

export function mailModule(deps: { db: Db; sendingEnabled: boolean; maxAttempts: number }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async listMailOutbox(request) {
        requireAbility(request, 'canSeeMailOutbox');
        const { page, state, to } = request.query;
        const paging = pageRequest(page, request.query.perPage);
        const { rows, total } = await listMailPage(db, { state, to, maxAttempts: deps.maxAttempts }, paging);
        return ok({ ...pageOf(rows, total, paging), sending_enabled: deps.sendingEnabled });
      },
    },
  };
}
