import { sql } from 'drizzle-orm';
import type { ApiModule } from '#server/contract/handler-types.ts';
import type { Db } from '#server/db/client.ts';
import { ApiError, ok } from '#server/http/envelope.ts';
import type { ChainService } from '../integrity/index.ts';

export function healthModule(deps: { db: Db; chain: Pick<ChainService, 'reachability'> }): ApiModule {
  return {
    handlers: {
      async getHealth(request) {
        try {
          await deps.db.execute(sql`select 1`);
        } catch (error) {
          // A probe's answer, not a fault of the request: 503 as the contract says, details in the log only.
          request.log.error({ err: error }, 'health: the database does not answer');
          throw new ApiError(503, 'service_unavailable');
        }
        // The server works without its chain node (only anchoring waits for it): still 200, and said.
        return ok({ status: 'ok', database: 'ok', chain: await deps.chain.reachability() });
      },
    },
  };
}
