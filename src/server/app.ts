/**
 * buildApp wires the server from its parts; main.ts only listens. Tests call buildApp with their own
 * database and use inject() against it.
 */
import type { LogLevel } from 'fastify';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { createLeadership } from './background/leadership.ts';
import { type AppConfig, openUrl } from './config.ts';
import type { ApiModule } from './contract/handler-types.ts';
import { loadContract } from './contract/load-contract.ts';
import { registerOperations } from './contract/register-operations.ts';
import type { Database } from './db/client.ts';
import { createEmbeddedMaintenance } from './db/embedded-maintenance.ts';
import { startEventBus } from './event-bus/event-bus.ts';
import { registerForegroundRequests } from './http/give-way.ts';
import { registerServerTiming } from './http/server-timing.ts';
import { prettyLogStream } from './log-format.ts';
import { createAlertAnnouncer } from './modules/alerts/announce.ts';
import { alertsModule } from './modules/alerts/routes.ts';
import { type AlertService, createAlertService } from './modules/alerts/service.ts';
import { auditModule } from './modules/audit/routes.ts';
import { resetMailText } from './modules/auth/password-reset.ts';
import { authModule } from './modules/auth/routes.ts';
import { certificatesModule } from './modules/certificates/routes.ts';
import { customersModule } from './modules/customers/routes.ts';
import { dashboardModule } from './modules/dashboard/routes.ts';
import { devicesModule } from './modules/devices/routes.ts';
import { createEventStreams } from './modules/events/event-streams.ts';
import { eventsModule } from './modules/events/routes.ts';
import { healthModule } from './modules/health/routes.ts';
import type { Chain } from './modules/integrity/chain.ts';
import { chainCostsModule } from './modules/integrity/costs/routes.ts';
import { integrityModule } from './modules/integrity/routes.ts';
import { createChainService } from './modules/integrity/service.ts';
import {
  createIntegritySweep,
  INTEGRITY_SWEEP_LOCK_KEY,
  type IntegritySweepService,
} from './modules/integrity/sweep/background.ts';
import { mailModule } from './modules/mail/routes.ts';
import { createMailSender, type MailSender } from './modules/mail/sender.ts';
import { createSmtpTransport } from './modules/mail/transport.ts';
import { notificationsModule } from './modules/notifications/routes.ts';
import { productsModule } from './modules/products/routes.ts';
import { reportsModule } from './modules/reports/routes.ts';
import { savedViewsModule } from './modules/saved-views/routes.ts';
import { sterilizationsModule } from './modules/sterilizations/routes.ts';
import { usersModule } from './modules/users/routes.ts';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors.ts';
import { registerMultipart } from './plugins/multipart.ts';
import { rateLimitPerMinute, registerRateLimits } from './plugins/rate-limits.ts';
import { registerSecurityHeaders, securityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';
import { createLoginThrottle } from './security/login-throttle.ts';
import { createSessionStore } from './security/session-store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's alert evaluation and sweep (tests call sweep(now) and idle() on it). */
    alerts: AlertService;
    /** The integrity sweep: its background passes, and a whole sweep on demand (docs/backups.md). */
    integritySweep: IntegritySweepService;
  }
}

export interface AppDependencies {
  database: Database;
  /** Close the database together with the app (main.ts); tests close it themselves. */
  ownsDatabase?: boolean;
  /** A connected chain to use instead of config.chain (tests sharing one devnet between apps). */
  chain?: Chain;
  /** Where the log goes instead of stdout (tests that read it). */
  logStream?: { write(line: string): void };
  /** How often a process tries to take over background work (tests shorten it; default 5 s). */
  leadershipRetryMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this process runs the background work (the anchor worker) for every process on the database. */
    leadsBackgroundWork(): boolean;
  }
}

