/**
 * What a running server answers on its control socket (socket.ts): a copy of its embedded database for
 * `npm run backup`, and a whole integrity sweep for `npm run integrity:sweep` (docs/backups.md).
 */
import type { FastifyInstance } from 'fastify';
import { databaseSchemaVersion } from '../backup/schema-version.ts';
import type { AppConfig } from '../config.ts';
import { type Database, dumpEmbeddedDatabase } from '../db/client.ts';
import { mismatchLine, summaryLines } from '../modules/integrity/sweep/run.ts';
import { type ControlSocket, openControlSocket } from './socket.ts';

export function openServerControlSocket(
  app: FastifyInstance,
  database: Database,
  config: Pick<AppConfig, 'dataDir'>,
): Promise<ControlSocket | null> {
  return openControlSocket(
    config.dataDir,
    {
      // With PostgreSQL the backup reads the database itself (pg_dump), while the server runs.
      dumpDatabase:
        database.kind === 'pglite'
          ? async (target) => {
              const version = await databaseSchemaVersion(database.pool);
              if (!version) throw new Error('the database has no migration applied');
              await dumpEmbeddedDatabase(database, target);
              return version;
            }
          : undefined,
      integritySweep: async (send) => {
        const summary = await app.integritySweep.runWhole((mismatch) =>
          send({ mismatch, line: mismatchLine(mismatch) }),
        );
        return { ...summary, lines: summaryLines(summary) };
      },
    },
    app.log,
  );
}
