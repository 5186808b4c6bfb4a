/** Every environment variable the server reads, parsed and documented once (README "Configuration"). */
import path from 'node:path';

export interface AppConfig {
  /** HTTP port (PORT, default 3000). */
  port: number;
  /** Listen address (HOST, default "localhost": both 127.0.0.1 and ::1). */
  host: string;
  /** Real PostgreSQL connection string (DATABASE_URL); when absent the embedded PGlite under dataDir is used. */
  databaseUrl: string | undefined;
  /** Where embedded data lives (DATA_DIR, default ./data). */
  dataDir: string;
  /** Directory of the built SPA (CLIENT_DIST, default ./dist/client); the API runs without it. */
  clientDist: string;
  /** Seed demo data when the database is empty (SEED_DEMO_DATA, default true). */
  seedDemoData: boolean;
  /** pino level (LOG_LEVEL, default info). */
  logLevel: string;
  /** Session ends after this many idle minutes (SESSION_IDLE_MINUTES, default 120). */
  sessionIdleMinutes: number;
  /** Session ends this many hours after login whatever happens (SESSION_MAX_HOURS, default 12). */
  sessionMaxHours: number;
  /** Failed logins for one email or one client address within the window before 429 (LOGIN_MAX_FAILURES, default 5). */
  loginMaxFailures: number;
  /** Window for counting failed logins, in seconds (LOGIN_FAILURE_WINDOW_SECONDS, default 900). */
  loginFailureWindowSeconds: number;
  /** Largest accepted upload, in bytes (UPLOAD_MAX_BYTES, default 20 MB). */
  uploadMaxBytes: number;
  /** Trust X-Forwarded-* from a reverse proxy (TRUST_PROXY, default false). */
  trustProxy: boolean;
  /** Send HSTS; set when served over HTTPS (HTTPS, default false). */
  https: boolean;
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

export function loadConfig(env: Env = process.env): AppConfig {
  return {
    port: integer(env, 'PORT', 3000),
    host: env.HOST || 'localhost',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    clientDist: path.resolve(env.CLIENT_DIST || 'dist/client'),
    seedDemoData: flag(env, 'SEED_DEMO_DATA', true),
    logLevel: env.LOG_LEVEL || 'info',
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 120),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 12),
    loginMaxFailures: integer(env, 'LOGIN_MAX_FAILURES', 5),
    loginFailureWindowSeconds: integer(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 900),
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', 20 * 1024 * 1024),
    trustProxy: flag(env, 'TRUST_PROXY', false),
    https: flag(env, 'HTTPS', false),
  };
}
