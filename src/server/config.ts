/** Every environment variable the server reads, parsed and documented once (docs/configuration.md). */
import path from 'node:path';
import { isRole, ROLES, type Role } from '#shared/access/index.ts';

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
  /**
   * "color" / "plain": one readable line per event (src/server/log-format.ts), when stdout is a terminal
   * ("plain" with NO_COLOR set); "json": pino's lines, when it is not (a file, a pipe, a log collector)
   * or NODE_ENV=production.
   */
  logFormat: 'color' | 'plain' | 'json';
  /** Session ends after this many idle minutes (SESSION_IDLE_MINUTES, default 120). */
  sessionIdleMinutes: number;
  /** Session ends this many hours after login whatever happens (SESSION_MAX_HOURS, default 12). */
  sessionMaxHours: number;
  /**
   * A session found live is trusted without the database for this long (SESSION_CACHE_SECONDS, default
   * 10; 0 = every request reads it): every change that ends or alters it is heard at once, by this and
   * every other process on the database (security/session-cache.ts).
   */
  sessionCacheSeconds: number;
  /**
   * How much later than its arrival (or its token's iat) a device's own cycle time may be before the
   * record is marked as coming from a clock that runs ahead (DEVICE_CLOCK_SKEW_SECONDS, default 300).
   */
  deviceClockSkewSeconds: number;
  /**
   * Failed logins for one account from one client address before each further failure doubles the
   * wait for that pair (1 s, 2 s, 4 s…) with 429 (LOGIN_MAX_FAILURES, default 5). Other addresses are
   * not slowed, so nobody can lock an account out from elsewhere.
   */
  loginMaxFailures: number;
  /** The same for failures from one client address, whatever the account (LOGIN_ADDRESS_MAX_FAILURES, default 30). */
  loginAddressMaxFailures: number;
  /** Longest wait imposed after failed logins, in seconds (LOGIN_MAX_DELAY_SECONDS, default 900). */
  loginMaxDelaySeconds: number;
  /** Failures are forgotten after this many seconds without one once the wait has passed (LOGIN_FAILURE_WINDOW_SECONDS, default 900). */
  loginFailureWindowSeconds: number;
  /** Largest accepted upload, in bytes (UPLOAD_MAX_BYTES, default 20 MB). */
  uploadMaxBytes: number;
  /** Largest accepted request body other than a multipart form, in bytes (BODY_MAX_BYTES, default 1 MiB). */
  bodyMaxBytes: number;
  /** Login requests per client address per minute before 429, failed or not (LOGIN_RATE_LIMIT_PER_MINUTE, default 120; 0 = off). */
  loginRateLimitPerMinute: number;
  /** Device ingestion requests per client address per minute before 429 (INGEST_RATE_LIMIT_PER_MINUTE, default 600; 0 = off). */
  ingestRateLimitPerMinute: number;
  /**
   * Requests to the public read-only chain endpoint POST /chain-rpc per client address per minute before
   * 429 (CHAIN_RPC_RATE_LIMIT_PER_MINUTE, default 600; 0 = off). Checking a proof bundle in the browser
   * asks about two calls per anchoring transaction it names.
   */
  chainRpcRateLimitPerMinute: number;
  /**
   * Trust X-Forwarded-* from a reverse proxy (TRUST_PROXY, default false): the client address the login
   * throttle and the rate limits count by is then the one the proxy reports, not the proxy's own.
   * Set it only behind a proxy that overwrites X-Forwarded-For, or any client can pick its address.
   */
  trustProxy: boolean;
  /** Send HSTS on every answer (HTTPS, default false); without it only answers to HTTPS requests carry it. */
  https: boolean;
  /**
   * Answer every request with a Server-Timing header: its database time, pool wait and round trips
   * (SERVER_TIMING, default false; bench:load turns it on to profile). Off in production: it tells
   * clients how long the database took.
   */
  serverTiming: boolean;
  /**
   * Seconds between the heartbeat comments of a live-updates stream (EVENTS_HEARTBEAT_SECONDS, default
   * 20, at least 1); each beat also ends the streams whose session has ended.
   */
  eventsHeartbeatSeconds: number;
  /**
   * Roles that must sign in with a second factor (MFA_REQUIRED_ROLES, comma-separated, default none):
   * a user of one without a factor enrols at their next sign-in before anything else (docs/accounts.md §5).
   */
  mfaRequiredRoles: Role[];
  /** Passkeys: who the browser must be talking to (docs/accounts.md §6). */
  webauthn: WebauthnConfig;
  /** NODE_ENV=production: the server warns at start about settings a production server should not keep. */
  production: boolean;
  /** The chain integrity proofs are anchored on (docs/integrity.md). */
  chain: ChainConfig;
  mail: MailConfig;
  /** When conditions raise alerts (src/server/modules/alerts). */
  alerts: AlertConfig;
  /**
   * Hours between two full passes of the background integrity sweep, which recomputes every stored
   * record, block, token and audit entry (INTEGRITY_SWEEP_INTERVAL_HOURS, default 24; 0 = none;
   * docs/backups.md).
   */
  integritySweepIntervalHours: number;
}