/** Query values that are credentials (an export ticket) never reach the log. */
export function loggableUrl(url: string): string {
  return url.replace(/([?&](?:ticket|token|access_token)=)[^&#]*/gi, '$1[redacted]');
}

/** How often the embedded database's tables are looked at for vacuum and analyze (db/embedded-maintenance.ts). */
const EMBEDDED_MAINTENANCE_MS = 10_000;

/**
 * The level of routine requests (the app's static files, a live-update stream a reload closes): their
 * lines show only when debugging (LOG_LEVEL debug or trace); otherwise only their warnings and errors.
 */
function routineLogLevel(level: string): LogLevel {
  return level === 'debug' || level === 'trace' ? level : 'warn';
}

export async function buildApp(config: AppConfig, deps: AppDependencies): Promise<FastifyInstance> {
  const applySecurityHeaders = securityHeaders({
    https: config.https,
    extraConnectSources: config.chain.publicRpcUrls
      .filter((url) => /^https?:\/\//.test(url))
      .map((url) => new URL(url).origin),
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
  if (config.production && config.mfaRequiredRoles.length === 0)
    app.log.warn(
      'MFA_REQUIRED_ROLES is empty: no role must sign in with a second factor (set e.g. SUPER_ADMIN,ADMIN; docs/accounts.md §5)',
    );

  registerErrorHandling(app);
  const foreground = registerForegroundRequests(app);
  registerSecurityHeaders(app, applySecurityHeaders);
  if (config.serverTiming) registerServerTiming(app, deps.database.pool);
  await registerRateLimits(app, deps.database);
  await registerMultipart(app, config.uploadMaxBytes);

  const sessions = createSessionStore(db, {
    idleMinutes: config.sessionIdleMinutes,
    maxHours: config.sessionMaxHours,
    cacheSeconds: config.sessionCacheSeconds,
  });
  const throttle = createLoginThrottle(db, {
    pairMaxFailures: config.loginMaxFailures,
    addressMaxFailures: config.loginAddressMaxFailures,
    windowSeconds: config.loginFailureWindowSeconds,
    maxDelaySeconds: config.loginMaxDelaySeconds,
  });
  // Password reset requests and links are throttled as logins are, apart from them (docs/accounts.md §4).
  const resetThrottle = createLoginThrottle(db, {
    pairMaxFailures: config.loginMaxFailures,
    addressMaxFailures: config.loginAddressMaxFailures,
    windowSeconds: config.loginFailureWindowSeconds,
    maxDelaySeconds: config.loginMaxDelaySeconds,
    scope: 'password_reset',
  });
  const chain = createChainService({
    db,
    config: config.chain,
    log: app.log,
    chain: deps.chain,
    onAlertsRaised: (alertIds) => announceAlerts(alertIds),
  });
  // Mails of raised alerts are sent by the background sender (created below, when SMTP_URL is set).
  let nudgeMailSender: (() => void) | undefined;
  const announceAlerts = createAlertAnnouncer({
    db,
    appUrl: config.mail.appUrl ?? openUrl(config.host, config.port),
    mailQueued: () => nudgeMailSender?.(),
  });
  const alerts = createAlertService({ db, config: config.alerts, log: app.log, onRaised: announceAlerts });
  app.decorate('alerts', alerts);
  const bus = startEventBus(deps.database, app.log);
  bus.followAuthChanges(sessions);
  const streams = createEventStreams({
    bus,
    sessions,
    heartbeatMs: config.eventsHeartbeatSeconds * 1000,
    log: app.log,
  });
  const modules: ApiModule[] = [
    healthModule({ db, chain }),
    authModule({
      db,
      sessions,
      throttle,
      appUrl: config.mail.appUrl ?? openUrl(config.host, config.port),
      mailQueued: () => nudgeMailSender?.(),
      resetThrottle,
      mfaRequiredRoles: config.mfaRequiredRoles,
      webauthn: config.webauthn,
    }),
    notificationsModule({ db }),
    savedViewsModule({ db }),
    dashboardModule({ db }),
    customersModule({ db, sessions }),
    usersModule({ db, sessions }),
    devicesModule({ db }),
    productsModule({ db }),
    sterilizationsModule({
      db,
      sessionIdleMinutes: config.sessionIdleMinutes,
      deviceClockSkewSeconds: config.deviceClockSkewSeconds,
      onRecordsStored: alerts.recordsStored,
      chain,
      foreground,
      appUrl: config.mail.appUrl ?? openUrl(config.host, config.port),
    }),
    certificatesModule({ db }),
    integrityModule({ db, chain }),
    chainCostsModule({ db, network: config.chain.network }),
    auditModule({ db }),
    mailModule({ db, sendingEnabled: Boolean(config.mail.smtpUrl), maxAttempts: config.mail.maxAttempts }),
    alertsModule({ db }),
    eventsModule({ bus, streams, foreground }),
    reportsModule({ db, throttle, chain, webauthn: config.webauthn }),
  ];
  registerOperations(
    app,
    loadContract().operations,
    modules,
    sessions,
    {
      login: rateLimitPerMinute(config.loginRateLimitPerMinute),
      requestPasswordReset: rateLimitPerMinute(config.loginRateLimitPerMinute),
      completePasswordReset: rateLimitPerMinute(config.loginRateLimitPerMinute),
      // Passwordless sign-in: anyone may ask for a challenge (a row each) and answer it.
      passkeySignInOptions: rateLimitPerMinute(config.loginRateLimitPerMinute),
      passkeySignIn: rateLimitPerMinute(config.loginRateLimitPerMinute),
      ingestSterilizations: rateLimitPerMinute(config.ingestRateLimitPerMinute),
      chainRpc: rateLimitPerMinute(config.chainRpcRateLimitPerMinute),
    },
    { streamEvents: routineLogLevel(config.logLevel) },
  );
  await registerSpa(app, config.clientDist, routineLogLevel(config.logLevel));

  // Mails are sent by a background sender only when an SMTP server is configured; otherwise they stay in the outbox.
  const mailSender: MailSender | null = config.mail.smtpUrl
    ? createMailSender({
        db,
        transport: createSmtpTransport(config.mail.smtpUrl),
        from: config.mail.from,
        maxAttempts: config.mail.maxAttempts,
        intervalSeconds: config.mail.intervalSeconds,
        log: app.log,
        completeText: resetMailText(db, config.mail.appUrl ?? openUrl(config.host, config.port)),
      })
    : null;
  if (mailSender) app.addHook('onReady', () => mailSender.start());
  nudgeMailSender = mailSender?.nudge;

  // The anchor worker runs unless ANCHOR_ENABLED=false, in one process of all those on the database
  // (background/leadership.ts); it stops before the database closes.
  const leadership = config.chain.anchorEnabled
    ? createLeadership({
        database: deps.database,
        lead: () => chain.startWorker(),
        stepDown: () => chain.stop(),
        log: app.log,
        retryMs: deps.leadershipRetryMs,
      })
    : undefined;
  app.decorate('leadsBackgroundWork', () => leadership?.leading() ?? false);
  if (leadership) app.addHook('onReady', () => leadership.start());
  // The integrity sweep leads apart from the anchor worker (its own lock): it runs where anchoring is off too.
  const integritySweep = createIntegritySweep({
    db,
    chain: () => chain.chain(),
    intervalHours: config.integritySweepIntervalHours,
    log: app.log,
    onRaised: announceAlerts,
  });
  app.decorate('integritySweep', integritySweep);
  const sweepLeadership =
    config.integritySweepIntervalHours > 0
      ? createLeadership({
          database: deps.database,
          lead: async () => integritySweep.start(),
          stepDown: () => integritySweep.stop(),
          log: app.log,
          retryMs: deps.leadershipRetryMs,
          lockKey: INTEGRITY_SWEEP_LOCK_KEY,
          work: 'the integrity sweep',
        })
      : undefined;
  if (sweepLeadership) app.addHook('onReady', () => sweepLeadership.start());
  // The first sweep runs at start, so a restarted server (or the freshly seeded demo) shows what holds now.
  app.addHook('onReady', async () => alerts.start());
  const maintenance =
    deps.database.kind === 'pglite'
      ? createEmbeddedMaintenance({ db, intervalMs: EMBEDDED_MAINTENANCE_MS, log: app.log })
      : undefined;
  if (maintenance) app.addHook('onReady', async () => maintenance.start());
  // Open event streams would hold the server's close until their clients leave.
  app.addHook('preClose', () => streams.closeAll());
  // One hook, in this order: Fastify runs onClose hooks last-registered first, and a database closed
  // under a running anchor pass fails that pass.
  app.addHook('onClose', async () => {
    await alerts.stop();
    await maintenance?.stop();
    await mailSender?.stop();
    await sweepLeadership?.stop();
    await integritySweep.stop();
    await leadership?.stop();
    await chain.stop();
    await bus.close();
    if (deps.ownsDatabase) await deps.database.close();
  });
  return app;
}
