// The engine behind a proxy (issue 27): an https target is reached through a CONNECT tunnel, its
// certificate (signed by a proxy's CA, as Burp or ZAP sign every site) trusted only with the CA given;
// and where local scans are off, a target whose name resolves to a local address is refused before the
// proxy is asked for it (the proxy resolves names itself, so the connect-time guard never sees it).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpEngine, type EngineOptions } from '../../electron/scanner/http/engine';
import type { ScanProxy } from '../../electron/scanner/http/proxy';
import { tempDir } from '../helpers/core';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy';

/** A CA and a certificate for localhost signed by it (openssl, EC keys: a few milliseconds). */
function certificates(dir: string): { ca: string; key: string; cert: string } {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Portcullis Test Proxy CA');
  run('req', ...ec, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(path.join(dir, 'ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run('x509', '-req', '-in', 'leaf.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'leaf.pem', '-days', '2', '-extfile', 'ext');
  const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
  return { ca: read('ca.pem'), key: read('leaf.key'), cert: read('leaf.pem') };
}

describe('the engine through a proxy', () => {
  let dir: string;
  let pki: ReturnType<typeof certificates>;
  let server: https.Server;
  let port: number;
  let proxy: RecordingProxy;

  beforeAll(async () => {
    dir = tempDir('proxy-pki-');
    pki = certificates(dir);
    server = https.createServer({ key: pki.key, cert: pki.cert }, (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    proxy = await startRecordingProxy();
  });
  afterAll(async () => {
    await proxy?.close();
    server?.closeAllConnections();
    await new Promise<void>((r) => server?.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function engine(baseUrl: string, scanProxy: ScanProxy, options: Partial<EngineOptions> = {}): HttpEngine {
    return new HttpEngine({ baseUrl, concurrency: 2, rps: 0, timeoutMs: 5000, retries: 0, maxBodyBytes: 1 << 20, maxRequests: 100, allowLocal: true, signal: new AbortController().signal, proxy: scanProxy, ...options });
  }

  it('reaches an https target through CONNECT, trusting the proxy CA it was given, and only then', async () => {
    const base = `https://localhost:${port}`;
    const trusting = engine(base, { url: proxy.url, ca: pki.ca, source: 'test', guarded: false });
    const ok = await trusting.send({ method: 'GET', url: `${base}/hello?x=1` });
    await trusting.close();
    expect(ok.error).toBeNull();
    expect(ok.status).toBe(200);
    expect(ok.json()).toEqual({ path: '/hello?x=1' });
    expect(proxy.requests.at(-1)).toMatchObject({ method: 'CONNECT', target: `localhost:${port}` });

    const untrusting = engine(base, { url: proxy.url, ca: null, source: 'test', guarded: false });
    const refused = await untrusting.send({ method: 'GET', url: `${base}/hello` });
    await untrusting.close();
    expect(refused.status).toBe(0);
    expect(refused.error).toMatch(/certificate/i);
  });

  it('refuses a target whose name resolves to a local address where local scans are off, before asking the proxy', async () => {
    const before = proxy.requests.length;
    const base = `http://localhost:${port}`;
    const guarded = engine(base, { url: proxy.url, ca: null, source: 'test', guarded: false }, { allowLocal: false });
    const ex = await guarded.send({ method: 'GET', url: `${base}/internal` });
    await guarded.close();
    expect(ex.status).toBe(0);
    expect(ex.error).toBe('refused: the host resolves to a local address');
    expect(proxy.requests.length).toBe(before);
  });
});
