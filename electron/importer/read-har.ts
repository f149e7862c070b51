// HAR 1.2 (traffic recorded in a browser's developer tools) -> API and endpoints. API calls to the
// most-used origin are kept; static assets and pages are dropped; requests are grouped into
// endpoints by method and path, with id-like path segments turned into parameters
// (/users/42/orders/7 -> /users/{userId}/orders/{orderId}). The credentials requests send (an
// Authorization header, an API key header or query parameter, a session cookie) become inferred
// security schemes; header values, cookies, credential-looking and secret-named values are never
// stored; response bodies only give their schema.

import type { EndpointParameter, RequestBodySpec, ResponseSpec, SecurityRequirement, SecurityScheme } from '../../shared/contract';
import { cookiePairs, CredentialInference, inferCredential, looksLikeJwt, looksLikeSecret, type CredentialCandidate } from './infer-credentials';
import { inferSchema, redactedExample, REDACTED, SECRET_NAME } from './infer-schema';
import { IMPORT_LIMITS } from './limits';
import { ImportError } from './errors';
import type { PendingOperation, SpecReading } from './read-spec';
import type { Budget, Budgets } from './resolve-refs';
import type { ExtractedEndpoint } from './result';
import type { Warnings } from './warnings';
import { arr, clampText, isObject, obj, own, put, str, type Obj } from './values';

const STATIC_TYPES = new Set(['image', 'stylesheet', 'script', 'font', 'media', 'manifest', 'texttrack', 'ping', 'websocket', 'preflight', 'other-static']);
const STATIC_EXTENSIONS = /\.(js|mjs|map|css|png|jpe?g|gif|svg|ico|webp|avif|bmp|woff2?|ttf|otf|eot|mp4|webm|mp3|wav|ogg|html?|txt|wasm)$/i;
const STATIC_MIME = /^(image\/|font\/|audio\/|video\/|text\/css|text\/javascript|application\/(x-)?javascript|application\/wasm)/i;
const MAX_BODY_TEXT = 1_000_000;

interface Entry {
  index: number;
  method: string;
  url: URL;
  request: Obj;
  response: Obj | undefined;
}

interface Group {
  method: string;
  path: string;
  names: string[];
  values: string[];
  entries: Entry[];
  /** The credentials its requests send, as OR alternatives ([] when none). */
  security: SecurityRequirement[];
  /** Query parameters that carry a credential: the scheme's place, not parameters. */
  credentialQueries: Set<string>;
}

/** A path segment that names one object: a number, a UUID, a long hex or token-like string (or a JWT). */
export function isIdSegment(seg: string): boolean {
  if (/^\d+$/.test(seg)) return true;
  if (looksLikeJwt(seg)) return true;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(seg)) return true;
  if (/^[0-9a-f]{16,}$/i.test(seg) && /\d/.test(seg)) return true;
  return seg.length >= 16 && /^[A-Za-z0-9_-]+$/.test(seg) && /\d/.test(seg) && /[A-Za-z]/.test(seg);
}

function singular(word: string): string {
  if (/ies$/i.test(word)) return word.replace(/ies$/i, 'y');
  if (/(ss|us|is)$/i.test(word)) return word;
  if (/(xes|ches|shes|sses)$/i.test(word)) return word.replace(/es$/i, '');
  return word.replace(/s$/i, '');
}

function camel(word: string): string {
  const parts = word.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return parts.map((p, i) => (i === 0 ? p.charAt(0).toLowerCase() + p.slice(1) : p.charAt(0).toUpperCase() + p.slice(1))).join('');
}

