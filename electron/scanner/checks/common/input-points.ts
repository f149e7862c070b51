// Shared plumbing of the input checks (API4, API6, API7, API8 injection, API10): where a request
// carries values a check can change (query, path, JSON or form body fields), fresh requests for
// creates, a scan-wide lock for time-based measurements, and the markers that prove what came back.

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { fillPath, mutate, type PreparedRequest } from '../../requests';
import type { ResourcePool } from '../../resources';
import type { CheckContext } from '../types';

export { AS_KEY1 } from '../../http/exchange';
// Answer comparison and markers live in answers.ts; they are re-exported for the checks that import them from here.
export { bodyText, challengeSignal, itemCount, otherAnswer, passwdMarker, sameAnswer, throttleSignals, winIniMarker } from './answers';

export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null' | 'unknown';

export interface InjectionPoint {
  /** Where the value goes; 'argument': a GraphQL operation's argument, sent as its variable. */
  where: 'query' | 'path' | 'body' | 'header' | 'argument';
  /** "status", "items[0].quantity". */
  name: string;
  /** The last name segment ("quantity"). */
  key: string;
  value: unknown;
  schema: JsonSchema | null;
  type: ValueType;
  /** A copy of the request with this value replaced (query and path values go as strings). */
  with(value: unknown): PreparedRequest;
}

function typeOf(schema: JsonSchema | null, value: unknown): ValueType {
  const t = schema?.type;
  const declared = typeof t === 'string' ? t : Array.isArray(t) ? (t as unknown[]).find((x) => typeof x === 'string' && x !== 'null') : undefined;
  if (typeof declared === 'string' && ['string', 'integer', 'number', 'boolean', 'array', 'object'].includes(declared)) return declared as ValueType;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (value && typeof value === 'object') return 'object';
  return 'unknown';
}

function mergeAllOf(schema: JsonSchema): JsonSchema {
  if (!Array.isArray(schema.allOf)) return schema;
  const props: Record<string, JsonSchema> = { ...((schema.properties as Record<string, JsonSchema>) ?? {}) };
  for (const part of schema.allOf as JsonSchema[]) {
    const inner = part && typeof part === 'object' ? mergeAllOf(part) : {};
    Object.assign(props, (inner.properties as Record<string, JsonSchema>) ?? {});
  }
  return { ...schema, properties: props };
}

/** The schema of a property inside an object schema (allOf merged, first oneOf/anyOf option). */
export function propertySchema(schema: JsonSchema | null | undefined, name: string): JsonSchema | null {
  if (!schema || typeof schema !== 'object') return null;
  const s = mergeAllOf(schema);
  const props = s.properties as Record<string, JsonSchema> | undefined;
  if (props && props[name] && typeof props[name] === 'object') return props[name]!;
  for (const k of ['oneOf', 'anyOf'] as const) {
    const opts = s[k];
    if (Array.isArray(opts)) {
      for (const o of opts as JsonSchema[]) {
        const found = propertySchema(o, name);
        if (found) return found;
      }
    }
  }
  return null;
}

function itemsSchema(schema: JsonSchema | null): JsonSchema | null {
  const items = schema?.items;
  return items && typeof items === 'object' && !Array.isArray(items) ? (items as JsonSchema) : null;
}

function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

type Seg = string | number;

function setAt(root: unknown, path: Seg[], value: unknown): unknown {
  const copy = clone(root);
  let cur = copy as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i += 1) cur = cur[path[i]!] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
  return copy;
}

