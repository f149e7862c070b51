// `portcullis scan --proxy --har` (issue 27): the scan's requests go through the proxy named on the
// command line (with its credentials, never printed), and --har writes them as a valid HAR 1.2 file
// (0600) with one entry per request the proxy saw; a --proxy that is not a proxy URL is a usage error.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Har } from 'har-format';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../electron/cli';
import { tempDir } from '../helpers/core';
import { harSchemaErrors } from '../helpers/har';
import { startRecordingProxy } from '../helpers/recording-proxy';
import { listenLocal } from '../targets/http';

const TOKEN = 'cli-proxy-token-7e2d4a9b';
const PROXY_PASSWORD = 'Cli-Prx-4b8e1f0a';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Everything the command writes on stderr. */
function captureStderr(): () => string {
  const chunks: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return () => chunks.join('');
}

async function smallApi(): Promise<{ spec: string; dir: string }> {
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end('{"error":"unauthorized"}');
    res.end(req.url === '/me' ? '{"id":1,"username":"alice"}' : '{"items":[{"id":1}]}');
  });
  cleanups.push(await listenLocal(server));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const op = (id: string) => ({ get: { operationId: id, responses: { '200': { description: 'ok' } } } });
  const dir = tempDir('portcullis-cli-traffic-');
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const spec = path.join(dir, 'api.json');
  fs.writeFileSync(
    spec,
    JSON.stringify({
      openapi: '3.0.3',
      info: { title: 'Small API', version: '1' },
      servers: [{ url: base }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
      paths: { '/me': op('me'), '/items': op('items') },
    }),
  );
  return { spec, dir };
}

describe('portcullis scan --proxy --har', () => {
  it('scans through the proxy and writes the HAR of exactly the requests the proxy saw', async () => {
    const { spec, dir } = await smallApi();
    const proxy = await startRecordingProxy({ credentials: { user: 'ci', password: PROXY_PASSWORD } });
    cleanups.push(() => proxy.close());
    const harFile = path.join(dir, 'out', 'scan.har');
    const stderr = captureStderr();
    const code = await main(['scan', '--spec', spec, '--key1', TOKEN, '--proxy', `http://ci:${PROXY_PASSWORD}@127.0.0.1:${proxy.port}`, '--har', harFile, '--rps', '0', '--out', dir]);
    const err = stderr();
    expect(code, err).not.toBe(2);
    expect(proxy.requests.length).toBeGreaterThan(5);
    const har = JSON.parse(fs.readFileSync(harFile, 'utf8')) as Har;
    expect(await harSchemaErrors(har)).toEqual([]);
    expect(har.log.entries).toHaveLength(proxy.requests.length);
    expect(fs.statSync(harFile).mode & 0o777).toBe(0o600);
    expect(err).toContain(`Through the proxy http://ci:****@127.0.0.1:${proxy.port}`);
    expect(err).toContain(`wrote ${harFile} (${proxy.requests.length} requests)`);
    for (const text of [err, fs.readFileSync(harFile, 'utf8'), fs.readFileSync(path.join(dir, 'findings.json'), 'utf8')]) {
      expect(text).not.toContain(PROXY_PASSWORD);
      expect(text).not.toContain(TOKEN);
    }
  }, 30_000);

  it('refuses a --proxy that is not an http(s) proxy URL, without printing it', async () => {
    const { spec } = await smallApi();
    const stderr = captureStderr();
    const code = await main(['scan', '--spec', spec, '--key1', TOKEN, '--proxy', `socks5://ci:${PROXY_PASSWORD}@127.0.0.1:1080`]);
    expect(code).toBe(2);
    expect(stderr()).toMatch(/--proxy: The proxy URL must start with http:\/\/ or https:\/\//);
    expect(stderr()).not.toContain(PROXY_PASSWORD);
  });
});
