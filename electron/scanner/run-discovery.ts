// The route-discovery phase of a scan (issue 28): before the checks run, the scan reads where the server
// names its own routes beyond the API description — robots.txt and sitemaps, the links and scripts of its
// HTML pages (path literals of same-origin JavaScript bundles), directory listings, URLs in the answers of
// documented GETs, other API descriptions it publishes, and sibling versions of versioned paths. Each
// route is kept only when its answer differs from the API's own not-found answer at the same place; kept
// routes become endpoints every later check scans, marked discovered in the coverage. GETs only, within
// DISCOVERY_PHASE_BUDGET requests; a published description's operations keep their own methods, and the
// checks' writes to them follow the scan's write policy like any other operation's.

import type { Endpoint } from '../../shared/contract';
import { importApiDocument } from '../importer/index';
import { describeEndpoint } from './checks/common/helpers';
import { NotFoundModel, presence, type Presence, shapeOf } from './checks/api9-inventory/not-found';
import { Budget } from './http/engine';
import type { Exchange, RequestAuth } from './http/exchange';
import { SeededRandom } from './random';
import { normalizeTemplate } from './resources';
import { bundlePaths, isStaticAsset } from './route-discovery/bundle-paths';
import { COMMON_PATHS, type CommonPath, fetchBody, UPLOAD_BODY } from './route-discovery/common-paths';
import { discoveredEndpoint, type DiscoveredRoute } from './route-discovery/discovered-endpoint';
import { listedPaths, presenceOrListing } from './route-discovery/listing';
import { htmlLinks, jsonLinks, robotsPaths, sameOriginPath, sitemapPaths } from './route-discovery/sources';
import { siblingCollections } from './route-discovery/sibling-names';
import type { ScanRun } from './run-state';

/** Every request of the phase together: sources, controls and candidates. */
export const DISCOVERY_PHASE_BUDGET = 150;
/** The guesses of the common-path list, controls included: a budget of their own, so the other sources' candidates never crowd them out. */
export const COMMON_PATHS_BUDGET = 260;
/** The check whose presence in a scan turns the phase on (it reports what discovery finds unlike not-found). */
export const DISCOVERY_CHECK = 'api9-undocumented-endpoints';
const MAX_CANDIDATES = 60;
const MAX_SCRIPTS = 4;
const MAX_LISTED = 30;
const MAX_LINK_SOURCES = 8;
const MAX_DESCRIPTION_BYTES = 2_000_000;
const MAX_SIBLINGS = 12;
/** Where servers usually publish a machine-readable description of their API. */
const DESCRIPTION_PATHS = ['/openapi.json', '/openapi.yaml', '/swagger.json', '/swagger.yaml', '/v3/api-docs', '/v2/api-docs', '/api-docs', '/api-docs.json', '/.well-known/openapi.json'];
const ANON: RequestAuth = { kind: 'none' };
const KEY1: RequestAuth = { kind: 'key', key: 1 };

interface Candidate {
  /** The concrete path on the origin, with its query if one was seen. */
  url: string;
  source: string;
}

class Discovery {
  readonly budget = new Budget('route discovery', DISCOVERY_PHASE_BUDGET);
  readonly commonBudget = new Budget('route discovery (common paths)', COMMON_PATHS_BUDGET);
  readonly origin: string;
  readonly basePath: string;
  private readonly candidates = new Map<string, Candidate>();
  readonly found: DiscoveredRoute[] = [];
  readonly published: Endpoint[] = [];
  private readonly documented: Set<string>;
  private readonly anon: NotFoundModel;
  private readonly key1: NotFoundModel;
  /** Not-found answers for the common-path guesses: GETs, and the harmless POSTs of upload and fetch routes. */
  private readonly commonGet: NotFoundModel;
  private readonly commonKey1: NotFoundModel;
  private readonly commonPost: Record<'upload' | 'fetch', NotFoundModel>;
  private readonly gets = new Map<string, Promise<Exchange>>();