export interface AlertConfig {
  /** A record whose residual lamp life (hours) is under this raises lamp_life_low (ALERT_LAMP_LIFE_THRESHOLD, default 200); a clinic may set its own. */
  lampLifeThreshold: number;
  /** A device with no record for longer than this many hours raises device_silent (ALERT_DEVICE_SILENT_HOURS, default 72); a clinic may set its own. */
  deviceSilentHours: number;
  /** A certificate expiring within this many days raises certificate_expiring (ALERT_CERTIFICATE_EXPIRY_DAYS, default 30). */
  certificateExpiryDays: number;
  /** A blockchain data block not MINED this many minutes after it was formed raises block_not_mined (ALERT_BLOCK_STUCK_MINUTES, default 30). */
  blockStuckMinutes: number;
  /** Seconds between two sweeps of the time rules in this process; 0 = no periodic sweep (ALERT_SWEEP_INTERVAL_SECONDS, default 60). */
  sweepIntervalSeconds: number;
}

export const CHAIN_NETWORKS = ['mainnet', 'sepolia', 'rinkeby', 'devnet'] as const;
export type ChainNetwork = (typeof CHAIN_NETWORKS)[number];

export interface ChainConfig {
  /**
   * JSON-RPC URL of an Ethereum node the server sends anchors through (CHAIN_RPC_URL: the first of its
   * comma-separated URLs). When absent the server runs an embedded devnet (Hardhat EDR, in-process, chain
   * id 31337) and deploys the contract on it.
   */
  rpcUrl: string | undefined;
  /** Every node of CHAIN_RPC_URL, in order: each call goes to the first that answers (fail-over). */
  rpcUrls: string[];
  /** How long one call waits for a node before trying the next (CHAIN_RPC_TIMEOUT_SECONDS, default 10). */
  rpcTimeoutSeconds: number;
  /** Hex private key of the account that owns the contract and pays for anchors (ANCHOR_PRIVATE_KEY); required with CHAIN_RPC_URL. */
  privateKey: string | undefined;
  /** Network name shown with each block and used to pick the block explorer (CHAIN_NETWORK: mainnet | sepolia | rinkeby | devnet; default devnet). */
  network: ChainNetwork;
  /** Address of the deployed Anchor contract (ANCHOR_CONTRACT_ADDRESS); required with CHAIN_RPC_URL, ignored on the embedded devnet. */
  contractAddress: string | undefined;
  /** Blocks on top of the anchor's block before a data block is MINED (CHAIN_CONFIRMATIONS, default 1). */
  confirmations: number;
  /**
   * JSON-RPC URL the browser reads the chain from to verify a record itself (CHAIN_PUBLIC_RPC_URL).
   * Default: the server's read-only endpoint /chain-rpc (which forwards to the devnet or to CHAIN_RPC_URL).
   */
  publicRpcUrl: string | undefined;
  /** Every URL of CHAIN_PUBLIC_RPC_URL (comma-separated), in order: the browser tries the next when one fails. */
  publicRpcUrls: string[];
  /** Records per blockchain data block (ANCHOR_BATCH_SIZE, default 64); a backlog is taken 16 times as large. */
  batchSize: number;
  /** A block is made once its oldest waiting record has waited this long, even if not full (ANCHOR_INTERVAL_SECONDS, default 10). */
  intervalSeconds: number;
  /** Run the anchor worker (ANCHOR_ENABLED, default true): in one process of all those on the database. */
  anchorEnabled: boolean;
  /**
   * The most an anchor transaction may pay per gas, in wei (ANCHOR_MAX_FEE_GWEI, default 100 gwei): no
   * transaction is signed above it, and a block whose transaction needs more waits (anchor_fee_ceiling).
   */
  maxFeePerGasWei: bigint;
  /** Blocks of the chain an anchor transaction may stay unmined before it is replaced with higher fees (ANCHOR_REPLACE_AFTER_BLOCKS, default 5). */
  replaceAfterBlocks: number;
  /**
   * Blocks on top of an anchor's block after which its data block is FINAL (CHAIN_FINALITY_DEPTH). Unset:
   * the node's `finalized` block decides, or 64 blocks on a node without that tag.
   */
  finalityDepth: number | null;
  /**
   * CHAIN_RPC_URL is the embedded devnet of this cluster's primary process (UVTRACE_CLUSTER_DEVNET, set
   * by the primary for its workers, not by people): a chain that starts empty on every start, like the
   * in-process one, whose earlier blocks the primary has already sent back to PENDING.
   */
  clusterDevnet: boolean;
}

