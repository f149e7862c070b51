// Configuration of the core: where data lives, which shell runs it, and the security knobs,
// from explicit options first, then PORTCULLIS_* environment variables, then defaults.

import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { OWASP_SCRYPT_COST, TEST_SCRYPT_COST, type HashingLimits, type ScryptCost } from './accounts/passwords';
import type { ThrottleRule } from './accounts/throttle';
import { proxyFromOptions, type ScanProxy } from './scanner/http/proxy';
import type { SecretStoreChoice } from './secrets/index';
import { NO_QUOTAS, type QuotaLimits } from './store/quotas';

export type Shell = 'desktop' | 'server' | 'cli';

/** Engine defaults of every scan; a scan may ask for other values within the bounds. */
export interface ScanDefaults {
  /** Requests in flight at once. */
  concurrency: number;
  /** Request starts per second; 0 = no cap. */
  rps: number;
  timeoutMs: number;
  /** Extra attempts after a connection error. */
  retries: number;
  maxBodyBytes: number;
  /** Hard cap on requests to one endpoint (baselines, creates and every check together). */
  maxRequestsPerEndpoint: number;
  maxRequestsPerScan: number;
  /** Upper bound on a scan's own concurrency setting. */
  maxConcurrency: number;
  tlsVerify: boolean;
  /** A scan's time limit unless it sets its own (PORTCULLIS_SCAN_MAX_DURATION_MS; default 1 h): past it the scan ends failed, keeping its findings. */
  maxDurationMs: number;
  /** A live import's time limit, logins included (PORTCULLIS_IMPORT_TIMEOUT_MS; default 2 min). */
  importTimeoutMs: number;
  /**
   * The upstream proxy of every scan (PORTCULLIS_PROXY, PORTCULLIS_PROXY_CA; the CLI's --proxy): the
   * operator's choice, so its address is not held to the local-address guard. A user's own proxy
   * (Settings → Scan traffic) takes its place for that user's scans. Null: scans go direct.
   */
  proxy: ScanProxy | null;
}

export interface CoreConfig {
  shell: Shell;
  dataDir: string;
  /** The SQLite file, or ":memory:". */
  dbFile: string;
  /**
   * PORTCULLIS_DATABASE_URL (or `serve --database-url`): a PostgreSQL database shared by every node of a
   * team server. When set the store lives there and `dbFile` is not used.
   */
  databaseUrl: string | undefined;
  /** This process's name among the nodes of one database (scan leases); new at every start. */
  nodeId: string;
  /**
   * A running scan's lease on its node (issue 19): renewed every `heartbeatMs`; once `leaseMs` passes
   * without a renewal the node is taken for dead and any node fails the scan. PORTCULLIS_SCAN_LEASE_MS.
   */
  scanLease: { leaseMs: number; heartbeatMs: number };
  /** Base of links sent to users (the reset link's `<app>/recover?token=...`). */
  publicUrl: string;
  /** May scans target loopback and private addresses (DESIGN.md section 7). */
  allowLocalScans: boolean;
  /** Absolute session lifetime, whatever the idle timeout. */
  sessionMaxAgeMs: number;
  /** Reset tokens expire after this long. */
  resetTokenTtlMs: number;
  scryptCost: ScryptCost;
  smtpUrl: string | undefined;
  mailFrom: string;
  throttle: { account: ThrottleRule; client: ThrottleRule; resetRequests: ThrottleRule };
  /** Sign-ups per client address in a window (a team server behind one NAT may raise it). */
  signupThrottle: ThrottleRule;
  /** Password hashes running at once (default: one per core) and waiting; beyond both, 503 with Retry-After. */
  passwordHashing: HashingLimits;
  /** Largest JSON body of an ordinary call. */
  jsonBodyLimitBytes: number;
  /** Where scan keys are kept: the OS keychain, AES-256-GCM, or auto (the keychain on the desktop, AES-256-GCM on the server and in the CLI). */
  secretStore: SecretStoreChoice;
  /** PORTCULLIS_SECRET_KEY: the encrypted store's key; without it a 0600 key file in the data dir. */
  secretKey: string | undefined;
  /**
   * PORTCULLIS_SECRET_KEY_FILE (or `serve --secret-key-file`): a file holding that key, kept outside the
   * data dir. A team server listening beyond loopback needs this or secretKey (electron/secrets/key-source.ts).
   */
  secretKeyFile: string | undefined;
  scan: ScanDefaults;
  /** Social sign-in (OpenID Connect); null when no client is configured. */
  oidc: OidcSettings | null;
  /**
   * Origins of pages allowed to call this core from a browser (CORS on the team server) and to receive
   * a sign-in redirect. The desktop app's own origin is always one of them.
   */
  corsOrigins: string[];
  /** What each user may own (issue 18, item 6): APIs, endpoints and stored bytes; 0 = no limit. */
  quotas: QuotaLimits;
}

