// Postman Collection v2.0 / v2.1 -> API and endpoints. Every item with a request becomes one
// endpoint (nested folders become tags); `{{variables}}` are filled from the collection's
// variables; the base URL comes from a `baseUrl`-like variable or the most common origin.
// Auth is kept as its type only: tokens, passwords and keys in the collection are never stored.
// A request with no auth anywhere up its folders that sends a credential in its own header, query
// parameter or cookie gets a scheme inferred for it (infer-credentials.ts).

import type { EndpointParameter, OAuth2Grant, RequestBodySpec, ResponseSpec, SecurityRequirement, SecurityScheme } from '../../shared/contract';
import { cookiePairs, CredentialInference, inferCredential, looksLikeSecret, type CredentialCandidate } from './infer-credentials';
import { inferSchema, redactedExample, REDACTED, SECRET_NAME } from './infer-schema';
import { IMPORT_LIMITS } from './limits';
import { checkSchemeUrl, finishBaseUrl, pathTemplateNames } from './openapi-common';
import type { PendingOperation, SpecReading } from './read-spec';
import type { Budget, Budgets } from './resolve-refs';
import type { ExtractedEndpoint } from './result';
import { SkipOperation } from './errors';
import { SET_BASE_URL, type Warnings } from './warnings';
import { arr, clampText, isObject, obj, own, put, str, type Obj } from './values';

const MAX_FOLDER_DEPTH = 64;
const BASE_VARIABLE = /^(base[_-]?url|baseurl|base|api[_-]?url|url|host|server|endpoint|domain|root[_-]?url)$/i;
const METHOD = /^[A-Za-z]{1,20}$/;
const SKIPPED_HEADERS = new Set(['authorization', 'cookie', 'content-type', 'accept', 'content-length', 'host', 'user-agent', 'connection', 'accept-encoding']);

type Variables = Map<string, string>;

interface Auth {
  type: string;
  raw: Obj;
}

interface Location {
  /** `{{var}}` when the URL starts with one, else an origin, else "". */
  originKey: string;
  origin: string | null;
  path: string;
  query: [string, string][];
}

