// Uploads and XML (issue 28, item 5), on routes only the common-path list of route discovery finds (item 4):
// an undocumented upload route that parses .xml files expanding their entities (XXE, and an undocumented XML
// interface), stores any file type and any size up to its body limit; an undocumented avatar import that
// fetches a URL (SSRF). And the silence of the hardened twin, and of each check where only another flaw is on.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadSize } from '../../electron/scanner/checks/api4-resource-consumption/upload-size';
import { ssrfCallback } from '../../electron/scanner/checks/api7-ssrf/ssrf';
import { followsRedirects } from '../../electron/scanner/checks/api10-unsafe-consumption/redirects-and-webhooks';
import { uploadType } from '../../electron/scanner/checks/api8-misconfiguration/upload-type';
import { xmlExternalEntities } from '../../electron/scanner/checks/api8-misconfiguration/xml-entities';
import { undocumentedEndpoints } from '../../electron/scanner/checks/api9-inventory/discovery';
import { undocumentedXml } from '../../electron/scanner/checks/api9-inventory/undocumented-xml';
import { documentedMaxBytes, documentedTypes, entityMarkers, xmlDocument, internalEntityDtd } from '../../electron/scanner/checks/common/uploads';
import { SURFACES } from '../../electron/scanner/checks/api9-inventory/discovery-paths';
import { COMMON_PATHS, fetchBody } from '../../electron/scanner/route-discovery/common-paths';
import { scanChecks } from '../helpers/check-scan';
import type { Target } from '../targets';
import { endpoint, expectWellFormed, hardened, scanServer, targetWith } from './check-harness';

const open: { close(): unknown }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

async function target(t: Promise<Target>): Promise<Target> {
  const x = await t;
  open.push(x);
  return x;
}

const CHECKS = [undocumentedEndpoints, xmlExternalEntities, undocumentedXml, uploadType, uploadSize, ssrfCallback, followsRedirects];
const ONLY = { only: ['GET /me'] };
const ids = (s: Awaited<ReturnType<typeof scanChecks>>) => s.findings.filter((f) => f.check_id !== undocumentedEndpoints.id).map((f) => `${f.check_id} ${f.severity} ${f.method} ${f.path} ${f.vulnerability_name}`).sort();

describe('undocumented upload and fetch routes of the Acme target', () => {
  it('finds the routes by guessing, then XXE, the undocumented XML interface, the unchecked type and the SSRF', async () => {
    const t = await target(targetWith('legacy-xml-upload', 'upload-type-unchecked', 'avatar-url-ssrf'));
    const s = await scanChecks(t, CHECKS, ONLY);
    expect(s.outcome.status).toBe('completed');
    const discovered = s.outcome.coverage.operations.filter((o) => o.discovered).map((o) => `${o.method} ${o.path}`);
    expect(discovered).toEqual(expect.arrayContaining(['POST /file-upload', 'POST /avatar/url']));
    expect(ids(s)).toEqual([
      'api7-ssrf-callback medium POST /avatar/url Server-side request forgery (out-of-band callback)',
      'api8-upload-type low POST /file-upload Upload accepts a file type it should refuse',
      'api8-xml-external-entities high POST /file-upload XML external entity fetched (XXE)',
      'api9-undocumented-xml medium POST /file-upload Undocumented route parses XML',
    ]);
    expectWellFormed(s, s.findings.filter((f) => f.check_id !== undocumentedEndpoints.id));
    // The fetcher follows redirects to loopback too, but it takes loopback given directly: that is the SSRF finding, not a second one.
    expect(s.outcome.checksRun.find((c) => c.check_id === followsRedirects.id)?.endpoints.length).toBeGreaterThan(0);
    expect(s.of(followsRedirects)).toEqual([]);
    // The body limit (64 KB) refuses the size probe: no size finding.
    expect(s.of(uploadSize)).toEqual([]);
  });

  it('reports an upload size no limit stops when the body limit is lifted, with the file abridged in the evidence', async () => {
    const t = await target(targetWith('upload-type-unchecked', 'size-limits-ignored'));
    const s = await scanChecks(t, [undocumentedEndpoints, uploadSize], ONLY);
    const [f] = s.of(uploadSize);
    expect(f).toMatchObject({ method: 'POST', path: '/file-upload', severity: 'info' });
    expect(f!.evidence.length).toBeLessThan(20_000);
    expect(f!.curl).toMatch(/\[3145728 bytes of the probe.{1,6}s text, abridged/);
  });

  it('stays silent where the route refuses .exe files and parses no XML, and on the hardened twin', async () => {
    const only = await target(targetWith('legacy-xml-upload'));
    const s1 = await scanChecks(only, [undocumentedEndpoints, uploadType], ONLY);
    expect(s1.of(uploadType)).toEqual([]);
    const t = await target(hardened());
    const s = await scanChecks(t, CHECKS, ONLY);
    expect(ids(s)).toEqual([]);
    expect(s.outcome.coverage.operations.filter((o) => o.discovered && o.method === 'POST')).toEqual([]);
  });
});

describe('an upload route behind a single-page app that answers every GET and unknown POST with its index', () => {
  it('is told from not-found by its answer to an empty form, and nothing but empty forms is posted to a guess', async () => {
    const posts: string[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('latin1');
        if (req.method === 'POST') posts.push(`${req.url} ${body.length}`);
        if (req.method === 'POST' && req.url === '/file-upload') {
          const file = /filename="([^"]+)"/.exec(body);
          res.writeHead(file ? 204 : 400, { 'content-type': 'application/json' });
          return res.end(file ? undefined : JSON.stringify({ error: 'File is not passed' }));
        }
        if (req.url === '/me') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ id: 1 }));
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><html><head><title>Shop</title></head><body><app-root></app-root></body></html>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { outcome, findings } = await scanServer(url, [endpoint('GET', '/me')], [undocumentedEndpoints, uploadType], { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4' });
    const discovered = outcome.coverage.operations.filter((o) => o.discovered).map((o) => `${o.method} ${o.path}`);
    expect(discovered).toContain('POST /file-upload');
    expect(discovered.filter((d) => d.startsWith('POST'))).toEqual(['POST /file-upload']);
    expect(findings.filter((f) => f.check_id === uploadType.id).map((f) => `${f.method} ${f.path} ${f.severity}`)).toEqual(['POST /file-upload low']);
    // Guessed paths get an empty form (one closing boundary, or nothing): never a file. Only the found route gets the check's upload.
    const guesses = posts.filter((p) => !p.startsWith('/file-upload '));
    expect(guesses.length).toBeGreaterThan(10);
    expect(guesses.filter((p) => Number(p.split(' ').pop()) > 40)).toEqual([]);
  });
});

