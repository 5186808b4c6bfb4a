/**
 * buildApp wires the server from its parts; main.ts only listens. Tests call buildApp with their own
 * database and use inject() against it.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { createLoginThrottle } from './auth/login-throttle.ts';
import { createSessionStore } from './auth/session-store.ts';
import type { Chain } from './chain/chain.ts';
import { createChainService } from './chain/service.ts';
import type { AppConfig } from './config.ts';
import type { ApiModule } from './contract/handler-types.ts';
import { loadContract } from './contract/load-contract.ts';
import { registerOperations } from './contract/register-operations.ts';
import type { Database } from './db/client.ts';
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
import { registerErrorHandling } from './plugins/errors.ts';
import { registerMultipart } from './plugins/multipart.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';

export interface AppDependencies {
  database: Database;
  /** Close the database together with the app (main.ts); tests close it themselves. */
  ownsDatabase?: boolean;
  /** A connected chain to use instead of config.chain (tests sharing one devnet between apps). */
  chain?: Chain;
}

export async function buildApp(config: AppConfig, deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const { db } = deps.database;
  app.decorateRequest('auth', null);

  registerErrorHandling(app);
  const publicRpc = config.chain.publicRpcUrl;
  await registerSecurityHeaders(app, {
    https: config.https,
    extraConnectSources: publicRpc && /^https?:\/\//.test(publicRpc) ? [new URL(publicRpc).origin] : [],
  });
  await registerMultipart(app, config.uploadMaxBytes);

  const sessions = createSessionStore(db, {
    idleMinutes: config.sessionIdleMinutes,
    maxHours: config.sessionMaxHours,
  });
  const throttle = createLoginThrottle(config.loginMaxFailures, config.loginFailureWindowSeconds);
  const chain = createChainService({ db, config: config.chain, log: app.log, chain: deps.chain });
  const modules: ApiModule[] = [
    healthModule({ db }),
    authModule({ db, sessions, throttle }),
    dashboardModule({ db }),
    customersModule({ db }),
    usersModule({ db, sessions }),
    devicesModule({ db }),
    productsModule({ db }),
    sterilizationsModule({ db }),
    certificatesModule({ db }),
    transactionsModule({ db, chain }),
  ];
  registerOperations(app, loadContract().operations, modules, sessions);
  await registerSpa(app, config.clientDist);

  // The anchor worker runs in the server process unless ANCHOR_ENABLED=false; it stops before the database closes.
  if (config.chain.anchorEnabled) app.addHook('onReady', () => chain.startWorker());
  app.addHook('onClose', () => chain.stop());
  if (deps.ownsDatabase) app.addHook('onClose', () => deps.database.close());
  return app;
}