  constructor(readonly run: ScanRun) {
    const base = new URL(run.api.baseUrl);
    this.origin = base.origin;
    this.basePath = base.pathname.replace(/\/+$/, '');
    // Every imported operation, skipped and withheld ones too: a route the user set aside is never brought back as discovered.
    this.documented = new Set(run.job.endpoints.map((e) => `${e.method.toUpperCase()} ${normalizeTemplate(`${this.basePath}${e.path}`)}`));
    const random = new SeededRandom(run.job.options.seed ?? 0, 'route discovery');
    this.anon = new NotFoundModel((p) => this.get(p, ANON), random.fork('anonymous'));
    this.key1 = new NotFoundModel((p) => this.get(p, KEY1), random.fork('key 1'));
    this.commonGet = new NotFoundModel((p) => this.commonRead(p, ANON), random.fork('common paths'));
    this.commonKey1 = new NotFoundModel((p) => this.commonRead(p, KEY1), random.fork('common paths, key 1'));
    this.commonPost = {
      upload: new NotFoundModel((p) => this.emptyPost(p, 'upload'), random.fork('common uploads')),
      fetch: new NotFoundModel((p) => this.emptyPost(p, 'fetch'), random.fork('common fetches')),
    };
  }

  private commonRead(path: string, auth: RequestAuth): Promise<Exchange> {
    const key = `${auth.kind} ${path}`;
    let p = this.gets.get(key);
    if (!p) {
      p = this.get(path, auth, undefined, this.commonBudget);
      this.gets.set(key, p);
    }
    return p;
  }

  /**
   * The only write sent to a guessed path, and only to upload and fetch spellings: a multipart form without a part, or an empty
   * form — nothing to store and no address to fetch. Anonymous, like every guess of the phase.
   */
  private emptyPost(path: string, kind: 'upload' | 'fetch'): Promise<Exchange> {
    const boundary = '----portcullis-discovery';
    const [body, type] = kind === 'upload' ? [`--${boundary}--\r\n`, `multipart/form-data; boundary=${boundary}`] : ['', 'application/x-www-form-urlencoded'];
    return this.run.engine.send(
      { method: 'POST', url: `${this.origin}${path}`, auth: ANON, followRedirects: false, body, headers: { 'content-type': type, accept: 'application/json, */*;q=0.5' } },
      [this.commonBudget],
    );
  }

  get left(): number {
    return this.budget.left;
  }

  async get(path: string, auth: RequestAuth, accept = 'application/json, text/html;q=0.9, */*;q=0.5', budget = this.budget): Promise<Exchange> {
    return this.run.engine.send({ method: 'GET', url: `${this.origin}${path}`, auth, followRedirects: false, headers: { accept } }, [budget]);
  }

  /** Documented already: the same method and template (a concrete path fits a documented template). */
  isDocumented(method: string, pathname: string): boolean {
    const segs = pathname.replace(/\/+$/, '').split('/');
    for (const d of this.documented) {
      const [m, t] = d.split(' ', 2) as [string, string];
      if (m !== method) continue;
      const ts = t.split('/');
      if (ts.length === segs.length && ts.every((s, i) => s === '{}' || s === segs[i])) return true;
    }
    return false;
  }

  add(url: string, source: string): void {
    const pathname = url.split('?', 1)[0]!;
    const key = pathname.replace(/\/+$/, '') || '/';
    if (key === '/' || key === this.basePath || isStaticAsset(key) || this.candidates.has(key) || this.isDocumented('GET', key)) return;
    if (this.candidates.size < MAX_CANDIDATES * 2) this.candidates.set(key, { url, source });
  }

  /** The path answers unlike the not-found answer at its place: anonymous first, key 1 where that is refused. */
  async probe(c: Candidate): Promise<{ seen: Presence; ex: Exchange } | null> {
    if (this.left < 4) return null;
    const pathname = c.url.split('?', 1)[0]!.replace(/\/+$/, '') || '/';
    const cut = pathname.lastIndexOf('/');
    const leaf = pathname.slice(cut + 1);
    const shape = shapeOf(pathname.slice(0, cut), `/${leaf}`);
    const controls = await this.anon.controlsFor(shape, leaf);
    let ex = await this.get(c.url, ANON);
    let seen = presenceOrListing(ex, controls);
    // A redirect where nothing-here is not one: the route exists (a redirector, a login hop), and the checks should see it.
    if (seen === 'absent' && ex.status >= 300 && ex.status < 400 && controls.every((x) => !!x.response && (x.status < 300 || x.status >= 400))) seen = 'present';
    if (seen === 'protected' && this.run.book.slot(1) !== null && this.left >= 3) {
      const withKey = await this.get(c.url, KEY1);
      if (presence(withKey, await this.key1.controlsFor(shape, leaf)) === 'present') [ex, seen] = [withKey, 'present'];
    }
    return { seen, ex };
  }