/** "/users/42/orders/7" -> "/users/{userId}/orders/{orderId}", the parameter names and the values seen. */
export function templateHarPath(pathname: string): { path: string; names: string[]; values: string[] } {
  const names: string[] = [];
  const values: string[] = [];
  const segments = pathname.split('/');
  const out = segments.map((seg, i) => {
    let decoded = seg;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      decoded = seg;
    }
    if (!decoded || !isIdSegment(decoded)) return decoded;
    const prev = segments[i - 1] ?? '';
    const base = prev && !isIdSegment(prev) && /[A-Za-z]/.test(prev) ? `${camel(singular(prev))}Id` : 'id';
    let name = /^[A-Za-z_]/.test(base) ? base : 'id';
    for (let n = 2; names.includes(name); n += 1) name = `${base}${n}`;
    names.push(name);
    values.push(decoded);
    return `{${name}}`;
  });
  const path = out.join('/') || '/';
  return { path: path.startsWith('/') ? path : `/${path}`, names, values };
}

function headerValue(headers: unknown, name: string): string | undefined {
  for (const h of arr(headers) ?? []) if (str(own(h, 'name'))?.toLowerCase() === name) return str(own(h, 'value'));
  return undefined;
}

function isStatic(entry: Obj, url: URL, method: string): boolean {
  const type = str(entry._resourceType)?.toLowerCase();
  if (type && STATIC_TYPES.has(type)) return true;
  const mime = str(own(own(entry.response, 'content'), 'mimeType')) ?? '';
  if (STATIC_MIME.test(mime)) return true;
  if (STATIC_EXTENSIONS.test(url.pathname)) return true;
  // A page load, not an API call.
  return method === 'GET' && (type === 'document' || /^text\/html/i.test(mime));
}