export interface OidcSettings {
  /** The issuer identifier, e.g. https://accounts.google.com (discovery at /.well-known/openid-configuration). */
  issuer: string;
  clientId: string;
  /** Absent for a public client (PKCE only). */
  clientSecret?: string;
}

/** The desktop renderer's origin (the app:// protocol of the Electron shell). */
export const DESKTOP_ORIGIN = 'app://portcullis';
export const GOOGLE_ISSUER = 'https://accounts.google.com';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An issuer must be https; plain http is accepted only on a loopback address (a local provider, tests). */
export function checkIssuer(issuer: string): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`The OpenID issuer "${issuer}" is not a URL.`);
  }
  if (url.username || url.password || url.search || url.hash) throw new Error(`The OpenID issuer "${issuer}" must be a plain URL.`);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    throw new Error(`The OpenID issuer "${issuer}" must use https:// (http:// only on a loopback address).`);
  }
  // Kept as given: an issuer's identifier may end with a slash (the ID token's iss must match exactly).
  return issuer;
}

/** PORTCULLIS_OIDC_CLIENT_ID turns social sign-in on; the issuer defaults to Google. */
export function oidcFromEnv(env: NodeJS.ProcessEnv): OidcSettings | null {
  const clientId = env.PORTCULLIS_OIDC_CLIENT_ID?.trim();
  if (!clientId) return null;
  const secret = env.PORTCULLIS_OIDC_CLIENT_SECRET?.trim();
  return {
    issuer: checkIssuer(env.PORTCULLIS_OIDC_ISSUER?.trim() || GOOGLE_ISSUER),
    clientId,
    ...(secret ? { clientSecret: secret } : {}),
  };
}

/** A browser origin: scheme://host[:port], nothing else. */
export function normaliseOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.username || url.password) return null;
    if (url.protocol === 'app:') return url.host ? `app://${url.host}` : null;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return null;
    return url.origin;
  } catch {
    return null;
  }
}

function corsOriginsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const listed = (env.PORTCULLIS_CORS_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const origin = normaliseOrigin(s);
      if (!origin) throw new Error(`PORTCULLIS_CORS_ORIGINS: "${s}" is not an origin (scheme://host[:port]).`);
      return origin;
    });
  return [...new Set([DESKTOP_ORIGIN, ...listed])];
}

export type CoreConfigInput = Partial<Omit<CoreConfig, 'scan' | 'quotas' | 'scanLease'>> & {
  scanLease?: Partial<CoreConfig['scanLease']>;
  shell: Shell;
  dataDir: string;
  scan?: Partial<ScanDefaults>;
  quotas?: Partial<QuotaLimits>;
};

const GB = 1024 ** 3;

/**
 * Per-user quotas when none is configured. A team server is shared: 200 APIs, ten specifications of
 * 10,000 endpoints, 1 GB of stored definitions per user. The desktop app's users share one disk: only
 * a runaway is stopped. The CLI keeps one scan's API in a data dir of its own: no limit.
 */
export const DEFAULT_QUOTAS: Record<Shell, QuotaLimits> = {
  server: { apis: 200, endpoints: 100_000, bytes: GB },
  desktop: { apis: 10_000, endpoints: 2_000_000, bytes: 20 * GB },
  cli: NO_QUOTAS,
};

export const QUOTA_ENV: Record<keyof QuotaLimits, string> = {
  apis: 'PORTCULLIS_QUOTA_APIS',
  endpoints: 'PORTCULLIS_QUOTA_ENDPOINTS',
  bytes: 'PORTCULLIS_QUOTA_BYTES',
};

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: GB, gb: GB, t: 1024 * GB, tb: 1024 * GB };

/**
 * One quota setting: a whole number, "0" or "unlimited" for no limit; sizes may carry a binary unit
 * ("512MB", "1 GB", "2g"). Anything else stops the start: a mistyped limit must not silently be none.
 */
