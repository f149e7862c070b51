// Building a concrete request for an endpoint: path parameters filled (from objects the scan
// created, ids it harvested, or synthesised values), required and exemplified query parameters,
// required headers and cookies, and a body synthesised from the request schema.

import { randomBytes } from 'node:crypto';
import type { Endpoint, EndpointParameter, JsonSchema } from '../../shared/contract';
import type { CredentialPlacement } from './identities/placement';
import type { ProbeRequest } from './http/engine';
import type { RequestAuth } from './http/exchange';
import { FILE_PARAM } from './probe-safety';
import { isPasswordKey, PASSWORD_PLACEHOLDER, withPasswordPlaceholders } from './passwords';
import { paramString, synthesize } from './schema-values';

/** declared: an id the user listed under the identity's `objects:` (declared-objects.ts). */
export type ValueSource = 'created' | 'harvested' | 'synthesized' | 'enum' | 'declared';

export interface PathValue {
  value: string;
  source: ValueSource;
}

/** A request ready to send, without credentials (they are applied by the engine at send time). */
export interface PreparedRequest {
  endpoint: Endpoint | null;
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | null;
  /** The body as a value before encoding, when it was synthesised from a schema. */
  bodyValue: unknown;
  contentType: string | null;
  placements: CredentialPlacement[];
  pathValues: Record<string, PathValue>;
}

const PATH_PARAM = /\{([^}]+)\}/g;
const RESERVED_HEADERS = new Set(['authorization', 'cookie', 'content-type', 'accept', 'content-length', 'host', 'user-agent']);

const paramNamesCache = new Map<string, string[]>();

/** The {names} in a path template, in order (cached: templates repeat on every request). */
export function pathParamNames(template: string): string[] {
  let names = paramNamesCache.get(template);
  if (!names) {
    names = [...template.matchAll(PATH_PARAM)].map((m) => m[1]!);
    if (paramNamesCache.size > 50_000) paramNamesCache.clear();
    paramNamesCache.set(template, names);
  }
  return names;
}

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(PATH_PARAM, (_, name: string) => encodeURIComponent(values[name] ?? '1'));
}

function paramValue(p: EndpointParameter, unique?: string): unknown {
  if (p.in !== 'path' && isPasswordKey(p.name)) return PASSWORD_PLACEHOLDER;
  if (p.example !== undefined) return p.example;
  return synthesize(p.schema, { name: p.name, unique, forRequest: true });
}

function hasExplicitValue(p: EndpointParameter): boolean {
  const s = p.schema ?? {};
  return p.example !== undefined || s.example !== undefined || s.default !== undefined || Array.isArray(s.enum) || Array.isArray(s.examples);
}

/** The path parameter's fixed value when its schema allows only listed values. */
export function enumPathValue(endpoint: Endpoint, name: string): string | null {
  const p = endpoint.parameters.find((x) => x.in === 'path' && x.name === name);
  const s = p?.schema;
  if (s && Array.isArray(s.enum) && s.enum.length) return paramString(s.enum[0]);
  if (s && 'const' in s) return paramString(s.const);
  return null;
}

export function synthesizedPathValue(endpoint: Endpoint, name: string): string {
  const p = endpoint.parameters.find((x) => x.in === 'path' && x.name === name);
  const v = p ? paramValue(p) : synthesize(null, { name });
  const s = paramString(v);
  return s === '' || s === 'portcullis' ? '1' : s;
}

function isJson(ct: string): boolean {
  return /json/i.test(ct);
}