function segName(path: Seg[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Whether the request's body is one the checks can rewrite field by field (JSON or a form). */
export function editableBody(request: PreparedRequest): boolean {
  const ct = (request.contentType ?? '').toLowerCase();
  return request.bodyValue !== undefined && request.bodyValue !== null && typeof request.bodyValue === 'object' && (/json/.test(ct) || ct.startsWith('application/x-www-form-urlencoded'));
}

export interface PointOptions {
  /** Declared query parameters the request left out (default true). */
  optionalQuery?: boolean;
  /** Path values naming objects the scan created (default false). */
  createdPaths?: boolean;
  /** Header parameters the spec declares (credentials and transport headers left out; default false). */
  headers?: boolean;
  /** The first member of arrays of scalars in bodies ("tags[0]"; default false). */
  arrayItems?: boolean;
}

/** The values of a request a check can change: query parameters, path parameters, body fields (two levels, first array item), and on request header parameters and array members. */
export function injectionPoints(
  ctx: Pick<CheckContext, 'url' | 'authSpec'>,
  endpoint: Endpoint,
  request: PreparedRequest,
  opts: PointOptions = {},
): InjectionPoint[] {
  const points: InjectionPoint[] = [];
  const credentialNames = new Set(ctx.authSpec(endpoint).placements.filter((p) => p.in === 'query').map((p) => p.name.toLowerCase()));
  const seen = new Set<string>();
  // Query parameters: those in the request, then the declared ones it left out.
  const declared = endpoint.parameters.filter((p) => p.in === 'query');
  const names = [...request.url.searchParams.keys(), ...(opts.optionalQuery === false ? [] : declared.map((p) => p.name))];
  for (const name of names) {
    if (seen.has(`q:${name}`) || credentialNames.has(name.toLowerCase())) continue;
    seen.add(`q:${name}`);
    const param = declared.find((p) => p.name === name);
    const schema = param?.schema ?? null;
    const present = request.url.searchParams.get(name);
    let value: unknown = present;
    if (present === null) {
      const ex = param?.example ?? schema?.example ?? schema?.default ?? (Array.isArray(schema?.enum) ? (schema!.enum as unknown[])[0] : undefined);
      value = ex ?? (typeOf(schema, undefined) === 'integer' || typeOf(schema, undefined) === 'number' ? 1 : 'portcullis');
    }
    const type = typeOf(schema, typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) && !schema ? Number(value) : value);
    points.push({
      where: 'query',
      name,
      key: name,
      value,
      schema,
      type,
      with: (v) => mutate(request, { query: { [name]: typeof v === 'string' ? v : JSON.stringify(v) } }),
    });
  }
  // Path parameters; the ids of objects the scan created stay as they are unless asked (the engine
  // addresses only the scan's own objects, and a changed id would address someone else's).
  for (const [name, pv] of Object.entries(request.pathValues)) {
    if (pv.source === 'created' && !opts.createdPaths) continue;
    const param = endpoint.parameters.find((p) => p.in === 'path' && p.name === name);
    const schema = param?.schema ?? null;
    points.push({
      where: 'path',
      name,
      key: name,
      value: pv.value,
      schema,
      type: typeOf(schema, /^-?\d+$/.test(pv.value) ? Number(pv.value) : pv.value),
      with: (v) => {
        const values: Record<string, string> = {};
        for (const [k, x] of Object.entries(request.pathValues)) values[k] = x.value;
        values[name] = typeof v === 'string' ? v : JSON.stringify(v);
        const url = ctx.url(fillPath(endpoint.path, values));
        url.search = request.url.search;
        return { ...mutate(request, {}), url };
      },
    });
  }
  // Body fields.
  if (editableBody(request)) {
    const root = request.bodyValue;
    const walk = (value: unknown, schema: JsonSchema | null, path: Seg[], depth: number) => {
      if (points.length > 60) return;
      if (Array.isArray(value)) {
        if (depth < 3 && value.length && value[0] && typeof value[0] === 'object') walk(value[0], itemsSchema(schema), [...path, 0], depth + 1);
        return;
      }
      if (!value || typeof value !== 'object') return;
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const sub = propertySchema(schema, k);
        const p = [...path, k];
        if (v && typeof v === 'object' && !Array.isArray(v)) {
          if (depth < 2) walk(v, sub, p, depth + 1);
          continue;
        }
        if (Array.isArray(v) && v.length && v[0] && typeof v[0] === 'object') {
          if (depth < 2) walk(v, sub, p, depth + 1);
        }
        if (opts.arrayItems && Array.isArray(v) && (typeof v[0] === 'string' || typeof v[0] === 'number')) {
          const item = itemsSchema(sub);
          const ip = [...p, 0];
          points.push({ where: 'body', name: segName(ip), key: k, value: v[0], schema: item, type: typeOf(item, v[0]), with: (nv) => mutate(request, { bodyValue: setAt(root, ip, nv) }) });
        }
        points.push({
          where: 'body',
          name: segName(p),
          key: k,
          value: v,
          schema: sub,
          type: typeOf(sub, v),
          with: (nv) => mutate(request, { bodyValue: setAt(root, p, nv) }),
        });
      }
    };
    walk(root, request.endpoint?.request_body?.schema ?? endpoint.request_body?.schema ?? null, [], 0);
  }
  if (opts.headers) points.push(...headerPoints(ctx, endpoint, request));
  return points;
}