export function parseQuota(name: string, raw: string, size: boolean): number {
  const v = raw.trim().toLowerCase();
  if (v === 'unlimited') return 0;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/.exec(v);
  const unit = m ? SIZE_UNITS[m[2]!] : undefined;
  if (m && unit !== undefined && (size || m[2] === '') && (size || Number.isInteger(Number(m[1])))) {
    const n = Math.floor(Number(m[1]) * unit);
    if (Number.isSafeInteger(n)) return n;
  }
  const expected = size ? 'a size in bytes (1073741824, 512MB, 1GB)' : 'a whole number';
  throw new Error(`${name}: "${raw}" is not ${expected}, 0 or "unlimited" (no limit).`);
}

/** Explicit options first, then PORTCULLIS_QUOTA_*, then the shell's defaults; per quota. */
export function resolveQuotas(shell: Shell, input: Partial<QuotaLimits> | undefined, env: NodeJS.ProcessEnv): QuotaLimits {
  const pick = (kind: keyof QuotaLimits): number => {
    const given = input?.[kind];
    if (given !== undefined) {
      if (!Number.isSafeInteger(given) || given < 0) throw new Error(`The ${kind} quota must be a whole number, 0 for no limit.`);
      return given;
    }
    const raw = env[QUOTA_ENV[kind]];
    return raw !== undefined && raw.trim() !== '' ? parseQuota(QUOTA_ENV[kind], raw, kind === 'bytes') : DEFAULT_QUOTAS[shell][kind];
  };
  return { apis: pick('apis'), endpoints: pick('endpoints'), bytes: pick('bytes') };
}