function encodeMultipart(value: unknown): { body: string; contentType: string } {
  const boundary = `----portcullis${randomBytes(8).toString('hex')}`;
  const parts: string[] = [];
  const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  for (const [k, v] of Object.entries(obj)) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"\r\n\r\n${paramString(v)}\r\n`);
  }
  parts.push(`--${boundary}--\r\n`);
  return { body: parts.join(''), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Encodes a body value for a media type; null when the type is one we cannot write. */
export function encodeBody(value: unknown, contentType: string): { body: string; contentType: string } | null {
  const ct = contentType.toLowerCase();
  if (isJson(ct) || ct === '*/*') return { body: JSON.stringify(value ?? {}), contentType: isJson(ct) ? contentType : 'application/json' };
  if (ct.startsWith('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams();
    const obj = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    for (const [k, v] of Object.entries(obj)) params.append(k, paramString(v));
    return { body: params.toString(), contentType };
  }
  if (ct.startsWith('multipart/form-data')) return encodeMultipart(value);
  if (ct.startsWith('text/')) return { body: typeof value === 'string' ? value : paramString(value ?? 'portcullis'), contentType };
  if (typeof value === 'string') return { body: value, contentType };
  return null;
}

const UNIQUE_MARK = 'PORTCULLISUNIQUEMARK';
/** Per endpoint, the body synthesised once as JSON: [without a unique token, with the mark where a token goes]. */
const bodyCache = new WeakMap<Endpoint, [string | undefined, string | undefined]>();

/** A fresh copy of the endpoint's synthesised request body (the schema is walked once per endpoint). */
function synthesizedBody(endpoint: Endpoint, unique: string | undefined): unknown {
  let cached = bodyCache.get(endpoint);
  if (!cached) {
    const schema = endpoint.request_body?.schema ?? null;
    const plain = synthesize(schema, { forRequest: true });
    const marked = synthesize(schema, { unique: UNIQUE_MARK, forRequest: true });
    cached = [plain === undefined ? undefined : JSON.stringify(plain), marked === undefined ? undefined : JSON.stringify(marked)];
    bodyCache.set(endpoint, cached);
  }
  const json = unique ? cached[1]?.split(UNIQUE_MARK).join(unique) : cached[0];
  return json === undefined ? undefined : JSON.parse(json);
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** "portcullis-<unique>.txt", keeping the extension of the value it replaces. */
function freshFileName(value: unknown, unique: string): string {
  const ext = typeof value === 'string' ? /\.[A-Za-z0-9]{1,8}$/.exec(value)?.[0] : undefined;
  return `portcullis-${unique}${ext ?? '.txt'}`;
}

/** A body with its top-level file-name fields (file, path, filename...), and a GraphQL body's variables of that kind, replaced by fresh names. */
function withFreshFileNames(body: unknown, unique: string, depth = 0): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const obj = body as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => FILE_PARAM.test(k) && (typeof obj[k] === 'string' || obj[k] === undefined));
  const variables = depth === 0 && obj.variables && typeof obj.variables === 'object' ? withFreshFileNames(obj.variables, unique, 1) : obj.variables;
  if (!keys.length && variables === obj.variables) return body;
  const copy = { ...obj };
  for (const k of keys) copy[k] = freshFileName(obj[k], unique);
  if (variables !== undefined) copy.variables = variables;
  return copy;
}

/** An example body with a blank string field ("username": ""): a write whose blanks need values of their own. */
export function hasBlankExampleFields(endpoint: Endpoint): boolean {
  const ex = endpoint.request_body?.example;
  return !!ex && typeof ex === 'object' && !Array.isArray(ex) && Object.values(ex as Record<string, unknown>).some((v) => v === '');
}

/**
 * An example body whose string fields are left empty ("username": "" in a collection, a form to fill in):
 * each empty one gets the value the field would get without an example, unique for a create, so two creates
 * from the same example do not collide on an empty unique field.
 */
function withEmptyStringsFilled(value: unknown, schema: JsonSchema | null | undefined, unique: string | undefined, depth = 0): unknown {
  if (depth > 3 || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const props = (schema && typeof schema === 'object' ? (schema.properties as Record<string, JsonSchema> | undefined) : undefined) ?? {};
  let copy: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    let next = v;
    if (v === '') {
      const { example: _e, examples: _x, default: _d, ...bare } = props[k] ?? {};
      const filled = synthesize(Object.keys(bare).length ? bare : { type: 'string' }, { name: k, unique, forRequest: true });
      // A plain placeholder names its field, so that two blanks of one record (username, name) do not read back alike.
      if (typeof filled === 'string' && /^portcullis(-|$)/.test(filled)) next = `portcullis-${k.replace(/[^A-Za-z0-9]/g, '').slice(0, 20).toLowerCase()}${unique ? `-${unique}` : ''}`;
      else if (typeof filled === 'string' && filled !== '') next = filled;
    } else if (v && typeof v === 'object' && !Array.isArray(v)) next = withEmptyStringsFilled(v, props[k], unique, depth + 1);
    if (next !== v) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[k] = next;
    }
  }
  return copy ?? value;
}

