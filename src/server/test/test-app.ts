/**
 * An app on a fresh database with the demo data, for API tests through HTTP (inject). The database is
 * in-memory PGlite, or a throwaway database on a real server when TEST_DATABASE_URL is set.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type AppDependencies, buildApp } from '../app.ts';
import { type AppConfig, loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { type SeedSummary, seedDemoData } from '../db/seed.ts';
import { openTestDatabase } from './test-database.ts';

export const DEMO_PASSWORD = 'demo-password';
export const DEMO = {
  super: 'super@example.com',
  admin: 'admin@example.com',
  care: 'care@example.com',
  customer: 'customer@example.com',
} as const;

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: AppConfig;
  /** The environment the configuration was loaded from, beyond the tests' defaults. */
  configEnv: Record<string, string>;
  /** What the demo seed wrote, including each device's key pair. */
  seed: SeedSummary;
  /** Logs in through the API and returns the bearer token. */
  login(email: string, password?: string): Promise<string>;
  /** inject() with a bearer token. */
  as(token: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export function formBody(fields: Record<string, string>): { payload: FormData } {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return { payload: form };
}

let clientCounter = 0;
/** A distinct client address per call, so per-address login throttling in one test never leaks into another. */
export function uniqueClientAddress(): string {
  clientCounter += 1;
  return `198.51.${Math.floor(clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;
}

/**
 * A second app instance on `t`'s database, as a second server process would be (its own
 * configuration, its own in-memory state). On PostgreSQL it gets its own pool, so the two instances
 * also use different connections; the embedded PGlite takes one connection, so there they share it.
 */
export async function createPeerApp(
  t: TestApp,
  env: Record<string, string> = {},
  deps: Pick<AppDependencies, 'chain' | 'leadershipRetryMs'> = {},
): Promise<Pick<TestApp, 'app' | 'close'>> {
  const connectionString =
    t.database.kind === 'postgres' ? t.database.pool.options.connectionString : undefined;
  const database = connectionString ? await openDatabase({ databaseUrl: connectionString }) : t.database;
  const app = await buildApp(testConfig({ ...t.configEnv, LOG_LEVEL: 'silent', ...env }), {
    ...deps,
    database,
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      if (database !== t.database) await database.close();
    },
  };
}

function testConfig(env: Record<string, string>): AppConfig {
  return loadConfig({
    LOG_LEVEL: 'silent',
    CLIENT_DIST: '/nonexistent-client-build',
    TRUST_PROXY: 'true',
    // Tests that anchor turn the worker on themselves (src/server/modules/integrity/*.test.ts).
    ANCHOR_ENABLED: 'false',
    // Tests sweep alerts themselves, with their own clock (app.alerts.sweep(now)).
    ALERT_SWEEP_INTERVAL_SECONDS: '0',
    // Tests run the integrity sweep themselves (app.integritySweep).
    INTEGRITY_SWEEP_INTERVAL_HOURS: '0',
    ...env,
  });
}

export async function createTestApp(
  env: Record<string, string> = {},
  deps: Pick<AppDependencies, 'logStream'> = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const seed = await seedDemoData(database, { sterilizations: 60, deviceKeys: 'shared' });
  const config = testConfig(env);
  const app = await buildApp(config, { ...deps, database });
  await app.ready();
  const testApp: TestApp = {
    app,
    database,
    config,
    configEnv: env,
    seed,
    async login(email, password = DEMO_PASSWORD) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        headers: { 'x-forwarded-for': uniqueClientAddress() },
        ...formBody({ email, password }),
      });
      if (response.statusCode !== 200)
        throw new Error(`login ${email} failed: ${response.statusCode} ${response.body}`);
      return response.json().data.token as string;
    },
    as(token, options) {
      return app.inject({ ...options, headers: { ...options.headers, authorization: `Bearer ${token}` } });
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
  return testApp;
}