function parseJson(text: string | undefined): unknown {
  if (!text || text.length > MAX_BODY_TEXT || !/^\s*[{[]/.test(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function exampleOf(name: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return SECRET_NAME.test(name) || looksLikeSecret(name, value) ? REDACTED : clampText(value, IMPORT_LIMITS.maxStoredString);
}

const MAX_HEADERS = 200;

/** The credentials one recorded request sends: its headers, cookies (the `cookies` list and the Cookie header) and query string. */
function entryCredentials(e: Entry): { found: CredentialCandidate[]; queries: string[] } {
  const found: CredentialCandidate[] = [];
  const cookies = new Map<string, string>();
  for (const c of (arr(e.request.cookies) ?? []).slice(0, MAX_HEADERS)) {
    const name = str(own(c, 'name'));
    const value = str(own(c, 'value'));
    if (name && value !== undefined && !cookies.has(name)) cookies.set(name, value);
  }
  for (const h of (arr(e.request.headers) ?? []).slice(0, MAX_HEADERS)) {
    const name = str(own(h, 'name'));
    const value = str(own(h, 'value'));
    if (!name || value === undefined) continue;
    if (name.trim().toLowerCase() === 'cookie') {
      for (const [k, v] of cookiePairs(value)) if (!cookies.has(k)) cookies.set(k, v);
      continue;
    }
    const c = inferCredential('header', name, value);
    if (c) found.push(c);
  }
  for (const [name, value] of cookies) {
    const c = inferCredential('cookie', name, value);
    if (c) found.push(c);
  }
  const queries: string[] = [];
  let n = 0;
  for (const [k, v] of e.url.searchParams) {
    if ((n += 1) > MAX_HEADERS) break;
    const c = inferCredential('query', k, v);
    if (c) {
      found.push(c);
      queries.push(clampText(k, IMPORT_LIMITS.maxParameterNameLength));
    }
  }
  return { found, queries };
}

function readBody(group: Group, budget: Budget): RequestBodySpec | null {
  const withBody = group.entries.find((e) => isObject(e.request.postData));
  if (!withBody || group.method === 'GET' || group.method === 'HEAD') return null;
  const post = withBody.request.postData as Obj;
  const type = clampText(str(post.mimeType)?.split(';')[0] ?? headerValue(withBody.request.headers, 'content-type') ?? 'application/octet-stream', 200) || 'application/octet-stream';
  const params = arr(post.params);
  if (params && params.length) {
    const properties: Obj = {};
    const example: Obj = {};
    for (const p of params.slice(0, IMPORT_LIMITS.maxParameters)) {
      const name = clampText(own(p, 'name'), IMPORT_LIMITS.maxParameterNameLength);
      if (!name) continue;
      const file = own(p, 'fileName') !== undefined;
      put(properties, name, file ? { type: 'string', format: 'binary' } : { type: 'string' });
      const ex = file ? undefined : exampleOf(name, own(p, 'value'));
      if (ex !== undefined) put(example, name, ex);
    }
    return { required: true, content_type: type, schema: { type: 'object', properties }, example };
  }
  const text = str(post.text);
  const parsed = /json/i.test(type) ? parseJson(text) : undefined;
  if (parsed !== undefined) return { required: true, content_type: type, schema: inferSchema(parsed, budget), example: redactedExample(parsed, budget) };
  if (/x-www-form-urlencoded/i.test(type) && text) {
    const properties: Obj = {};
    const example: Obj = {};
    for (const [k, v] of new URLSearchParams(text.slice(0, MAX_BODY_TEXT))) {
      const name = clampText(k, IMPORT_LIMITS.maxParameterNameLength);
      if (!name) continue;
      put(properties, name, { type: 'string' });
      const ex = exampleOf(name, v);
      if (ex !== undefined) put(example, name, ex);
    }
    return { required: true, content_type: type, schema: { type: 'object', properties }, example };
  }
  return { required: true, content_type: type, schema: null };
}

function readResponses(group: Group, budget: Budget): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  for (const e of group.entries) {
    const status = own(e.response, 'status');
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599) continue;
    const key = String(status);
    if (out[key] || Object.keys(out).length >= IMPORT_LIMITS.maxResponses) continue;
    const content = obj(own(e.response, 'content'));
    const mime = clampText(str(own(content, 'mimeType'))?.split(';')[0] ?? '', 200);
    const encoded = str(own(content, 'encoding')) === 'base64';
    const parsed = !encoded && /json/i.test(mime) ? parseJson(str(own(content, 'text'))) : undefined;
    out[key] = {
      description: clampText(own(e.response, 'statusText'), IMPORT_LIMITS.maxSummaryLength),
      content_type: mime || null,
      schema: parsed === undefined ? null : inferSchema(parsed, budget),
    };
  }
  return out;
}

function queryParameters(group: Group): EndpointParameter[] {
  const byName = new Map<string, { count: number; example: string | undefined }>();
  for (const e of group.entries) {
    const seen = new Set<string>();
    for (const [k, v] of e.url.searchParams) {
      const name = clampText(k, IMPORT_LIMITS.maxParameterNameLength);
      if (!name || seen.has(name) || group.credentialQueries.has(name)) continue;
      seen.add(name);
      const known = byName.get(name);
      if (known) known.count += 1;
      else if (byName.size < IMPORT_LIMITS.maxParameters) byName.set(name, { count: 1, example: exampleOf(name, v) });
    }
  }
  return [...byName.entries()].map(([name, q]) => {
    const numeric = q.example !== undefined && /^-?\d+$/.test(q.example);
    const p: EndpointParameter = { name, in: 'query', required: q.count === group.entries.length, schema: { type: numeric ? 'integer' : 'string' } };
    if (q.example !== undefined) p.example = numeric ? Number(q.example) : q.example;
    return p;
  });
}

export function readHar(doc: Obj, warnings: Warnings): SpecReading {
  const log = obj(doc.log)!;
  const entries: Entry[] = [];
  let staticCount = 0;
  (arr(log.entries) ?? []).forEach((raw, index) => {
    const request = obj(own(raw, 'request'));
    const method = str(own(request, 'method'))?.trim().toUpperCase();
    const href = str(own(request, 'url'));
    if (!request || !method || !href || !/^[A-Z]{1,20}$/.test(method)) {
      warnings.add(`/log/entries/${index}`, 'An entry without a request method and URL was skipped.');
      return;
    }
    let url: URL;
    try {
      url = new URL(href.slice(0, 8_192));
    } catch {
      warnings.add(`/log/entries/${index}`, 'An entry whose URL cannot be read was skipped.');
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    if (method === 'OPTIONS' || isStatic(raw as Obj, url, method)) {
      staticCount += 1;
      return;
    }
    entries.push({ index, method, url, request, response: obj(own(raw, 'response')) });
  });
  if (staticCount) warnings.add('/log/entries', `${staticCount} requests for pages, static files and CORS preflights were left out.`);

  const byOrigin = new Map<string, number>();
  for (const e of entries) byOrigin.set(e.url.origin, (byOrigin.get(e.url.origin) ?? 0) + 1);
  const ranked = [...byOrigin.entries()].sort((a, b) => b[1] - a[1]);
  const origin = ranked[0]?.[0] ?? '';
  if (ranked.length > 1) {
    const others = ranked.slice(1);
    const count = others.reduce((n, [, c]) => n + c, 0);
    const names = others.slice(0, 5).map(([o]) => o).join(', ');
    warnings.add('/log/entries', `${count} requests to other hosts were left out (${names}${others.length > 5 ? ', ...' : ''}); the API is ${origin}.`);
  }

  const groups = new Map<string, Group>();
  const schemes: Record<string, SecurityScheme> = {};
  for (const e of entries) {
    if (e.url.origin !== origin) continue;
    const { path, names, values } = templateHarPath(e.url.pathname);
    const key = `${e.method} ${path}`;
    const g = groups.get(key);
    if (g) g.entries.push(e);
    else groups.set(key, { method: e.method, path, names, values, entries: [e], security: [], credentialQueries: new Set() });
  }

  // The credentials each recorded request sent; an endpoint accepts any of those its requests used.
  const inference = new CredentialInference(schemes);
  let kept = 0;
  for (const g of groups.values()) {
    const alternatives = new Map<string, SecurityRequirement>();
    for (const e of g.entries) {
      kept += 1;
      const { found, queries } = entryCredentials(e);
      for (const q of queries) g.credentialQueries.add(q);
      for (const r of inference.use(found, `/log/entries/${e.index}/request`) ?? []) alternatives.set(Object.keys(r)[0]!, r);
    }
    g.security = [...alternatives.values()].slice(0, 5);
  }
  const inferredDefault = inference.finish(kept, warnings);

  const operations: PendingOperation[] = [...groups.values()].map((g) => ({
    label: `${g.method} ${g.path}`,
    where: `/log/entries/${g.entries[0]!.index}`,
    read: (budgets: Budgets): ExtractedEndpoint => {
      const parameters: EndpointParameter[] = g.names.map((name, i) => {
        const value = g.values[i]!;
        const numeric = /^\d{1,15}$/.test(value);
        const p: EndpointParameter = { name, in: 'path', required: true, schema: numeric ? { type: 'integer' } : { type: 'string' } };
        if (numeric) p.example = Number(value);
        else if (!looksLikeSecret(name, value)) p.example = clampText(value, 200);
        return p;
      });
      return {
        method: g.method,
        path: g.path,
        summary: `${g.method} ${g.path} (seen ${g.entries.length} time${g.entries.length === 1 ? '' : 's'})`.slice(0, IMPORT_LIMITS.maxSummaryLength),
        operation_id: null,
        tags: [],
        parameters: [...parameters, ...queryParameters(g)],
        request_body: readBody(g, budgets.request),
        responses: readResponses(g, budgets.responses),
        security: g.security,
      };
    },
  }));
  if (!operations.length)
    throw new ImportError('The recording holds no API calls to import: only pages, static files and preflights, or nothing at all.', '/log/entries');

  const pages = arr(log.pages);
  const title = clampText(own(pages?.[0], 'title'), IMPORT_LIMITS.maxNameLength);
  let host = '';
  try {
    host = origin ? new URL(origin).host : '';
  } catch {
    host = '';
  }
  return {
    name: title && !/^https?:\/\//i.test(title) ? title : host ? `${host} (recorded)` : '',
    baseUrl: origin,
    security: { schemes, default: inferredDefault },
    operations,
  };
}