type Env = Record<string, string | undefined>;

/**
 * The address a person opens, shown by the banner and the "listening" log line alike: the configured
 * host, except that "all interfaces" is opened as localhost; the port is the bound one (PORT=0 picks one).
 */
export function openUrl(host: string, port: number): string {
  const name = ['', '0.0.0.0', '::'].includes(host) ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function integer(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function roles(env: Env, name: string): Role[] {
  const listed = (env[name] ?? '')
    .split(',')
    .map((role) => role.trim().toUpperCase())
    .filter(Boolean);
  const unknown = listed.filter((role) => !isRole(role));
  if (unknown.length > 0)
    throw new Error(`${name} names unknown roles: ${unknown.join(', ')} (roles: ${ROLES.join(', ')})`);
  return [...new Set(listed.filter(isRole))];
}

/** stdoutIsTTY: whether a person is reading the log (process.stdout.isTTY). */
export function loadConfig(env: Env = process.env, stdoutIsTTY = process.stdout.isTTY === true): AppConfig {
  return {
    port: integer(env, 'PORT', 3000),
    host: env.HOST || 'localhost',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    clientDist: path.resolve(env.CLIENT_DIST || 'dist/client'),
    seedDemoData: flag(env, 'SEED_DEMO_DATA', true),
    logLevel: env.LOG_LEVEL || 'info',
    logFormat: !stdoutIsTTY || env.NODE_ENV === 'production' ? 'json' : env.NO_COLOR ? 'plain' : 'color',
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 120),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 12),
    sessionCacheSeconds: integer(env, 'SESSION_CACHE_SECONDS', 10),
    deviceClockSkewSeconds: integer(env, 'DEVICE_CLOCK_SKEW_SECONDS', 300),
    loginMaxFailures: integer(env, 'LOGIN_MAX_FAILURES', 5),
    loginAddressMaxFailures: integer(env, 'LOGIN_ADDRESS_MAX_FAILURES', 30),
    loginMaxDelaySeconds: integer(env, 'LOGIN_MAX_DELAY_SECONDS', 900),
    loginFailureWindowSeconds: integer(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 900),
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', 20 * 1024 * 1024),
    bodyMaxBytes: integer(env, 'BODY_MAX_BYTES', 1024 * 1024),
    loginRateLimitPerMinute: integer(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 120),
    ingestRateLimitPerMinute: integer(env, 'INGEST_RATE_LIMIT_PER_MINUTE', 600),
    chainRpcRateLimitPerMinute: integer(env, 'CHAIN_RPC_RATE_LIMIT_PER_MINUTE', 600),
    trustProxy: flag(env, 'TRUST_PROXY', false),
    https: flag(env, 'HTTPS', false),
    serverTiming: flag(env, 'SERVER_TIMING', false),
    eventsHeartbeatSeconds: Math.max(1, integer(env, 'EVENTS_HEARTBEAT_SECONDS', 20)),
    mfaRequiredRoles: roles(env, 'MFA_REQUIRED_ROLES'),
    webauthn: loadWebauthnConfig(env, openUrl(env.HOST || 'localhost', integer(env, 'PORT', 3000))),
    production: env.NODE_ENV === 'production',
    chain: loadChainConfig(env),
    mail: loadMailConfig(env),
    alerts: loadAlertConfig(env),
    integritySweepIntervalHours: integer(env, 'INTEGRITY_SWEEP_INTERVAL_HOURS', 24),
  };
}

