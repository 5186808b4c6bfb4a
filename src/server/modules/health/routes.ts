import { sql } from 'drizzle-orm';
import type { ApiModule } from '../../contract/handler-types.ts';
import type { Db } from '../../db/client.ts';
import { ok } from '../../http/envelope.ts';

export function healthModule(deps: { db: Db }): ApiModule {
  return {
    handlers: {
      async getHealth() {
        await deps.db.execute(sql`select 1`);
        return ok({ status: 'ok', database: 'ok' });
      },
    },
  };
}