describe('a JSON operation that also parses XML', () => {
  /** POST /orders is documented with a JSON body; with `xml` the server also reads application/xml, expanding internal entities as libxml2 with NOENT does. */
  async function ordersServer(xml: boolean): Promise<string> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const send = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (req.url !== '/orders' || req.method !== 'POST') return send(404, { error: 'not found' });
        const type = req.headers['content-type'] ?? '';
        if (/json/.test(type)) {
          try {
            return send(201, { id: 1, item: (JSON.parse(body) as { item?: unknown }).item });
          } catch {
            return send(400, { error: 'bad JSON' });
          }
        }
        if (!xml || !/xml/.test(type)) return send(415, { error: 'JSON only' });
        const entities = new Map([...body.matchAll(/<!ENTITY\s+(\w+)\s+"([^"]*)">/g)].map((m) => [m[1]!, m[2]!]));
        const item = /<item>([\s\S]*?)<\/item>/.exec(body)?.[1]?.replace(/&(\w+);/g, (all, n: string) => entities.get(n) ?? all);
        return item === undefined ? send(400, { error: 'no item' }) : send(201, { id: 2, item });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const orders = endpoint('POST', '/orders', {
    request_body: { required: true, content_type: 'application/json', schema: { type: 'object', required: ['item'], properties: { item: { type: 'string' } } } },
    responses: { '201': { description: 'Created', content_type: 'application/json', schema: null } },
  });

  it('is reported as an undocumented XML interface, and its entity expansion as XXE', async () => {
    const { findings } = await scanServer(await ordersServer(true), [orders], [xmlExternalEntities, undocumentedXml], { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4' });
    expect(findings.map((f) => `${f.check_id} ${f.method} ${f.path} ${f.vulnerability_name}`).sort()).toEqual([
      'api8-xml-external-entities POST /orders XML entities declared by the client are expanded (XXE)',
      'api9-undocumented-xml POST /orders XML accepted where the description documents only JSON',
    ]);
  });

  it('stays silent where the server refuses XML', async () => {
    const { findings } = await scanServer(await ordersServer(false), [orders], [xmlExternalEntities, undocumentedXml], { 1: 'tok-a-5f1e2d3c4b5a69788796a5b4' });
    expect(findings).toEqual([]);
  });
});

describe('the pieces', () => {
  it('reads documented types and sizes, and names the fields of a fetch route after its path', () => {
    expect(documentedMaxBytes('PDF or ZIP, max 5 MB')).toBe(5 * 1024 * 1024);
    expect(documentedMaxBytes('Up to 100 kB')).toBe(100 * 1024);
    expect(documentedMaxBytes('the file')).toBeNull();
    expect(documentedTypes('PDF or ZIP files (application/pdf)')).toEqual(expect.arrayContaining(['application/pdf', '.pdf', '.zip']));
    expect(Object.keys(fetchBody('/account/photo/url').schema!.properties as object)).toEqual(['url', 'photoUrl', 'photo_url']);
    expect(Object.keys(fetchBody('/fetch').schema!.properties as object)).toEqual(['url']);
  });

  it('guesses no read the inventory checks guess themselves (they would stop reporting what the list found)', () => {
    const norm = (p: string) => p.replace(/\/+$/, '');
    const theirs = new Set(SURFACES.map((x) => norm(x.path)));
    expect(COMMON_PATHS.filter((c) => c.kind === 'read' && theirs.has(norm(c.path)))).toEqual([]);
  });

  it('writes entity halves that join only when expanded', () => {
    const m = entityMarkers(() => 'ab12');
    const { dtd, reference } = internalEntityDtd(m);
    const doc = xmlDocument({ name: 'x', n: 3 }, 'order', dtd, reference);
    expect(doc).toContain('<!ENTITY pca "pcxab12">');
    expect(doc).toContain('<order><name>&pca;&pcb;</name><n>3</n></order>');
    expect(doc.includes(m.joined)).toBe(false);
  });
});
