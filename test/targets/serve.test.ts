// The standalone target: bundled with esbuild and run as `node dist/targets/serve.js`.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { call } from './testing';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'dist/targets/serve.js');

function run(args: string[]): Promise<{ lines: Record<string, string>; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [bundle, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${err}`)));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('TARGET_READY\n')) return;
      child.removeAllListeners('exit');
      const lines = Object.fromEntries(out.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      resolve({
        lines,
        stop: () =>
          new Promise((done) => {
            child.on('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

describe('standalone target', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [path.join(root, 'test/targets/build.mjs')], { cwd: root });
  });

  it('builds, starts hardened, prints its URL, spec file and keys, and stops cleanly on SIGTERM', async () => {
    expect(fs.existsSync(bundle)).toBe(true);
    const { lines, stop } = await run(['--hardened']);
    expect(lines.TARGET_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.TARGET_BASE_URL).toBe(`${lines.TARGET_URL}/api/v2`);
    const users = JSON.parse(lines.TARGET_USERS!) as Record<string, { id: number; key: string }>;
    expect(Object.keys(users)).toEqual(['alice', 'bob', 'admin']);
    const me = await call(lines.TARGET_URL!, 'GET', '/api/v2/me', { key: users.bob!.key });
    expect(me.json.id).toBe(users.bob!.id);
    expect((await call(lines.TARGET_URL!, 'GET', `/api/v2/orders/1001`, { key: users.bob!.key })).status).toBe(404);
    const spec = YAML.parse(fs.readFileSync(lines.TARGET_SPEC!, 'utf8')) as { servers: { url: string }[] };
    expect(spec.servers[0]!.url).toBe(lines.TARGET_BASE_URL);
    expect(await stop()).toBe(0);
    expect(fs.existsSync(lines.TARGET_SPEC!)).toBe(false);
  });

  it('switches individual flaws from the command line', async () => {
    const { lines, stop } = await run(['--only', 'bola-path,cors-null']);
    try {
      expect(lines.TARGET_MODE).toBe('hardened (2 flaws on)');
      const users = JSON.parse(lines.TARGET_USERS!) as Record<string, { key: string }>;
      expect((await call(lines.TARGET_URL!, 'GET', '/api/v2/orders/1001', { key: users.bob!.key })).status).toBe(200);
    } finally {
      expect(await stop()).toBe(0);
    }
  });
});
