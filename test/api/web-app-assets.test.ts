// The team server's web app (issue 17, item 7): text assets go out brotli- or gzip-compressed (copies
// written at build time), hashed files are cached for a year, the app shell is revalidated, and
// source maps are never served.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../electron/server';
import { precompress } from '../../scripts/precompress';
import { createTestCore, type TestCore } from '../helpers/core';

const SCRIPT = `${'export const rows = [];\n'.repeat(200)}console.log(rows.length);\n`;
const TINY = 'body{margin:0}';

let dir: string;
let tc: TestCore;
let server: RunningServer;

const get = (p: string, encoding?: string) => fetch(`${server.url}${p}`, { headers: encoding ? { 'accept-encoding': encoding } : {} });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-webapp-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div><script src="/assets/app-Ab12Cd34.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'app-Ab12Cd34.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'app-Ab12Cd34.js.map'), '{"version":3,"sources":["../src/secret-logic.ts"]}');
  fs.writeFileSync(path.join(dir, 'assets', 'tiny-Zz99.css'), TINY);
  precompress(dir);
  tc = await createTestCore();
  server = await startServer({ core: tc.core, host: '127.0.0.1', port: 0, staticDir: dir });
});

afterAll(async () => {
  await server?.close();
  await tc?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('precompress', () => {
  it('writes smaller brotli and gzip copies of text files, and none of small ones', () => {
    const file = path.join(dir, 'assets', 'app-Ab12Cd34.js');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).toString()).toBe(SCRIPT);
    expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString()).toBe(SCRIPT);
    expect(fs.statSync(`${file}.br`).size).toBeLessThan(SCRIPT.length / 4);
    expect(fs.existsSync(path.join(dir, 'assets', 'tiny-Zz99.css.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'assets', 'app-Ab12Cd34.js.map.br'))).toBe(false);
  });
});

describe('web app assets', () => {
  it('sends brotli to a browser that accepts it, gzip to one that accepts only gzip, plain otherwise', async () => {
    const br = await get('/assets/app-Ab12Cd34.js', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await br.text()).toBe(SCRIPT); // fetch decodes it

    const gz = await get('/assets/app-Ab12Cd34.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(SCRIPT);

    const plain = await get('/assets/app-Ab12Cd34.js', 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(SCRIPT);
  });

  it('caches hashed assets for a year and revalidates the app shell', async () => {
    const asset = await get('/assets/tiny-Zz99.css');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe(TINY);
    for (const p of ['/', '/dashboard', '/index.html']) {
      const shell = await get(p);
      expect(shell.status).toBe(200);
      expect(shell.headers.get('cache-control')).toBe('no-cache');
      expect(await shell.text()).toContain('<div id="root">');
    }
    // A chunk of an older build is 404, never the shell cached for a year under its name.
    const missing = await get('/assets/gone-0000.js');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-cache');
  });

  it('never serves a source map', async () => {
    for (const p of ['/assets/app-Ab12Cd34.js.map', '/assets/app-Ab12Cd34.js.map?x=1']) {
      const res = await get(p);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('secret-logic');
    }
  });

  it('keeps the page security headers on compressed answers', async () => {
    const res = await get('/assets/app-Ab12Cd34.js', 'br');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});