function envNumber(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** 30 s leases renewed every 5 s; a shorter lease (tests, quick failover) keeps the ratio. */
function scanLease(input: Partial<CoreConfig['scanLease']> | undefined, env: NodeJS.ProcessEnv): CoreConfig['scanLease'] {
  const leaseMs = Math.max(100, input?.leaseMs ?? envNumber(env.PORTCULLIS_SCAN_LEASE_MS) ?? 30_000);
  return { leaseMs, heartbeatMs: Math.max(20, Math.min(input?.heartbeatMs ?? Math.round(leaseMs / 6), leaseMs / 2)) };
}

/**
 * One hash per core at once and one waiting behind each: a sign-in that is let in waits at most one
 * hash time before its own, so it answers within about two (issue 18's one second); the rest get 503.
 */
/**
 * One hash per core at once and as many waiting, unless PORTCULLIS_HASH_CONCURRENCY and
 * PORTCULLIS_HASH_QUEUE say otherwise (a server with spare memory may queue more sign-ins).
 */
function hashingLimits(cores: number, env: NodeJS.ProcessEnv): HashingLimits {
  const concurrent = Math.max(1, Math.floor(envNumber(env.PORTCULLIS_HASH_CONCURRENCY) ?? cores));
  return { concurrent, queued: Math.floor(envNumber(env.PORTCULLIS_HASH_QUEUE) ?? concurrent) };
}

const SECRET_STORES: SecretStoreChoice[] = ['auto', 'keychain', 'encrypted'];

const truthy = (v: string | undefined): boolean => v === '1' || v?.toLowerCase() === 'true';
const optionalPath = (v: string | undefined): string | undefined => (v?.trim() ? path.resolve(v.trim()) : undefined);

/** The per-OS data directory used when none is given. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PORTCULLIS_DATA_DIR) return path.resolve(env.PORTCULLIS_DATA_DIR);
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Portcullis');
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Portcullis');
  return path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'portcullis');
}

export function resolveConfig(input: CoreConfigInput, env: NodeJS.ProcessEnv = process.env): CoreConfig {
  const dataDir = path.resolve(input.dataDir);
  return {
    shell: input.shell,
    dataDir,
    dbFile: input.dbFile ?? path.join(dataDir, 'portcullis.db'),
    // Only the team server shares a database; the desktop app and the CLI keep their own file.
    databaseUrl: input.databaseUrl ?? (input.shell === 'server' ? env.PORTCULLIS_DATABASE_URL?.trim() || undefined : undefined),
    nodeId: input.nodeId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    scanLease: scanLease(input.scanLease, env),
    publicUrl: (input.publicUrl ?? env.PORTCULLIS_PUBLIC_URL ?? 'http://127.0.0.1:4780').replace(/\/+$/, ''),
    // The desktop app and the CLI scan the engineer's own machine; a team server must opt in.
    allowLocalScans: input.allowLocalScans ?? (input.shell !== 'server' || truthy(env.PORTCULLIS_ALLOW_LOCAL_SCANS)),
    sessionMaxAgeMs: input.sessionMaxAgeMs ?? 7 * 24 * 60 * 60 * 1000,
    resetTokenTtlMs: input.resetTokenTtlMs ?? 60 * 60 * 1000,
    scryptCost: input.scryptCost ?? (truthy(env.PORTCULLIS_TEST_FAST_HASHING) ? TEST_SCRYPT_COST : OWASP_SCRYPT_COST),
    smtpUrl: input.smtpUrl ?? env.PORTCULLIS_SMTP_URL,
    mailFrom: input.mailFrom ?? env.PORTCULLIS_MAIL_FROM ?? 'Portcullis <no-reply@portcullis.local>',
    throttle: input.throttle ?? {
      account: { maxFailures: 5, windowMs: 15 * 60 * 1000 },
      client: { maxFailures: 30, windowMs: 15 * 60 * 1000 },
      resetRequests: { maxFailures: 3, windowMs: 60 * 60 * 1000 },
    },
    // PORTCULLIS_SIGNUP_LIMIT: sign-ups per client address per 10 minutes (default 5).
    signupThrottle: input.signupThrottle ?? { maxFailures: Math.floor(envNumber(env.PORTCULLIS_SIGNUP_LIMIT) || 5), windowMs: 10 * 60 * 1000 },
    passwordHashing: input.passwordHashing ?? hashingLimits(os.availableParallelism(), env),
    jsonBodyLimitBytes: input.jsonBodyLimitBytes ?? 1024 * 1024,
    secretStore:
      input.secretStore ?? (SECRET_STORES.find((c) => c === env.PORTCULLIS_SECRET_STORE) as SecretStoreChoice | undefined) ?? 'auto',
    secretKey: input.secretKey ?? env.PORTCULLIS_SECRET_KEY,
    secretKeyFile: optionalPath(input.secretKeyFile ?? env.PORTCULLIS_SECRET_KEY_FILE),
    scan: {
      concurrency: input.scan?.concurrency ?? envNumber(env.PORTCULLIS_SCAN_CONCURRENCY) ?? 8,
      rps: input.scan?.rps ?? envNumber(env.PORTCULLIS_SCAN_RPS) ?? 20,
      timeoutMs: input.scan?.timeoutMs ?? envNumber(env.PORTCULLIS_SCAN_TIMEOUT_MS) ?? 15_000,
      retries: input.scan?.retries ?? 2,
      maxBodyBytes: input.scan?.maxBodyBytes ?? 1024 * 1024,
      maxRequestsPerEndpoint: input.scan?.maxRequestsPerEndpoint ?? 200,
      maxRequestsPerScan: input.scan?.maxRequestsPerScan ?? 50_000,
      maxConcurrency: input.scan?.maxConcurrency ?? 64,
      tlsVerify: input.scan?.tlsVerify ?? env.PORTCULLIS_SCAN_TLS_VERIFY !== '0',
      maxDurationMs: input.scan?.maxDurationMs ?? envNumber(env.PORTCULLIS_SCAN_MAX_DURATION_MS) ?? 60 * 60 * 1000,
      importTimeoutMs: input.scan?.importTimeoutMs ?? envNumber(env.PORTCULLIS_IMPORT_TIMEOUT_MS) ?? 2 * 60 * 1000,
      proxy:
        input.scan?.proxy !== undefined
          ? input.scan.proxy
          : proxyFromOptions({ url: env.PORTCULLIS_PROXY, caFile: env.PORTCULLIS_PROXY_CA, source: 'PORTCULLIS_PROXY', caSource: 'PORTCULLIS_PROXY_CA' }),
    },
    oidc: input.oidc !== undefined ? (input.oidc && { ...input.oidc, issuer: checkIssuer(input.oidc.issuer) }) : oidcFromEnv(env),
    corsOrigins: input.corsOrigins ?? corsOriginsFromEnv(env),
    quotas: resolveQuotas(input.shell, input.quotas, env),
  };
}
