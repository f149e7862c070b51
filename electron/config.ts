// Configuration of the core: where data lives, which shell runs it, and the security knobs,
// from explicit options first, then PORTCULLIS_* environment variables, then defaults.

import os from 'node:os';
import path from 'node:path';
import { OWASP_SCRYPT_COST, type ScryptCost } from './accounts/passwords';
import type { ThrottleRule } from './accounts/throttle';

export type Shell = 'desktop' | 'server' | 'cli';

export interface CoreConfig {
  shell: Shell;
  dataDir: string;
  /** The SQLite file, or ":memory:". */
  dbFile: string;
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
  /** Largest JSON body of an ordinary call. */
  jsonBodyLimitBytes: number;
}

export type CoreConfigInput = Partial<CoreConfig> & { shell: Shell; dataDir: string };

const truthy = (v: string | undefined): boolean => v === '1' || v?.toLowerCase() === 'true';

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
    publicUrl: (input.publicUrl ?? env.PORTCULLIS_PUBLIC_URL ?? 'http://127.0.0.1:4780').replace(/\/+$/, ''),
    // The desktop app and the CLI scan the engineer's own machine; a team server must opt in.
    allowLocalScans: input.allowLocalScans ?? (input.shell !== 'server' || truthy(env.PORTCULLIS_ALLOW_LOCAL_SCANS)),
    sessionMaxAgeMs: input.sessionMaxAgeMs ?? 7 * 24 * 60 * 60 * 1000,
    resetTokenTtlMs: input.resetTokenTtlMs ?? 60 * 60 * 1000,
    scryptCost: input.scryptCost ?? OWASP_SCRYPT_COST,
    smtpUrl: input.smtpUrl ?? env.PORTCULLIS_SMTP_URL,
    mailFrom: input.mailFrom ?? env.PORTCULLIS_MAIL_FROM ?? 'Portcullis <no-reply@portcullis.local>',
    throttle: input.throttle ?? {
      account: { maxFailures: 5, windowMs: 15 * 60 * 1000 },
      client: { maxFailures: 30, windowMs: 15 * 60 * 1000 },
      resetRequests: { maxFailures: 3, windowMs: 60 * 60 * 1000 },
    },
    jsonBodyLimitBytes: input.jsonBodyLimitBytes ?? 1024 * 1024,
  };
}