  async probeAll(): Promise<void> {
    const queue = [...this.candidates.values()].slice(0, MAX_CANDIDATES);
    for (const c of queue) {
      if (this.run.signal.aborted || this.left < 4) return;
      const r = await this.probe(c);
      if (!r || r.seen === 'absent') continue;
      this.found.push({ method: 'GET', url: c.url, source: c.source, refusesAnonymous: r.ex.request.auth.kind !== 'none' || r.seen === 'protected' });
      if (r.seen === 'present') this.listed(r.ex, c.url);
    }
  }

  /** The common-path list at the API's base path: reads by GET, upload and fetch routes by their harmless POST. */
  async probeCommon(): Promise<void> {
    // Under the API's base path only: a route outside it is not scanned (an endpoint's path is relative to the base), so
    // guessing there would cost requests, and send writes, for a line in the notes.
    const prefix = this.basePath;
    const trimmed = (path: string) => path.replace(/\/+$/, '') || '/';
    for (const c of COMMON_PATHS) {
      if (this.run.signal.aborted || this.commonBudget.left < 4) return;
      const path = `${prefix}${c.path}`;
      const method = c.kind === 'read' ? 'GET' : 'POST';
      const key = trimmed(path);
      if (key === '/' || this.isDocumented(method, key) || this.found.some((f) => f.method === method && trimmed(f.url.split('?', 1)[0]!) === key)) continue;
      if (c.kind === 'read') await this.commonReadRoute(path, prefix, c);
      else await this.commonWriteRoute(path, prefix, c);
    }
  }

  private async commonReadRoute(path: string, prefix: string, c: CommonPath): Promise<void> {
    const leaf = path.slice(path.lastIndexOf('/') + 1);
    const shape = shapeOf(prefix, c.path);
    const controls = await this.commonGet.controlsFor(shape, leaf);
    let ex = await this.commonRead(path, ANON);
    let seen = presenceOrListing(ex, controls);
    if (seen === 'absent' && ex.status >= 300 && ex.status < 400 && controls.every((x) => !!x.response && (x.status < 300 || x.status >= 400))) seen = 'present';
    if (seen === 'protected' && this.run.book.slot(1) !== null && this.commonBudget.left >= 3) {
      const withKey = await this.commonRead(path, KEY1);
      if (presence(withKey, await this.commonKey1.controlsFor(shape, leaf)) === 'present') [ex, seen] = [withKey, 'present'];
    }
    if (seen === 'absent') return;
    this.found.push({ method: 'GET', url: path, source: 'the common-path list', refusesAnonymous: ex.request.auth.kind !== 'none' || seen === 'protected' });
    if (seen === 'present') this.listed(ex, path);
  }

  /**
   * An upload or fetch spelling is a route when its GET answers 405 where the not-found GET does not (a POST-only route says
   * so), or else when the harmless POST answers with a status no not-found POST gave (a 400 "no file", a redirect, a 401).
   */
  private async commonWriteRoute(path: string, prefix: string, c: CommonPath): Promise<void> {
    const kind = c.kind as 'upload' | 'fetch';
    const leaf = path.slice(path.lastIndexOf('/') + 1);
    const shape = shapeOf(prefix, c.path);
    const getControls = await this.commonGet.controlsFor(shape, leaf);
    const get = await this.commonRead(path, ANON);
    let how: string | null = null;
    if (get.status === 405 && getControls.every((x) => !!x.response && x.status !== 405)) how = `its GET answered 405 (a route for other methods) where a random path answered ${getControls[0]!.status}`;
    else if (this.commonBudget.left >= 3) {
      const controls = await this.commonPost[kind].controlsFor(shape, leaf);
      const ex = await this.emptyPost(path, kind);
      if (ex.response && ![404, 405, 501].includes(ex.status) && controls.every((x) => !!x.response && x.status !== ex.status)) {
        how = `an empty ${kind === 'upload' ? 'multipart form' : 'form'} answered HTTP ${ex.status} where a random path answered ${controls[0]!.status}`;
      }
    }
    if (!how) return;
    // An empty request says nothing about the credentials a real one needs: the route keeps the API's default security.
    this.found.push({ method: 'POST', url: path, source: `the common-path list (${how})`, body: kind === 'upload' ? UPLOAD_BODY : fetchBody(path), refusesAnonymous: true });
  }

  /** The files and folders a directory listing names (a page or a JSON list): the server's own index, kept without a probe each. */
  private listed(ex: Exchange, url: string): void {
    let n = 0;
    for (const path of listedPaths(ex, url, this.origin, (html, base) => htmlLinks(html, this.origin, base).links)) {
      if (n >= MAX_LISTED || this.isDocumented('GET', path)) continue;
      n += 1;
      this.found.push({ method: 'GET', url: path, source: `the directory listing at ${url}` });
    }
  }
}

