/**
 * buildApp wires the server from its parts; main.ts only listens. Tests call buildApp with their own
 * database and use inject() against it.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { createLoginThrottle } from './auth/login-throttle.ts';
import { createSessionStore } from './auth/session-store.ts';
import type { Chain } from './chain/chain.ts';
import { createChainService } from './chain/service.ts';
import type { AppConfig } from './config.ts';
import type { ApiModule } from './contract/handler-types.ts';
import { loadContract } from './contract/load-contract.ts';
import { registerOperations } from './contract/register-operations.ts';
import type { Database } from './db/client.ts';
import { prettyLogStream } from './log-format.ts';
import { auditModule } from './modules/audit/routes.ts';
import { authModule } from './modules/auth/routes.ts';
import { certificatesModule } from './modules/certificates/routes.ts';
import { customersModule } from './modules/customers/routes.ts';
import { dashboardModule } from './modules/dashboard/routes.ts';
import { devicesModule } from './modules/devices/routes.ts';
import { healthModule } from './modules/health/routes.ts';
import { productsModule } from './modules/products/routes.ts';
import { sterilizationsModule } from './modules/sterilizations/routes.ts';
import { transactionsModule } from './modules/transactions/routes.ts';
import { usersModule } from './modules/users/routes.ts';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors.ts';
import { registerMultipart } from './plugins/multipart.ts';
import { rateLimitPerMinute, registerRateLimits } from './plugins/rate-limits.ts';
import { registerSecurityHeaders, securityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';

export interface AppDependencies {
  database: Database;
  /** Close the database together with the app (main.ts); tests close it themselves. */
  ownsDatabase?: boolean;
  /** A connected chain to use instead of config.chain (tests sharing one devnet between apps). */
  chain?: Chain;
  /** Where the log goes instead of stdout (tests that read it). */
  logStream?: { write(line: string): void };
}

/** Query values that are credentials (an export ticket) never reach the log. */
export function loggableUrl(url: string): string {
  return url.replace(/([?&](?:ticket|token|access_token)=)[^&#]*/gi, '$1[redacted]');
}

export async function buildApp(config: AppConfig, deps: AppDependencies): Promise<FastifyInstance> {
  const publicRpc = config.chain.publicRpcUrl;
  const applySecurityHeaders = securityHeaders({
    https: config.https,
    extraConnectSources: publicRpc && /^https?:\/\//.test(publicRpc) ? [new URL(publicRpc).origin] : [],
  });
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(deps.logStream
              ? { stream: deps.logStream }
              : config.logFormat === 'json'
                ? {}
                : { stream: prettyLogStream(process.stdout, { color: config.logFormat === 'color' }) }),
            // Fastify logs no headers; should anything ever log them, the credentials stay out.
            redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
            serializers: {
              req: (request: FastifyRequest) => ({
                method: request.method,
                url: loggableUrl(request.url),
                host: request.host,
                remoteAddress: request.ip,
              }),
            },
          },
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyMaxBytes,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: (error, request, reply) => {
      applySecurityHeaders(request, reply);
      answerFrameworkError(error, reply);
    },
  });
  const { db } = deps.database;
  app.decorateRequest('auth', null);

  registerErrorHandling(app);
  registerSecurityHeaders(app, applySecurityHeaders);
  await registerRateLimits(app, deps.database);
  await registerMultipart(app, config.uploadMaxBytes);

  const sessions = createSessionStore(db, {
    idleMinutes: config.sessionIdleMinutes,
    maxHours: config.sessionMaxHours,
  });
  const throttle = createLoginThrottle(db, {
    pairMaxFailures: config.loginMaxFailures,
    addressMaxFailures: config.loginAddressMaxFailures,
    windowSeconds: config.loginFailureWindowSeconds,
    maxDelaySeconds: config.loginMaxDelaySeconds,
  });
  const chain = createChainService({ db, config: config.chain, log: app.log, chain: deps.chain });
  const modules: ApiModule[] = [
    healthModule({ db }),
    authModule({ db, sessions, throttle }),
    dashboardModule({ db }),
    customersModule({ db }),
    usersModule({ db, sessions }),
    devicesModule({ db }),
    productsModule({ db }),
    sterilizationsModule({ db, sessionIdleMinutes: config.sessionIdleMinutes }),
    certificatesModule({ db }),
    transactionsModule({ db, chain }),
    auditModule({ db }),
  ];
  registerOperations(app, loadContract().operations, modules, sessions, {
    login: rateLimitPerMinute(config.loginRateLimitPerMinute),
    ingestSterilizations: rateLimitPerMinute(config.ingestRateLimitPerMinute),
  });
  await registerSpa(app, config.clientDist);

  // The anchor worker runs in the server process unless ANCHOR_ENABLED=false; it stops before the database closes.
  if (config.chain.anchorEnabled) app.addHook('onReady', () => chain.startWorker());
  // One hook, in this order: Fastify runs onClose hooks last-registered first, and a database closed
  // under a running anchor pass fails that pass.
  app.addHook('onClose', async () => {
    await chain.stop();
    if (deps.ownsDatabase) await deps.database.close();
  });
  return app;
}