/** Headers a spec declares and the server reads (tenant, locale, trace ids...); never credentials or transport headers. */
const NOT_INPUT_HEADERS = new Set(['authorization', 'cookie', 'content-type', 'accept', 'content-length', 'host', 'user-agent', 'connection', 'transfer-encoding']);

function headerPoints(ctx: Pick<CheckContext, 'authSpec'>, endpoint: Endpoint, request: PreparedRequest): InjectionPoint[] {
  const credentials = new Set(ctx.authSpec(endpoint).placements.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()));
  const out: InjectionPoint[] = [];
  for (const param of endpoint.parameters) {
    const name = param.name.toLowerCase();
    if (param.in !== 'header' || NOT_INPUT_HEADERS.has(name) || credentials.has(name)) continue;
    const schema = param.schema ?? null;
    const value = request.headers[name] ?? param.example ?? schema?.example ?? schema?.default ?? (Array.isArray(schema?.enum) ? (schema!.enum as unknown[])[0] : 'portcullis');
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    out.push({
      where: 'header',
      name: param.name,
      key: param.name,
      value: text,
      schema,
      type: typeOf(schema, /^-?\d+$/.test(text) && !schema ? Number(text) : text),
      // Header values cannot carry line breaks; anything else goes as is.
      with: (v) => mutate(request, { headers: { [name]: (typeof v === 'string' ? v : JSON.stringify(v)).replace(/[\r\n]+/g, ' ') } }),
    });
  }
  return out;
}

/** A string form of a point's value, to build payloads from. */
export function valueText(p: InjectionPoint): string {
  if (typeof p.value === 'string') return p.value;
  if (p.value === null || p.value === undefined) return '';
  return typeof p.value === 'object' ? JSON.stringify(p.value) : String(p.value);
}

const DESTRUCTIVE = new Set(['DELETE']);

/**
 * A request for the endpoint as key 1 would send it, fresh for creates (new unique values, so a
 * repeat does not collide) and the shared baseline request otherwise. Null when the safety rule
 * forbids it (a write without an object the scan created) or for deletes.
 */
export async function freshRequest(ctx: CheckContext, endpoint: Endpoint = ctx.endpoint): Promise<PreparedRequest | null> {
  if (DESTRUCTIVE.has(endpoint.method)) return null;
  if (isCreate(endpoint)) return ctx.prepare(endpoint, 1);
  return ctx.baselineRequest(endpoint, 'key1');
}

/** Creates (POST without path parameters) need fresh values per request; other requests can repeat. */
export function isCreate(endpoint: Endpoint): boolean {
  return endpoint.method === 'POST' && !/\{[^}]+\}/.test(endpoint.path);
}

export interface PointSource {
  request: PreparedRequest;
  points: InjectionPoint[];
  /** The named point in a request to send now: a fresh request for creates (after the first use), the same one otherwise. */
  get(name: string): Promise<InjectionPoint | null>;
  /** The unchanged request to send now, when the source decides it (GraphQL operations); otherwise fresh for creates. */
  unchanged?(): Promise<PreparedRequest | null>;
}

/** Injection points of key 1's request, with fresh requests for creates so repeats do not collide. */
export async function pointSource(ctx: CheckContext, opts: PointOptions = {}): Promise<PointSource | null> {
  const ep = ctx.endpoint;
  const request = await freshRequest(ctx, ep);
  if (!request) return null;
  const points = injectionPoints(ctx, ep, request, opts);
  let first = true;
  return {
    request,
    points,
    async get(name) {
      if (!isCreate(ep) || first) {
        first = false;
        return points.find((p) => p.name === name) ?? null;
      }
      const again = await freshRequest(ctx, ep);
      return again ? (injectionPoints(ctx, ep, again, opts).find((p) => p.name === name) ?? null) : null;
    },
  };
}

// ---------------------------------------------------------------- timing