// ---------------------------------------------------------------- sources

async function fromRobots(d: Discovery): Promise<void> {
  const ex = await d.get('/robots.txt', ANON, 'text/plain, */*;q=0.5');
  const sitemaps = ['/sitemap.xml'];
  if (ex.status === 200 && !/html/i.test(ex.contentType)) {
    const r = robotsPaths(ex.body, d.origin);
    for (const p of r.paths) d.add(p, 'robots.txt');
    sitemaps.unshift(...r.sitemaps);
  }
  for (const path of [...new Set(sitemaps)].slice(0, 2)) {
    const map = await d.get(path, ANON, 'application/xml, text/xml;q=0.9, */*;q=0.5');
    if (map.status === 200 && /<(urlset|sitemapindex)\b/i.test(map.body.slice(0, 2_000))) for (const p of sitemapPaths(map.body, d.origin)) d.add(p, `the sitemap ${path}`);
  }
}

async function fromPages(d: Discovery): Promise<void> {
  const scripts = new Set<string>();
  for (const page of [...new Set(['/', `${d.basePath}/`])]) {
    const ex = await d.get(page, ANON, 'text/html, */*;q=0.5');
    if (ex.status !== 200 || !/html/i.test(ex.contentType)) continue;
    const { links, scripts: s } = htmlLinks(ex.body, d.origin, `${d.origin}${page}`);
    for (const l of links) d.add(l, `a link of the page ${page}`);
    for (const x of s) scripts.add(x);
  }
  for (const script of [...scripts].slice(0, MAX_SCRIPTS)) {
    if (d.left < 10) return;
    const ex = await d.get(script, ANON, 'application/javascript, */*;q=0.5');
    if (ex.status !== 200 || /html|json/i.test(ex.contentType)) continue;
    for (const p of bundlePaths(ex.body)) {
      const path = sameOriginPath(p, d.origin);
      if (path) d.add(path, `the script ${script.split('?', 1)[0]}`);
    }
  }
}

/** URLs in the answers of documented GETs without parameters (key 1's baselines, which the checks reuse), and Location headers. */
async function fromAnswers(d: Discovery): Promise<void> {
  const gets = d.run.active.filter((e) => e.method === 'GET' && !e.graphql && !e.parameters.some((p) => p.in === 'path')).slice(0, MAX_LINK_SOURCES);
  for (const e of gets) {
    if (d.run.signal.aborted) return;
    let ex: Exchange | null = null;
    try {
      ex = await d.run.baselines.get(e, 'key1');
    } catch {
      continue;
    }
    if (!ex?.response) continue;
    const location = ex.header('location');
    const at = location ? sameOriginPath(location, d.origin, ex.request.url.toString()) : null;
    if (at) d.add(at, `the Location header of ${describeEndpoint(e)}`);
    let body: unknown;
    try {
      body = /json/i.test(ex.contentType) ? ex.json() : undefined;
    } catch {
      body = undefined;
    }
    if (body !== undefined) for (const p of jsonLinks(body, d.origin)) d.add(p, `a link in the answer of ${describeEndpoint(e)}`);
  }
}

/** Sibling versions of versioned documented GETs: /v2/... for /v1/..., within two versions either way. */
function fromVersions(d: Discovery): void {
  const seen = new Set<string>();
  for (const e of d.run.active) {
    if (e.method !== 'GET' || e.graphql || e.parameters.some((p) => p.in === 'path') || seen.size >= 6) continue;
    const full = `${d.basePath}${e.path}`;
    const m = /\/v(\d{1,2})(?=\/)/.exec(full);
    if (!m) continue;
    const v = Number(m[1]);
    for (const other of [v + 1, v - 1, v + 2]) {
      if (other < 1) continue;
      const sibling = full.replace(m[0], `/v${other}`);
      if (seen.has(sibling)) continue;
      seen.add(sibling);
      d.add(sibling, `a sibling version of ${describeEndpoint(e)}`);
    }
  }
}

