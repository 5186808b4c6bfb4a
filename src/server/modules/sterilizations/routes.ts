import type { ApiModule } from '../../contract/handler-types.ts';
import type { Db } from '../../db/client.ts';
import { ok } from '../../http/envelope.ts';
import { ingest } from './ingestion.ts';

export function sterilizationsModule(deps: { db: Db }): ApiModule {
  const { db } = deps;
  return {
    handlers: {
      async ingestSterilizations(request) {
        return ok(await ingest(db, request.body.token), 'stored');
      },
    },
  };
}