export interface PrepareOptions {
  base: (path: string) => URL;
  placements: CredentialPlacement[];
  pathValues: Record<string, PathValue>;
  /** Makes identifying strings of the body unique (creates). */
  unique?: string;
}

export function prepareRequest(endpoint: Endpoint, opts: PrepareOptions): PreparedRequest {
  const names = pathParamNames(endpoint.path);
  const values: Record<string, string> = {};
  const pathValues: Record<string, PathValue> = {};
  for (const n of names) {
    const given = opts.pathValues[n];
    const pv = given ?? { value: synthesizedPathValue(endpoint, n), source: 'synthesized' as const };
    values[n] = pv.value;
    pathValues[n] = pv;
  }
  const url = opts.base(fillPath(endpoint.path, values));
  const credentialNames = new Set(opts.placements.map((p) => `${p.in}:${p.name.toLowerCase()}`));
  // A write that names a file gets a file name of its own, so it never overwrites one that exists (probe-safety.ts).
  const writing = !!opts.unique && !READ_METHODS.has(endpoint.method.toUpperCase());
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const p of endpoint.parameters) {
    if (p.in === 'path') continue;
    if (credentialNames.has(`${p.in}:${p.name.toLowerCase()}`)) continue;
    if (!p.required && !(p.in === 'query' && hasExplicitValue(p))) continue;
    const v = writing && FILE_PARAM.test(p.name) ? freshFileName(paramValue(p), opts.unique!) : paramString(paramValue(p, opts.unique));
    if (p.in === 'query') url.searchParams.set(p.name, v);
    else if (p.in === 'header') {
      if (!RESERVED_HEADERS.has(p.name.toLowerCase())) headers[p.name.toLowerCase()] = v;
    } else if (p.in === 'cookie') cookies.push(`${p.name}=${encodeURIComponent(v)}`);
  }
  if (cookies.length) headers.cookie = cookies.join('; ');
  let body: string | null = null;
  let bodyValue: unknown = undefined;
  let contentType: string | null = null;
  const rb = endpoint.request_body;
  if (rb && endpoint.method !== 'GET' && endpoint.method !== 'HEAD') {
    bodyValue = withPasswordPlaceholders(rb.example !== undefined ? withEmptyStringsFilled(rb.example, rb.schema, opts.unique) : synthesizedBody(endpoint, opts.unique));
    if (writing) bodyValue = withFreshFileNames(bodyValue, opts.unique!);
    const encoded = encodeBody(bodyValue, rb.content_type || 'application/json');
    if (encoded) {
      body = encoded.body;
      contentType = encoded.contentType;
      headers['content-type'] = encoded.contentType;
    }
  }
  return { endpoint, method: endpoint.method.toUpperCase(), url, headers, body, bodyValue, contentType, placements: opts.placements, pathValues };
}

/** The engine request for a prepared one, speaking as `auth`. */
export function toProbe(p: PreparedRequest, auth: RequestAuth, extra: Partial<ProbeRequest> = {}): ProbeRequest {
  return { method: p.method, url: p.url, headers: p.headers, body: p.body, auth, placements: p.placements, ...(p.endpoint ? { operation: p.endpoint.id } : {}), ...extra };
}

/** A copy with changes: a different method, query values, headers, or a new body value. */
export function mutate(
  p: PreparedRequest,
  change: { method?: string; query?: Record<string, string | null>; headers?: Record<string, string | null>; bodyValue?: unknown; body?: string | null; path?: string },
): PreparedRequest {
  const url = new URL(p.url);
  if (change.path !== undefined) url.pathname = change.path;
  for (const [k, v] of Object.entries(change.query ?? {})) {
    if (v === null) url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  const headers = { ...p.headers };
  for (const [k, v] of Object.entries(change.headers ?? {})) {
    if (v === null) delete headers[k.toLowerCase()];
    else headers[k.toLowerCase()] = v;
  }
  let body = p.body;
  let bodyValue = p.bodyValue;
  if ('bodyValue' in change) {
    bodyValue = change.bodyValue;
    const encoded = encodeBody(bodyValue, p.contentType ?? 'application/json');
    body = encoded?.body ?? null;
    if (encoded) headers['content-type'] = encoded.contentType;
  }
  if (change.body !== undefined) body = change.body;
  return { ...p, method: (change.method ?? p.method).toUpperCase(), url, headers, body, bodyValue };
}
