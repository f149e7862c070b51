// VAmPI (../shared/targets/vampi): a real third-party vulnerable API, started on a free loopback
// port with its own start script (Debian's Python packages; installed by the script when missing),
// in a state dir under the test's temp dir, and stopped afterwards.

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './bundle';
import { tempDir } from './core';

const run = promisify(execFile);

export const VAMPI_DIR = path.resolve(ROOT, '../shared/targets/vampi');
export const VAMPI_SPEC = path.join(VAMPI_DIR, 'src/openapi_specs/openapi3.yml');

export interface Vampi {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (for targets started by a script that takes a port). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export function vampiAvailable(): boolean {
  return fs.existsSync(path.join(VAMPI_DIR, 'start.sh'));
}

/** Starts VAmPI: vulnerable or secure, with tokens that live `tokenTtl` seconds, on `port` (a free one by default). */
export async function startVampi(opts: { vulnerable?: boolean; tokenTtl?: number; port?: number } = {}): Promise<Vampi> {
  const port = opts.port ?? (await freePort());
  const state = tempDir('vampi-');
  const env = { ...process.env, BENCH_STATE: state, VAMPI_VULNERABLE: opts.vulnerable === false ? '0' : '1', VAMPI_TOKEN_TTL: String(opts.tokenTtl ?? 60) };
  await run('bash', [path.join(VAMPI_DIR, 'start.sh'), String(port)], { env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      await run('bash', [path.join(VAMPI_DIR, 'stop.sh'), String(port)], { env, timeout: 30_000 }).catch(() => undefined);
      fs.rmSync(state, { recursive: true, force: true });
    },
  };
}
