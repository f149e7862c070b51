import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CSP, createAppProtocolHandler, resolveAppFile } from './app-protocol';

let root: string;
let renderer: string;
let handler: (r: Request) => Promise<Response>;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-app-protocol-'));
  renderer = path.join(root, 'renderer');
  fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(renderer, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(renderer, 'assets', 'my file.css'), 'body{}');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'top secret');
  fs.writeFileSync(path.join(root, 'portcullis.db'), 'database');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(renderer, 'assets', 'link.txt'));
  handler = createAppProtocolHandler({ rendererDir: renderer });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

describe('the app:// protocol', () => {
  it('serves the renderer files with the strict CSP and the right types', async () => {
    const res = await get('app://portcullis/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('console.log(1)');
    expect((await get('app://portcullis/assets/my%20file.css')).status).toBe(200);
  });

  it('answers client-side routes with the app shell', async () => {
    for (const url of ['app://portcullis/', 'app://portcullis/index.html', 'app://portcullis/settings', 'app://portcullis/guide/intro?x=1#y']) {
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<title>app</title>');
    }
  });

  it('the CSP allows scripts from the app only and nothing to frame, embed or post', () => {
    const directives = Object.fromEntries(APP_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'none'"]);
    expect(APP_CSP).not.toContain('unsafe-eval');
  });

  it('refuses path traversal in every spelling, and never serves a file outside the renderer', async () => {
    for (const url of [
      'app://portcullis/../secret.txt',
      'app://portcullis/%2e%2e/secret.txt',
      'app://portcullis/%2E%2E%2Fsecret.txt',
      'app://portcullis/assets/..%2f..%2fsecret.txt',
      'app://portcullis/assets/%2e%2e/%2e%2e/portcullis.db',
      'app://portcullis/..%5csecret.txt',
      'app://portcullis/assets%5c..%5c..%5csecret.txt',
      'app://portcullis/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      'app://portcullis/assets/app.js%00.png',
      'app://portcullis/%E0%A4%A',
      'app://portcullis/assets/link.txt',
    ]) {
      const res = await get(url);
      const body = await res.text();
      expect(body, url).not.toContain('top secret');
      expect(body, url).not.toContain('database');
      expect(body, url).not.toContain('root:');
      expect([400, 404], url).toContain(res.status);
      expect(res.headers.get('content-security-policy')).toBe(APP_CSP);
    }
  });

  it('a path that names no file is a route: the app shell, never the file', async () => {
    const res = await get('app://portcullis//etc/passwd');
    expect(await res.text()).toContain('<title>app</title>');
  });

  it('refuses other hosts, schemes and methods', async () => {
    expect((await get('app://evil/index.html')).status).toBe(404);
    expect(resolveAppFile(renderer, 'file:///etc/passwd')).toEqual({ kind: 'refused', status: 404 });
    expect(resolveAppFile(renderer, 'https://portcullis/index.html')).toEqual({ kind: 'refused', status: 404 });
    expect((await get('app://portcullis/index.html', 'POST')).status).toBe(405);
    expect((await get('app://portcullis/missing.js')).status).toBe(404);
  });
});