function readVariables(doc: Obj): Variables {
  const vars: Variables = new Map();
  for (const list of [own(doc, 'variable'), own(doc, 'variables')]) {
    for (const v of arr(list) ?? []) {
      const key = str(own(v, 'key')) ?? str(own(v, 'id'));
      const value = own(v, 'value');
      if (key && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') && !vars.has(key))
        vars.set(key, String(value).slice(0, IMPORT_LIMITS.maxBaseUrlLength));
    }
  }
  return vars;
}

/** Replaces {{name}} with known, non-empty values; others stay. */
function fill(text: string, vars: Variables): string {
  return text.replace(/\{\{([^{}]{1,200})\}\}/g, (whole, raw: string) => {
    const v = vars.get(raw.trim());
    return v ? v : whole;
  });
}

function rawUrl(url: unknown): string {
  if (typeof url === 'string') return url;
  if (!isObject(url)) return '';
  if (typeof url.raw === 'string') return url.raw;
  const host = Array.isArray(url.host) ? url.host.filter((h) => typeof h === 'string').join('.') : (str(url.host) ?? '');
  const path = Array.isArray(url.path) ? url.path.map((p) => (typeof p === 'string' ? p : str(own(p, 'value')) ?? '')).join('/') : (str(url.path) ?? '');
  const protocol = str(url.protocol);
  const port = str(url.port) ?? (typeof url.port === 'number' ? String(url.port) : '');
  return `${protocol ? `${protocol}://` : ''}${host}${port ? `:${port}` : ''}${path ? `/${path.replace(/^\/+/, '')}` : ''}`;
}

function splitQuery(raw: string): { noQuery: string; query: [string, string][] } {
  const beforeHash = raw.split('#', 1)[0]!;
  const q = beforeHash.indexOf('?');
  const noQuery = q >= 0 ? beforeHash.slice(0, q) : beforeHash;
  const text = q >= 0 ? beforeHash.slice(q + 1) : '';
  const query: [string, string][] = text
    ? text
        .split('&')
        .filter(Boolean)
        .slice(0, IMPORT_LIMITS.maxParameters)
        .map((pair) => {
          const i = pair.indexOf('=');
          return [i >= 0 ? pair.slice(0, i) : pair, i >= 0 ? pair.slice(i + 1) : ''];
        })
    : [];
  return { noQuery, query };
}

/**
 * Where a request goes: its origin (or the unknown `{{variable}}` standing for it) and its path.
 * Variables are filled in the scheme and host part only: in the path they stay placeholders, so
 * `/users/{{userId}}` becomes the parameter `/users/{userId}` whatever value the collection holds.
 */
function locate(urlValue: unknown, vars: Variables): Location {
  const { noQuery, query } = splitQuery(rawUrl(urlValue).trim().slice(0, 8_192));
  const split = /^(\{\{[^{}]{1,200}\}\}|[a-z][a-z0-9+.-]*:\/\/[^/]*|[^/]*)(.*)$/is.exec(noQuery)!;
  const head = fill(split[1]!, vars);
  const rest = split[2]!;
  // A host variable with no value stands for the same origin whether the URL spells a scheme before it or not
  // (`http://{{host}}/a` and `{{host}}/b`): both are requests to the API, not to two hosts.
  const unknownHost = /^(?:https?:\/\/)?\{\{([^{}]{1,200})\}\}(.*)$/is.exec(head);
  if (unknownHost) return { originKey: `{{${unknownHost[1]!.trim()}}}`, origin: null, path: unknownHost[2]! + rest, query };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(head) ? head : `http://${head}`;
  try {
    // A variable may stand for a base with a path (https://api.test/v2): it prefixes the request's path.
    const u = new URL(withScheme.replace(/\{\{/g, '%7B%7B').replace(/\}\}/g, '%7D%7D'));
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return { originKey: '', origin: null, path: '', query };
    let path = `${u.pathname === '/' ? '' : u.pathname}${rest}`;
    try {
      path = decodeURIComponent(path);
    } catch {
      // keep it encoded
    }
    return { originKey: u.origin, origin: u.origin, path, query };
  } catch {
    return { originKey: '', origin: null, path: rest, query };
  }
}

/** The base URL a collection declares in a baseUrl-like variable, if it is an http(s) URL. */
function declaredBase(vars: Variables): URL | null {
  for (const [key, value] of vars) {
    if (!BASE_VARIABLE.test(key) || !/^https?:\/\//i.test(value)) continue;
    try {
      return new URL(value);
    } catch {
      continue;
    }
  }
  return null;
}

/** ":id" and "{{id}}" segments -> "{id}"; always starts with "/". */
function templatePath(path: string): string {
  const segments = path.split('/').map((seg) => {
    const colon = /^:([A-Za-z_][\w.-]*)$/.exec(seg);
    if (colon) return `{${colon[1]}}`;
    return seg.replace(/\{\{([^{}]{1,200})\}\}/g, (_w, name: string) => `{${name.trim()}}`);
  });
  const joined = `/${segments.filter((s, i) => s !== '' || i === segments.length - 1).join('/')}`;
  return joined.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
}

/** One field of an auth block: v2.1 lists {key, value}; v2.0 uses an object. */
function authField(auth: Auth, key: string): string | undefined {
  const block = auth.raw[auth.type];
  if (Array.isArray(block)) {
    const entry = block.find((e) => str(own(e, 'key')) === key);
    const v = own(entry, 'value');
    return typeof v === 'string' ? v : undefined;
  }
  return str(own(block, key));
}

function readAuth(value: unknown): Auth | null | undefined {
  if (value === undefined || value === null) return undefined;
  const type = str(own(value, 'type'))?.toLowerCase();
  if (!type || type === 'inherit') return undefined;
  if (type === 'noauth') return null;
  return { type, raw: value as Obj };
}

const OTHER_HTTP_SCHEMES: Record<string, string> = {
  digest: 'digest',
  oauth1: 'oauth',
  hawk: 'hawk',
  ntlm: 'ntlm',
  akamai: 'akamai-edgegrid',
  edgegrid: 'akamai-edgegrid',
  awsv4: 'aws4-hmac-sha256',
  asap: 'bearer',
  jwt: 'bearer',
};

/** Postman's `grant_type` values. */
const POSTMAN_GRANTS = new Map<string, OAuth2Grant>([
  ['client_credentials', 'client_credentials'],
  ['password_credentials', 'password'],
  ['password', 'password'],
  ['authorization_code', 'authorization_code'],
  ['authorization_code_with_pkce', 'authorization_code'],
  ['implicit', 'implicit'],
]);

/** An oauth2 auth block: its grant and access token URL (variables filled), never its client secret or tokens. */
function oauth2Scheme(auth: Auth, vars: Variables, note: (message: string) => void): SecurityScheme {
  const scheme: Extract<SecurityScheme, { type: 'oauth2' }> = { type: 'oauth2' };
  const grant = POSTMAN_GRANTS.get(authField(auth, 'grant_type') ?? '');
  if (grant) scheme.grants = [grant];
  const raw = authField(auth, 'accessTokenUrl');
  if (raw !== undefined && raw.trim() !== '' && grant !== 'implicit') {
    const filled = fill(raw.slice(0, IMPORT_LIMITS.maxSchemeUrlLength * 2), vars);
    const checked = filled.includes('{{') ? { reason: 'it uses a collection variable that has no value' } : checkSchemeUrl(filled);
    if ('url' in checked) scheme.tokenUrl = checked.url;
    else note(`The OAuth 2.0 access token URL was dropped because ${checked.reason}.`);
  }
  return scheme;
}

/** The scheme an auth block stands for, under a stable name; never its secret values. */
function toScheme(auth: Auth, vars: Variables, note: (message: string) => void): [string, SecurityScheme] | null {
  switch (auth.type) {
    case 'bearer':
      return ['bearerAuth', { type: 'http', scheme: 'bearer' }];
    case 'basic':
      return ['basicAuth', { type: 'http', scheme: 'basic' }];
    case 'apikey': {
      const name = clampText(authField(auth, 'key') ?? 'X-API-Key', 200) || 'X-API-Key';
      const place = authField(auth, 'in') === 'query' ? 'query' : 'header';
      return [`apiKey:${place}:${name}`, { type: 'apiKey', in: place, name }];
    }
    case 'oauth2':
      return ['oauth2Auth', oauth2Scheme(auth, vars, note)];
    default: {
      const scheme = OTHER_HTTP_SCHEMES[auth.type];
      return scheme ? [`${auth.type}Auth`, { type: 'http', scheme }] : null;
    }
  }
}

function contentTypeOf(headers: unknown): string | null {
  for (const h of arr(headers) ?? []) {
    if (str(own(h, 'key'))?.toLowerCase() === 'content-type' && own(h, 'disabled') !== true) {
      const v = str(own(h, 'value'));
      if (v) return clampText(v.split(',')[0], 200);
    }
  }
  return null;
}

const RAW_LANGUAGE: Record<string, string> = { json: 'application/json', xml: 'application/xml', html: 'text/html', text: 'text/plain', javascript: 'application/javascript' };

function exampleValue(name: string, value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '' || /\{\{/.test(value)) return undefined;
  return SECRET_NAME.test(name) || looksLikeSecret(name, value) ? REDACTED : clampText(value, IMPORT_LIMITS.maxStoredString);
}

/** A request's query parameters (name, value, disabled): the `query` list when there is one, else those of the raw URL. */
function queryPairs(url: Obj | undefined, loc: Location): [string, unknown, boolean][] {
  const list = arr(own(url, 'query'));
  if (list) return list.filter(isObject).map((q) => [str(q.key) ?? '', q.value, q.disabled === true]);
  return loc.query.map(([k, v]) => {
    try {
      return [decodeURIComponent(k), decodeURIComponent(v), false];
    } catch {
      return [k, v, false];
    }
  });
}

/** What a request sends by itself as a credential: a header, query parameter or cookie. */
interface OwnCredentials {
  security: SecurityRequirement[];
  /** Lower-cased header names and query names the credentials are in: not kept as parameters. */
  headers: Set<string>;
  queries: Set<string>;
}

function findOwnCredentials(request: Obj, loc: Location): { found: CredentialCandidate[]; headers: Set<string>; queries: Set<string> } {
  const found: CredentialCandidate[] = [];
  const headers = new Set<string>();
  const queries = new Set<string>();
  for (const h of (arr(request.header) ?? []).slice(0, IMPORT_LIMITS.maxParameters)) {
    const name = clampText(own(h, 'key'), IMPORT_LIMITS.maxParameterNameLength);
    const value = str(own(h, 'value'));
    if (!name || value === undefined || own(h, 'disabled') === true) continue;
    if (name.toLowerCase() === 'cookie') {
      for (const [cookie, v] of cookiePairs(value)) {
        const c = inferCredential('cookie', cookie, v);
        if (c) found.push(c);
      }
      continue;
    }
    const c = inferCredential('header', name, value);
    if (c) {
      found.push(c);
      headers.add(name.toLowerCase());
    }
  }
  for (const [key, value, disabled] of queryPairs(obj(request.url), loc).slice(0, IMPORT_LIMITS.maxParameters)) {
    if (typeof value !== 'string' || disabled) continue;
    const c = inferCredential('query', key, value);
    if (c) {
      found.push(c);
      queries.add(clampText(key, IMPORT_LIMITS.maxParameterNameLength));
    }
  }
  return { found, headers, queries };
}

function readBody(request: Obj, method: string, budget: Budget): RequestBodySpec | null {
  const body = obj(request.body);
  if (!body || body.disabled === true || method === 'GET' || method === 'HEAD') return null;
  const mode = str(body.mode);
  const declared = contentTypeOf(request.header);
  if (mode === 'raw') {
    const text = str(body.raw) ?? '';
    if (!text.trim()) return null;
    const language = str(own(own(own(body, 'options'), 'raw'), 'language'));
    const type = declared ?? (language ? RAW_LANGUAGE[language] : undefined) ?? (/^\s*[{[]/.test(text) ? 'application/json' : 'text/plain');
    let parsed: unknown;
    if (/json/i.test(type) && text.length <= 1_000_000) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
    }
    const spec: RequestBodySpec = { required: true, content_type: type, schema: parsed === undefined ? null : inferSchema(parsed, budget) };
    spec.example = parsed === undefined ? clampText(text, IMPORT_LIMITS.maxStoredString) : redactedExample(parsed, budget);
    return spec;
  }
  if (mode === 'urlencoded' || mode === 'formdata') {
    const fields = (arr(body[mode]) ?? []).filter((f) => isObject(f) && typeof f.key === 'string' && f.key !== '');
    if (!fields.length) return null;
    const properties: Obj = {};
    const example: Obj = {};
    for (const f of fields.slice(0, IMPORT_LIMITS.maxParameters)) {
      const key = clampText(own(f, 'key'), IMPORT_LIMITS.maxParameterNameLength);
      const file = own(f, 'type') === 'file';
      put(properties, key, file ? { type: 'string', format: 'binary' } : { type: 'string' });
      const ex = file ? undefined : exampleValue(key, own(f, 'value'));
      if (ex !== undefined) put(example, key, ex);
    }
    return {
      required: true,
      content_type: mode === 'formdata' ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
      schema: { type: 'object', properties },
      example,
    };
  }
  if (mode === 'file') return { required: true, content_type: declared ?? 'application/octet-stream', schema: { type: 'string', format: 'binary' } };
  if (mode === 'graphql')
    return {
      required: true,
      content_type: 'application/json',
      schema: { type: 'object', properties: { query: { type: 'string' }, variables: { type: 'object' } } },
    };
  return null;
}

function readResponses(list: unknown, budget: Budget): Record<string, ResponseSpec> {
  const out: Record<string, ResponseSpec> = {};
  for (const r of (arr(list) ?? []).slice(0, IMPORT_LIMITS.maxResponses)) {
    const code = own(r, 'code');
    if (typeof code !== 'number' || !Number.isInteger(code) || code < 100 || code > 599) continue;
    const key = String(code);
    if (out[key]) continue;
    const type = contentTypeOf(own(r, 'header'));
    const text = str(own(r, 'body')) ?? '';
    let schema = null;
    if (text && text.length <= 1_000_000 && (type === null || /json/i.test(type)) && /^\s*[{[]/.test(text)) {
      try {
        schema = inferSchema(JSON.parse(text), budget);
      } catch {
        schema = null;
      }
    }
    out[key] = {
      description: clampText(own(r, 'status'), IMPORT_LIMITS.maxSummaryLength) || clampText(own(r, 'name'), IMPORT_LIMITS.maxSummaryLength),
      content_type: type ?? (schema ? 'application/json' : null),
      schema,
    };
  }
  return out;
}

interface PostmanItem {
  item: Obj;
  folders: string[];
  auth: Auth | null | undefined;
  where: string;
}

export function readPostman(doc: Obj, warnings: Warnings): SpecReading {
  const vars = readVariables(doc);
  const info = obj(doc.info);
  const collectionAuth = readAuth(doc.auth);
  const schemes: Record<string, SecurityScheme> = {};
  const unusable = new Set<string>();
  const requirementOf = (auth: Auth | null | undefined, where: string): SecurityRequirement[] | null => {
    if (auth === undefined) return null;
    if (auth === null) return [];
    const scheme = toScheme(auth, vars, (message) => warnings.add(where, message));
    if (!scheme) {
      if (!unusable.has(auth.type)) warnings.add(where, `Auth type "${clampText(auth.type, 40)}" cannot be used by the scanner; it was left out.`);
      unusable.add(auth.type);
      return null;
    }
    schemes[scheme[0]] = scheme[1];
    return [{ [scheme[0]]: [] }];
  };
  const defaultSecurity = requirementOf(collectionAuth, '/auth') ?? [];

  // Walk the folders (bounded depth), collecting items that have a request.
  const items: PostmanItem[] = [];
  const walk = (list: unknown, folders: string[], auth: Auth | null | undefined, where: string, depth: number) => {
    const entries = arr(list);
    if (!entries) {
      if (list !== undefined) warnings.add(where, '`item` is not a list; it was ignored.');
      return;
    }
    if (depth > MAX_FOLDER_DEPTH) {
      warnings.add(where, `Folders nested deeper than ${MAX_FOLDER_DEPTH} levels were skipped.`);
      return;
    }
    entries.forEach((entry, i) => {
      const at = `${where}/${i}`;
      if (!isObject(entry)) {
        warnings.add(at, 'An item that is not an object was skipped.');
        return;
      }
      const itemAuth = readAuth(entry.auth);
      const effective = itemAuth === undefined ? auth : itemAuth;
      if (entry.request !== undefined) items.push({ item: entry, folders, auth: effective, where: at });
      else if (entry.item !== undefined) {
        const name = clampText(entry.name, IMPORT_LIMITS.maxTagLength);
        walk(entry.item, name ? [...folders, name] : folders, effective, `${at}/item`, depth + 1);
      } else warnings.add(at, `Item "${clampText(entry.name, 100)}" has no request and no items; it was skipped.`);
    });
  };
  walk(doc.item, [], undefined, '/item', 0);

  // The base: a baseUrl-like variable, else the most common origin.
  const located = items.map((it) => locate(typeof it.item.request === 'string' ? it.item.request : own(it.item.request, 'url'), vars));
  const declared = declaredBase(vars);
  const counts = new Map<string, number>();
  for (const l of located) if (l.originKey) counts.set(l.originKey, (counts.get(l.originKey) ?? 0) + 1);
  const baseKey = declared?.origin ?? [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  const basePath = declared ? declared.pathname.replace(/\/+$/, '') : '';
  let baseUrl = '';
  if (declared) baseUrl = `${declared.origin}${basePath}`;
  else if (baseKey.startsWith('{{'))
    warnings.add('/variable', `The collection variable ${clampText(baseKey, 100)} has no value; ${SET_BASE_URL}`);
  else baseUrl = baseKey;

  // Requests with no auth up their folders that send a credential themselves: inferred schemes,
  // known before any endpoint is read (the default requirement and the flags depend on them).
  const inference = new CredentialInference(schemes);
  const elsewhere = (loc: Location) => !!loc.originKey && !!baseKey && loc.originKey !== baseKey;
  let kept = 0;
  const ownCredentials: (OwnCredentials | null)[] = items.map((it, index) => {
    const loc = located[index]!;
    if (elsewhere(loc)) return null;
    kept += 1;
    const request = typeof it.item.request === 'string' ? { url: it.item.request } : obj(it.item.request);
    if (!request || collectionAuth !== undefined || it.auth !== undefined || readAuth(request.auth) !== undefined) return null;
    const { found, headers, queries } = findOwnCredentials(request, loc);
    const security = inference.use(found, `${it.where}/request`);
    return security ? { security, headers, queries } : null;
  });
  const inferredDefault = inference.finish(kept, warnings);

  const operations: PendingOperation[] = items.map((it, index) => {
    const loc = located[index]!;
    const ownCreds = ownCredentials[index];
    const label = clampText(it.item.name, 200) || `item ${it.where}`;
    return {
      label: `"${label}"`,
      where: it.where,
      read: (budgets: Budgets): ExtractedEndpoint => {
        const request = typeof it.item.request === 'string' ? { url: it.item.request } : obj(it.item.request);
        if (!request) throw new SkipOperation('its request is not an object');
        const method = (str(request.method) ?? 'GET').trim().toUpperCase();
        const requestAuth = readAuth(request.auth);
        if (!METHOD.test(method)) throw new SkipOperation(`"${clampText(request.method, 20)}" is not an HTTP method`);
        if (elsewhere(loc))
          throw new SkipOperation(`it targets ${clampText(loc.origin ?? loc.originKey, 200)}, not the API's base URL ${clampText(baseUrl || baseKey, 200)}`);
        const rel = basePath && (loc.path === basePath || loc.path.startsWith(`${basePath}/`)) ? loc.path.slice(basePath.length) : loc.path;
        const path = templatePath(rel);
        const url = obj(request.url);
        const parameters: EndpointParameter[] = [];
        const pathVars = new Map<string, Obj>();
        for (const v of arr(own(url, 'variable')) ?? []) {
          const key = str(own(v, 'key')) ?? str(own(v, 'id'));
          if (key && isObject(v)) pathVars.set(key, v);
        }
        for (const name of pathTemplateNames(path)) {
          const p: EndpointParameter = { name, in: 'path', required: true, schema: { type: 'string' } };
          const ex = exampleValue(name, own(pathVars.get(name), 'value')) ?? exampleValue(name, vars.get(name));
          if (ex !== undefined) p.example = ex;
          parameters.push(p);
        }
        const seen = new Set<string>();
        for (const [key, value, disabled] of queryPairs(url, loc)) {
          const name = clampText(key, IMPORT_LIMITS.maxParameterNameLength);
          // A disabled query parameter is not sent by Postman, as a disabled header is not.
          if (!name || disabled || seen.has(name) || parameters.length >= IMPORT_LIMITS.maxParameters) continue;
          // The inferred credential's place is the scheme's, not a parameter's (the scanner fills it).
          if (ownCreds?.queries.has(name)) continue;
          seen.add(name);
          const p: EndpointParameter = { name, in: 'query', required: false, schema: { type: 'string' } };
          const ex = exampleValue(name, value);
          if (ex !== undefined) p.example = ex;
          parameters.push(p);
        }
        for (const h of arr(request.header) ?? []) {
          const name = clampText(own(h, 'key'), IMPORT_LIMITS.maxParameterNameLength);
          if (!name || SKIPPED_HEADERS.has(name.toLowerCase()) || own(h, 'disabled') === true) continue;
          if (ownCreds?.headers.has(name.toLowerCase())) continue;
          if (parameters.length >= IMPORT_LIMITS.maxParameters) break;
          const p: EndpointParameter = { name, in: 'header', required: false, schema: { type: 'string' } };
          const ex = exampleValue(name, own(h, 'value'));
          if (ex !== undefined) p.example = ex;
          parameters.push(p);
        }
        return {
          method,
          path,
          summary: clampText(it.item.name, IMPORT_LIMITS.maxSummaryLength),
          operation_id: null,
          tags: it.folders.slice(-IMPORT_LIMITS.maxTags),
          parameters,
          request_body: readBody(request, method, budgets.request),
          responses: readResponses(it.item.response, budgets.responses),
          security: ownCreds ? ownCreds.security : requirementOf(requestAuth === undefined ? it.auth : requestAuth, it.where),
        };
      },
    };
  });

  return {
    name: clampText(own(info, 'name'), IMPORT_LIMITS.maxNameLength),
    baseUrl: baseUrl ? finishBaseUrl(baseUrl, '/variable', warnings) : '',
    security: { schemes, default: collectionAuth === undefined ? inferredDefault : defaultSecurity },
    operations,
  };
}