export interface WebauthnConfig {
  /**
   * The origin a passkey's signature must name, scheme, host and port (WEBAUTHN_ORIGIN; default: the
   * origin of APP_URL, or of the listening URL).
   */
  origin: string;
  /** The relying party id passkeys are bound to, a domain (WEBAUTHN_RP_ID; default: the origin's host name). */
  rpId: string;
  /** The name an authenticator shows beside the account (WEBAUTHN_RP_NAME, default "uvtrace"). */
  rpName: string;
}

function loadWebauthnConfig(env: Env, listeningUrl: string): WebauthnConfig {
  const originOf = (name: string, value: string) => {
    try {
      return new URL(value).origin;
    } catch {
      throw new Error(`${name} must be a URL such as https://uvtrace.example.com, got "${value}"`);
    }
  };
  const origin = env.WEBAUTHN_ORIGIN
    ? originOf('WEBAUTHN_ORIGIN', env.WEBAUTHN_ORIGIN)
    : originOf('APP_URL', env.APP_URL || listeningUrl);
  const rpId = (env.WEBAUTHN_RP_ID || new URL(origin).hostname).toLowerCase();
  const host = new URL(origin).hostname;
  // A browser only lets an origin use its own host name or a domain it belongs to.
  if (host !== rpId && !host.endsWith(`.${rpId}`))
    throw new Error(
      `WEBAUTHN_RP_ID "${rpId}" must be the host of WEBAUTHN_ORIGIN "${origin}" or a domain of it`,
    );
  return { origin, rpId, rpName: env.WEBAUTHN_RP_NAME || 'uvtrace' };
}

function loadAlertConfig(env: Env): AlertConfig {
  const deviceSilentHours = integer(env, 'ALERT_DEVICE_SILENT_HOURS', 72);
  if (deviceSilentHours < 1) throw new Error('ALERT_DEVICE_SILENT_HOURS must be at least 1');
  return {
    lampLifeThreshold: integer(env, 'ALERT_LAMP_LIFE_THRESHOLD', 200),
    deviceSilentHours,
    certificateExpiryDays: integer(env, 'ALERT_CERTIFICATE_EXPIRY_DAYS', 30),
    blockStuckMinutes: integer(env, 'ALERT_BLOCK_STUCK_MINUTES', 30),
    sweepIntervalSeconds: integer(env, 'ALERT_SWEEP_INTERVAL_SECONDS', 60),
  };
}

/** A positive amount of gwei with at most 9 decimals (1 gwei = 10⁹ wei), in wei. */
function gweiToWei(env: Env, name: string, fallback: string): bigint {
  const raw = env[name] || fallback;
  const match = /^(\d{1,12})(?:\.(\d{1,9}))?$/.exec(raw);
  const wei = match ? BigInt(match[1]!) * 10n ** 9n + BigInt((match[2] ?? '').padEnd(9, '0')) : 0n;
  if (wei <= 0n)
    throw new Error(`${name} must be a positive number of gwei (at most 9 decimals), got "${raw}"`);
  return wei;
}

/** A comma-separated list of URLs, blanks dropped. */
function urlList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
}

