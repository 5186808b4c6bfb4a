/** What anchoring costs, per month and per record (canSeeChainCosts: the maker's SUPER_ADMIN and ADMIN). */
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { ok } from '#server/http/envelope.ts';
import { requireAbility } from '#server/security/guards.ts';
import { anchoringCosts } from './repository.ts';

export function chainCostsModule(deps: { db: Db; network: string }): ApiModule {
  return {
    handlers: {
      async getAnchoringCosts(request) {
        requireAbility(request, 'canSeeChainCosts');
        return ok(await anchoringCosts(deps.db, deps.network, request.query.months ?? 12));
      },
    },
  };
}
