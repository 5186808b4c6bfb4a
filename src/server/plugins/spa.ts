/**
 * Serves the built React app with history-mode fallback: any GET outside the API that is not a file
 * gets index.html, so deep links and reloads work. Without a build the API still runs.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, LogLevel } from 'fastify';
import { isApiPath } from './errors.ts';

export async function registerSpa(
  app: FastifyInstance,
  clientDist: string,
  /** The static files' log level (routine: app.ts, routineLogLevel). */
  logLevel?: LogLevel,
): Promise<boolean> {
  const hasBuild = existsSync(path.join(clientDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: clientDist,
      ...(logLevel ? { logLevel } : {}),
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        // Vite puts a content hash in every asset name: those never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (!hasBuild || request.method !== 'GET' || isApiPath(request.url)) {
      return reply.status(404).send({ status: 'error', message: 'not_found', data: null });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return hasBuild;
}