function loadChainConfig(env: Env): ChainConfig {
  const network = (env.CHAIN_NETWORK || 'devnet') as ChainNetwork;
  if (!CHAIN_NETWORKS.includes(network)) {
    throw new Error(`CHAIN_NETWORK must be one of ${CHAIN_NETWORKS.join(', ')}, got "${network}"`);
  }
  const rpcUrls = urlList(env.CHAIN_RPC_URL);
  for (const url of rpcUrls) {
    if (!/^https?:\/\/[^\s]+$/.test(url)) throw new Error(`CHAIN_RPC_URL must be http(s) URLs, got "${url}"`);
  }
  const rpcUrl = rpcUrls[0];
  const publicRpcUrls = urlList(env.CHAIN_PUBLIC_RPC_URL);
  const privateKey = env.ANCHOR_PRIVATE_KEY || undefined;
  const contractAddress = env.ANCHOR_CONTRACT_ADDRESS || undefined;
  if (!rpcUrl && network !== 'devnet') throw new Error(`CHAIN_NETWORK=${network} needs CHAIN_RPC_URL`);
  if (rpcUrl && (!privateKey || !contractAddress)) {
    throw new Error('CHAIN_RPC_URL needs ANCHOR_PRIVATE_KEY and ANCHOR_CONTRACT_ADDRESS');
  }
  if (privateKey && !/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
    throw new Error('ANCHOR_PRIVATE_KEY must be 0x followed by 64 hex digits');
  }
  if (contractAddress && !/^0x[0-9a-fA-F]{40}$/.test(contractAddress)) {
    throw new Error('ANCHOR_CONTRACT_ADDRESS must be 0x followed by 40 hex digits');
  }
  const batchSize = integer(env, 'ANCHOR_BATCH_SIZE', 64);
  if (batchSize < 1) throw new Error('ANCHOR_BATCH_SIZE must be at least 1');
  const rpcTimeoutSeconds = integer(env, 'CHAIN_RPC_TIMEOUT_SECONDS', 10);
  if (rpcTimeoutSeconds < 1) throw new Error('CHAIN_RPC_TIMEOUT_SECONDS must be at least 1');
  return {
    rpcUrl,
    rpcUrls,
    rpcTimeoutSeconds,
    privateKey,
    network,
    contractAddress,
    confirmations: Math.max(1, integer(env, 'CHAIN_CONFIRMATIONS', 1)),
    publicRpcUrl: publicRpcUrls[0],
    publicRpcUrls,
    batchSize,
    intervalSeconds: integer(env, 'ANCHOR_INTERVAL_SECONDS', 10),
    anchorEnabled: flag(env, 'ANCHOR_ENABLED', true),
    maxFeePerGasWei: gweiToWei(env, 'ANCHOR_MAX_FEE_GWEI', '100'),
    replaceAfterBlocks: Math.max(1, integer(env, 'ANCHOR_REPLACE_AFTER_BLOCKS', 5)),
    finalityDepth: env.CHAIN_FINALITY_DEPTH ? Math.max(1, integer(env, 'CHAIN_FINALITY_DEPTH', 64)) : null,
    clusterDevnet: Boolean(rpcUrl) && flag(env, 'UVTRACE_CLUSTER_DEVNET', false),
  };
}

export interface MailConfig {
  /** SMTP server to send through (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://…); without it mails stay in the outbox. */
  smtpUrl: string | undefined;
  /** Sender of every mail (MAIL_FROM). */
  from: string;
  /** The app's address as its users open it, for links in mails (APP_URL; default: the listening URL). */
  appUrl: string | undefined;
  /** Sending attempts of one mail before it is left as failed (MAIL_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** How often the sender looks for due mails (MAIL_INTERVAL_SECONDS). */
  intervalSeconds: number;
}

function loadMailConfig(env: Env): MailConfig {
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl))
    throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${smtpUrl}"`);
  return {
    smtpUrl,
    from: env.MAIL_FROM || 'uvtrace <no-reply@uvtrace.invalid>',
    appUrl: env.APP_URL ? env.APP_URL.replace(/\/+$/, '') : undefined,
    maxAttempts: Math.max(1, integer(env, 'MAIL_MAX_ATTEMPTS', 8)),
    intervalSeconds: Math.max(1, integer(env, 'MAIL_INTERVAL_SECONDS', 5)),
  };
}