/** Other API descriptions the server publishes, imported; their operations the scan's own lacks are kept as they describe them. */
async function fromDescriptions(d: Discovery): Promise<void> {
  const prefixes = [...new Set(['', d.basePath])];
  for (const prefix of prefixes) {
    for (const p of DESCRIPTION_PATHS) {
      if (d.left < 20 || d.run.signal.aborted) return;
      const path = `${prefix}${p}`;
      const ex = await d.get(path, ANON, 'application/json, application/yaml;q=0.9, */*;q=0.5');
      if (ex.status !== 200 || /html/i.test(ex.contentType) || ex.body.length > MAX_DESCRIPTION_BYTES || !/openapi|swagger/i.test(ex.body.slice(0, 5_000))) continue;
      let imported;
      try {
        imported = importApiDocument(new TextEncoder().encode(ex.body));
      } catch {
        continue;
      }
      let docBase = '';
      try {
        docBase = new URL(imported.base_url || '/', `${d.origin}/`).pathname.replace(/\/+$/, '');
      } catch {
        docBase = '';
      }
      for (const op of imported.endpoints) {
        const full = `${docBase}${op.path}`;
        if (d.isDocumented(op.method.toUpperCase(), full.replace(/\{[^}]+\}/g, '{}')) || (d.basePath && !full.startsWith(`${d.basePath}/`))) continue;
        const path = full.slice(d.basePath.length);
        const id = `discovered:${op.method.toUpperCase()} ${path}`;
        if (d.published.some((x) => x.id === id)) continue;
        d.published.push({ ...op, path, id, security: null, discovered: `the API description at ${path === p ? path : `${prefix}${p}`}` });
      }
      return;
    }
  }
}

/** The singular or plural twin of documented collections (/users beside a documented /user and /user/{id}). */
function fromSiblingNames(d: Discovery): void {
  const ops = d.run.active.filter((e) => !e.graphql && !e.discovered);
  for (const c of siblingCollections(ops, d.basePath, MAX_SIBLINGS)) d.add(c.path, `the singular or plural twin of ${c.of}`);
}

// ---------------------------------------------------------------- the phase

/** Adds the routes found beyond the API description to the scan; notes what it found and what it cost. */
export async function discoverRoutes(run: ScanRun): Promise<void> {
  // A re-test runs it only to find again the discovered route its finding is on.
  const wanted = run.job.focus ? run.job.focus.discover : run.job.checks.some((c) => c.id === DISCOVERY_CHECK);
  if (!wanted || run.active.every((e) => !!e.graphql)) return;
  const d = new Discovery(run);
  const sources: [string, () => Promise<void> | void][] = [
    ['robots.txt and sitemaps', () => fromRobots(d)],
    ['pages and scripts', () => fromPages(d)],
    ['published API descriptions', () => fromDescriptions(d)],
    ['links in answers', () => fromAnswers(d)],
    ['sibling versions', () => fromVersions(d)],
    ['singular and plural names', () => fromSiblingNames(d)],
  ];
  for (const [what, read] of sources) {
    if (run.signal.aborted) return;
    try {
      await read();
    } catch (err) {
      if (run.signal.aborted) return;
      run.problem(`Route discovery could not read ${what}: ${(err as Error).message}`);
    }
  }
  try {
    await d.probeAll();
    await d.probeCommon();
  } catch (err) {
    if (run.signal.aborted) return;
    run.problem(`Route discovery stopped early: ${(err as Error).message}`);
  }
  const added: Endpoint[] = [];
  const ids = new Set(run.active.map((e) => e.id));
  const outside: string[] = [];
  for (const route of d.found) {
    const e = discoveredEndpoint(route, d.basePath, run.api.security);
    if (!e) {
      outside.push(route.url);
      continue;
    }
    if (ids.has(e.id)) continue;
    ids.add(e.id);
    added.push(e);
  }
  for (const e of d.published) {
    if (ids.has(e.id)) continue;
    ids.add(e.id);
    added.push(e);
  }
  if (added.length) {
    run.active.push(...added);
    run.coverage.add(added);
  }
  const used = d.budget.used + d.commonBudget.used;
  const cost = `${used} request${used === 1 ? '' : 's'}`;
  if (!added.length && !outside.length) run.note(`Route discovery found no route beyond the API description (${cost}).`);
  else if (!added.length) {
    run.note(`Route discovery found ${outside.length} route${outside.length === 1 ? '' : 's'} beyond the API description, all outside the base path ${d.basePath || '/'}, so not scanned (${cost}): ${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', ...' : ''}.`);
  } else {
    const list = added.slice(0, 12).map((e) => `${describeEndpoint(e)} (${e.discovered})`).join('; ');
    run.note(
      `Route discovery found ${added.length} route${added.length === 1 ? '' : 's'} beyond the API description, scanned like the imported ones and marked discovered in the coverage (${cost})` +
        (list ? `: ${list}${added.length > 12 ? '; ...' : ''}` : '') +
        (outside.length ? `. ${outside.length} more lie outside the base path ${d.basePath || '/'} and were not scanned: ${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', ...' : ''}.` : '.'),
    );
  }
}