/** Per-scan memo (keyed by the scan's resource pool). */
export function scanMemo<T>(store: WeakMap<object, Promise<T>>, ctx: { resources: ResourcePool }, make: () => Promise<T>): Promise<T> {
  let p = store.get(ctx.resources);
  if (!p) store.set(ctx.resources, (p = make()));
  return p;
}

export interface DelayProof {
  /** The answers at the first delay, the second delay, and no delay. */
  first: Exchange;
  second: Exchange;
  control: Exchange;
  delays: [number, number];
}

/**
 * Time-based confirmation: `send(seconds)` sends the payload asking for that delay. The answer at
 * D1 must take D1 longer than the baseline, the answer at D2 (another delay) D2 longer and longer
 * than D1's, and the payload asking for no delay must come back at baseline speed.
 */
export async function confirmDelay(send: (seconds: number) => Promise<Exchange>, baseMs: number, delays: [number, number] = [1, 2]): Promise<DelayProof | null> {
  const [d1, d2] = delays;
  const first = await send(d1);
  if (!first.response && first.error !== 'timeout') return null;
  if (first.durationMs < baseMs + d1 * 800) return null;
  const second = await send(d2);
  if (second.durationMs < baseMs + d2 * 800 || second.durationMs < first.durationMs + (d2 - d1) * 500) return null;
  const control = await send(0);
  if (!control.response || control.durationMs >= baseMs + 500 || control.durationMs >= first.durationMs - d1 * 500) return null;
  return { first, second, control, delays };
}

/** Whether an answer is slow enough to be worth confirming (cheap pre-test before confirmDelay). */
export function delayed(ex: Exchange, baseMs: number, seconds: number): boolean {
  return ex.durationMs >= baseMs + seconds * 800;
}

export function describePoint(p: InjectionPoint): string {
  return `${p.where === 'body' ? 'body field' : p.where === 'path' ? 'path parameter' : p.where === 'header' ? 'header' : p.where === 'argument' ? 'argument' : 'query parameter'} ${p.name}`;
}

export function ms(n: number): string {
  return `${Math.round(n)} ms`;
}

// ---------------------------------------------------------------- URL-like inputs

const URL_NAME = / (url|urls|uri|uris|href|link|links|callback|webhook|hook|redirect|image|img|avatar|icon|logo|feed|rss|proxy|dest|destination|target|src|source|website|site|remote|endpoint|next|return|continue|goto|location) $/;
const HOST_NAME = / (host|hostname|domain|server|address|addr|ip) $/;

function words(name: string): string {
  return ` ${name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

/** How a point takes a URL: a full URL, or a host name the server builds a URL around; null when it does not look like either. */
export function urlKind(p: InjectionPoint): 'url' | 'host' | null {
  if (p.type !== 'string' && p.type !== 'unknown') return null;
  const format = String(p.schema?.format ?? '').toLowerCase();
  const value = typeof p.value === 'string' ? p.value : '';
  if (['uri', 'url', 'iri', 'uri-reference', 'iri-reference', 'uri-template'].includes(format) || /^https?:\/\//i.test(value)) return 'url';
  if (format === 'hostname' || format === 'idn-hostname') return 'host';
  const w = words(p.key);
  if (URL_NAME.test(w)) return 'url';
  if (HOST_NAME.test(w) && !/@/.test(value)) return 'host';
  return null;
}

/** The URL-like inputs of a request, body fields and query parameters first. */
export function urlPoints(points: InjectionPoint[]): (InjectionPoint & { urlKind: 'url' | 'host' })[] {
  return points
    .map((p) => ({ ...p, urlKind: urlKind(p) }))
    .filter((p): p is InjectionPoint & { urlKind: 'url' | 'host' } => p.urlKind !== null)
    .sort((a, b) => (a.urlKind === 'url' ? 0 : 1) - (b.urlKind === 'url' ? 0 : 1) || (a.where === 'path' ? 1 : 0) - (b.where === 'path' ? 1 : 0));
}

/** A listener URL in the form a point takes it: as is, or as "host:port/path?" for host fields (the server's own path lands in the query). */
export function asPointValue(url: string, kind: 'url' | 'host'): string {
  return kind === 'url' ? url : `${url.replace(/^https?:\/\//, '')}?`;
}
