// Shared pieces of the object-level checks (API1, API3, API5 and the stateful ones): who owns an
// id, which GET reads what a write changed, markers that prove a value stuck, and the walk over
// schemas and JSON bodies. Nothing here sends a request on its own except through the context.

import type { Endpoint, JsonSchema } from '../../../../shared/contract';
import type { ResourcePool } from '../../resources';
import { Exchange, type KeyNumber, type RequestAuth } from '../../http/exchange';
import { randomHex } from '../../random';
import { pathParamNames, type PreparedRequest } from '../../requests';
import { endpointsAtTemplate, listItems } from '../../resources';
import { containedIn, isEmptyBody } from '../../similarity';
import type { CheckContext, KeyIdentity } from '../types';

export const otherKey = (k: KeyNumber): KeyNumber => (k === 1 ? 2 : 1);
export const asKey = (k: KeyNumber): RequestAuth => ({ kind: 'key', key: k });
/** "key 1": finding texts name slots so; the scan turns them into its identities' names. */
export const keyLabel = (k: KeyNumber) => `key ${k}`;

/** A response that refuses: 4xx/5xx (a transport failure is not a refusal, it proves nothing). */
export function refused(ex: Exchange | null | undefined): boolean {
  return !!ex?.response && !ex.ok;
}

/** A refusal of the credential or the right (401/403), not of the request. */
export function authRefused(ex: Exchange | null | undefined): ex is Exchange {
  return ex?.status === 401 || ex?.status === 403;
}

/** The answer carries the reference's data: 2xx, content, and ≥ 90 % of its values found in the reference. */
export function carriesDataOf(attack: Exchange, reference: Exchange): boolean {
  return attack.ok && !isEmptyBody(attack) && !isEmptyBody(reference) && containedIn(attack, reference, 0.9);
}

/** An error-looking body in a 2xx (some APIs answer `200 {"error": ...}`). */
export function looksLikeError(ex: Exchange): boolean {
  const json = ex.json();
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const keys = Object.keys(json as Record<string, unknown>).map((k) => k.toLowerCase());
    const o = json as Record<string, unknown>;
    if (keys.length <= 4 && (keys.includes('error') || keys.includes('errors'))) return true;
    if (o.success === false || o.ok === false || (typeof o.status === 'string' && /^(error|fail(ed|ure)?|forbidden|unauthori[sz]ed|denied)$/i.test(o.status))) return true;
    return false;
  }
  return /\b(access denied|forbidden|not authori[sz]ed|unauthori[sz]ed|permission denied|please log ?in|sign in to continue)\b/i.test(ex.body.slice(0, 2000));
}

// ---------------------------------------------------------------- identities

/** What the scan learnt about a slot's identity (1, 2: the users; 3: privileged; 4: lower-privileged). */
export function identityOf(ctx: Pick<CheckContext, 'identities'>, key: KeyNumber): KeyIdentity | null {
  const i = ctx.identities;
  return key === 1 ? i.key1 : key === 2 ? i.key2 : key === 3 ? i.privileged : i.lower;
}

/**
 * Values that identify a key's user (email, username, a long id), found in its /me-like answer,
 * minus any value the other key shares: what proves a body belongs to that user.
 */
export function identityMarks(ctx: CheckContext, key: KeyNumber): string[] {
  const mine = identityOf(ctx, key);
  if (!mine) return [];
  const other = new Set(([1, 2, 3, 4] as const).filter((k) => k !== key).flatMap((k) => Object.values(identityOf(ctx, k)?.values ?? {})));
  return [...new Set(Object.values(mine.values))].filter((v) => v.length >= 4 && !/^(true|false|null|user|admin|customer)$/i.test(v) && !other.has(v));
}

/** Which of the user's identifying values a body contains (as whole JSON strings or words). */
export function marksIn(marks: readonly string[], body: string): string[] {
  return marks.filter((m) => {
    const i = body.indexOf(m);
    if (i < 0) return false;
    // A short numeric id must stand alone, not inside a longer number.
    if (/^\d+$/.test(m)) return !/\d/.test(body[i - 1] ?? '') && !/\d/.test(body[i + m.length] ?? '');
    return true;
  });
}

const PRIVILEGED_ROLE = /admin|administrator|superuser|super_user|staff|root|owner|moderator|support|manager/i;
const ADMIN_PATH = /(^|\/)(admin|administrator|internal|manage|management|staff|backoffice)(\/|$)/i;

/** Does a /me-like body say its user has a privileged role (role: "admin", isAdmin: true...)? */
export function rolePrivileged(body: unknown): boolean {
  const o = resourceObject(body);
  if (!o) return false;
  for (const [k, v] of Object.entries(o)) {
    if (/^(is_?)?(admin|superuser|staff|super_?admin)$/i.test(k) && v === true) return true;
    if (/^(role|roles|user_?role|type|user_?type|account_?type|group|groups)$/i.test(k)) {
      const values = Array.isArray(v) ? v : [v];
      if (values.some((x) => typeof x === 'string' && PRIVILEGED_ROLE.test(x))) return true;
    }
  }
  return false;
}

const privilegeMemo = new WeakMap<ResourcePool, Promise<KeyNumber | null>>();

/**
 * The key with evidence of a higher privilege than the other: its /me-like answer names an admin
 * role, or it gets 2xx from an administrative GET that refuses the other key. Reading other users'
 * objects may be that key's job (an administrator), so cross-user checks do not report it reading.
 * Baselines only (no request charged); once per scan.
 */
export function privilegedKey(ctx: CheckContext): Promise<KeyNumber | null> {
  let p = privilegeMemo.get(ctx.resources);
  if (!p) {
    p = (async (): Promise<KeyNumber | null> => {
      if (!ctx.hasKey2) return null;
      const r1 = rolePrivileged(ctx.identities.key1.exchange?.json());
      const r2 = rolePrivileged(ctx.identities.key2?.exchange?.json());
      if (r1 !== r2) return r1 ? 1 : 2;
      const admin = ctx.allEndpoints.filter((e) => e.method === 'GET' && ADMIN_PATH.test(e.path) && pathParamNames(e.path).length === 0).slice(0, 2);
      for (const e of admin) {
        const [a, b] = [await ctx.baseline('key1', e), await ctx.baseline('key2', e)];
        if (a?.ok && refused(b) && (b?.status === 401 || b?.status === 403 || b?.status === 404)) return 1;
        if (b?.ok && refused(a) && (a?.status === 401 || a?.status === 403 || a?.status === 404)) return 2;
      }
      return null;
    })();
    privilegeMemo.set(ctx.resources, p);
  }
  return p;
}

const USER_REF = /^(user|account|customer|member|owner|profile|person|client|player|employee|patient|author)s?[-_]?(id|uuid|guid|key|no|number|name)?$|^(uid|username|user_name|login|email|user_email)$/i;

/** A parameter that names a user (userId, account_id, username...) rather than an object. */
export function isUserRef(name: string): boolean {
  return USER_REF.test(name);
}

/** The key's own value for a user-reference parameter, from its /me-like identity. */
export function identityValueFor(ctx: CheckContext, key: KeyNumber, name: string): string | null {
  const ident = identityOf(ctx, key);
  if (!ident) return null;
  const v = ident.values;
  const n = name.toLowerCase();
  if (/e-?mail/.test(n)) return v.email ?? null;
  if (/(name|login)$/.test(n)) return v.username ?? v.login ?? null;
  return v.id ?? v.user_id ?? v.userId ?? v.uid ?? v.account_id ?? v.accountId ?? v.sub ?? null;
}

// ---------------------------------------------------------------- ids and collections

const ID_LIKE = /(^|[_\-.])(id|ids|uuid|guid|pk|key|slug|number|num|no|code|ref)$|[a-z0-9](Id|ID|Uuid|UUID|Guid|GUID|Key|Number|Num|Slug|Code|Ref)$|^(uuid|guid|slug|handle|sku)$/;
const NOT_OBJECT = /^(api[_-]?version|version|v|format|fmt|ext|extension|lang|language|locale|region|type|kind|page|size|style|theme|sort|order|direction)$/i;

export function isIdLike(name: string): boolean {
  return ID_LIKE.test(name) && !NOT_OBJECT.test(name);
}

export interface IdParam {
  in: 'path' | 'query' | 'body';
  name: string;
}

/** The object identifiers a request carries: path parameters, id-like query parameters, id-like top-level body properties. */
export function idParams(endpoint: Endpoint): IdParam[] {
  const out: IdParam[] = [];
  for (const n of pathParamNames(endpoint.path)) {
    if (NOT_OBJECT.test(n)) continue;
    const p = endpoint.parameters.find((x) => x.in === 'path' && x.name === n);
    if (p?.schema && (Array.isArray(p.schema.enum) || 'const' in p.schema)) continue;
    out.push({ in: 'path', name: n });
  }
  for (const p of endpoint.parameters) if (p.in === 'query' && isIdLike(p.name)) out.push({ in: 'query', name: p.name });
  const props = schemaShape(endpoint.request_body?.schema ?? null).props;
  for (const [name, s] of Object.entries(props)) {
    if (isIdLike(name) && s?.readOnly !== true && !['array', 'object'].includes(String(s?.type ?? ''))) out.push({ in: 'body', name });
  }
  return out;
}

function singular(word: string): string {
  const w = word.toLowerCase();
  if (/ies$/.test(w)) return w.slice(0, -3) + 'y';
  if (/(ss|us)$/.test(w)) return w;
  if (/s$/.test(w)) return w.slice(0, -1);
  return w;
}

/** "documentId" -> "document", "order_id" -> "order". */
export function resourceOf(name: string): string | null {
  const base = name
    .replace(/([a-z0-9])(Id|ID|Ids|IDs|Uuid|UUID|Guid|Key|Number|Num|Slug|Code|Ref)$/, '$1')
    .replace(/[-_.]?(id|ids|uuid|guid|key|number|num|no|slug|code|ref)$/i, '');
  if (!base || base === name) return null;
  return singular(base.replace(/[-_]/g, ''));
}

/** A GET without path parameters listing the collection a parameter name refers to (documentId -> GET /documents). */
export function collectionListFor(ctx: CheckContext, name: string): Endpoint | null {
  const res = resourceOf(name);
  if (!res) return null;
  const lists = ctx.allEndpoints.filter((e) => e.method === 'GET' && pathParamNames(e.path).length === 0);
  const lastSeg = (e: Endpoint) => singular((e.path.split('/').filter(Boolean).pop() ?? '').replace(/[-_]/g, ''));
  // The shortest path wins (/orders before /admin/orders).
  return lists.filter((e) => lastSeg(e) === res).sort((a, b) => a.path.length - b.path.length)[0] ?? null;
}

/** Ids the key owns: those the user listed for its identity (`objects:`), then those in its own listing of the collection (read-only, cached per scan). */
export async function ownedIds(ctx: CheckContext, param: IdParam, endpoint: Endpoint, key: KeyNumber): Promise<string[] | null> {
  if (key === 2 && !ctx.hasKey2) return null;
  const declared = ctx.resources.declaredIds(key, endpoint.path, param);
  const list = param.in === 'path' ? ctx.resources.listFor(endpoint, param.name) : collectionListFor(ctx, param.name);
  if (!list) return declared.length ? declared : null;
  const listed = await ctx.resources.harvest(list, key, param.name);
  return declared.length ? [...new Set([...declared, ...listed])] : listed;
}

/** The GET that reads what a write or delete on this endpoint addresses (same path template). */
export function readerOf(ctx: CheckContext, endpoint: Endpoint): Endpoint | null {
  return endpointsAtTemplate(ctx.allEndpoints, endpoint.path).find((e) => e.method === 'GET') ?? null;
}

/** Reads a URL as `key` with the reader endpoint's credential placement. */
export function readAs(ctx: CheckContext, reader: Endpoint, url: string | URL, key: KeyNumber, charge?: Endpoint): Promise<Exchange> {
  return ctx.send({ method: 'GET', url: String(url), auth: asKey(key), placements: ctx.authSpec(reader).placements }, charge ?? ctx.endpoint);
}

/** Whether the id in the request's last path parameter is an object this key created in this scan. */
export function createdBy(ctx: CheckContext, request: PreparedRequest, key: KeyNumber): string | null {
  const names = pathParamNames(request.endpoint?.path ?? '');
  const last = names[names.length - 1];
  const pv = last ? request.pathValues[last] : undefined;
  if (!pv || pv.source !== 'created') return null;
  return ctx.resources.created.some((o) => o.id === pv.value && o.key === key) ? pv.value : null;
}

// ---------------------------------------------------------------- schemas

export interface Shape {
  props: Record<string, JsonSchema | null>;
  required: string[];
  /** The schema lists its properties (so anything else is undeclared). */
  declared: boolean;
  /** additionalProperties allows anything beyond `props`. */
  open: boolean;
}

/** Properties of an object schema, allOf merged and oneOf/anyOf options united. */
export function schemaShape(schema: JsonSchema | null | undefined, depth = 0): Shape {
  const out: Shape = { props: {}, required: [], declared: false, open: false };
  if (!schema || typeof schema !== 'object' || depth > 6) return out;
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props && typeof props === 'object') {
    out.declared = true;
    for (const [k, v] of Object.entries(props)) out.props[k] = v && typeof v === 'object' ? v : null;
  }
  if (Array.isArray(schema.required)) out.required.push(...(schema.required as string[]));
  const ap = schema.additionalProperties;
  if (ap === true || (ap && typeof ap === 'object' && Object.keys(ap).length > 0)) out.open = true;
  for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
    const parts = schema[k];
    if (!Array.isArray(parts)) continue;
    for (const p of parts as JsonSchema[]) {
      const inner = schemaShape(p, depth + 1);
      if (inner.declared) out.declared = true;
      if (inner.open) out.open = true;
      Object.assign(out.props, inner.props);
      if (k === 'allOf') out.required.push(...inner.required);
    }
  }
  if ('x-circular' in schema || 'x-unresolved-ref' in schema || 'x-ref' in schema || 'x-truncated' in schema) out.open = true;
  return out;
}

export function schemaType(s: JsonSchema | null | undefined): string | undefined {
  if (!s) return undefined;
  const t = s.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t as unknown[]).find((x): x is string => typeof x === 'string' && x !== 'null');
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

/** The schema of the declared response for a status (exact, then 2XX, then default). */
export function responseSchema(endpoint: Endpoint, status: number): JsonSchema | null {
  const r = endpoint.responses[String(status)] ?? endpoint.responses[`${String(status)[0]}XX`] ?? endpoint.responses[`${String(status)[0]}xx`] ?? endpoint.responses.default;
  return r?.schema ?? null;
}

// ---------------------------------------------------------------- bodies

export type Json = Record<string, unknown>;

export function isObj(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Visits the string and number leaves of a JSON value with their path ("users[0].email") and the key
 * they sit under (an array item keeps its array's key): 8 levels deep, 25 items per array. The walk
 * stops once `visit` returns true.
 */
export function forEachLeaf(value: unknown, visit: (v: string | number, path: string, key: string) => boolean | void): void {
  let stopped = false;
  const walk = (v: unknown, path: string, key: string, depth: number): void => {
    if (stopped || depth > 8) return;
    if (Array.isArray(v)) return v.slice(0, 25).forEach((x, i) => walk(x, `${path}[${i}]`, key, depth + 1));
    if (isObj(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, path ? `${path}.${k}` : k, k, depth + 1);
      return;
    }
    if ((typeof v === 'string' || typeof v === 'number') && visit(v, path, key) === true) stopped = true;
  };
  walk(value, '', '', 0);
}

/** The resource object in a body: the body itself, or inside a data/result/... wrapper. */
export function resourceObject(value: unknown): Json | null {
  if (!isObj(value)) return null;
  for (const w of ['data', 'result', 'item', 'object', 'resource', 'record', 'user', 'profile', 'account']) {
    const inner = value[w];
    if (isObj(inner) && Object.keys(value).length <= 4) return inner;
  }
  return value;
}

const camel = (s: string) => s.replace(/[_-]([a-z])/g, (_, c: string) => c.toUpperCase());
const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** A property by its name or its camelCase / snake_case twin. */
export function propOf(obj: Json | null, name: string): { found: boolean; value: unknown; name: string } {
  if (!obj) return { found: false, value: undefined, name };
  for (const n of [name, camel(name), snake(name)]) if (n in obj) return { found: true, value: obj[n], name: n };
  return { found: false, value: undefined, name };
}

/** Loose equality for values read back: numbers by value, dates by instant, strings exactly. */
export function sameValue(sent: unknown, read: unknown): boolean {
  if (typeof sent === 'number' && typeof read === 'number') return Math.abs(sent - read) < 1e-6;
  if (typeof sent === 'number' && typeof read === 'string' && read.trim() !== '') return Math.abs(sent - Number(read)) < 1e-6;
  if (typeof sent === 'string' && typeof read === 'string') {
    if (sent === read) return true;
    const a = Date.parse(sent);
    const b = Date.parse(read);
    return /^\d{4}-\d{2}-\d{2}/.test(sent) && !Number.isNaN(a) && a === b;
  }
  if (Array.isArray(sent) && Array.isArray(read)) return sent.every((x) => read.some((y) => sameValue(x, y)));
  return sent === read;
}

/**
 * A random marker: unique enough to prove a value came from this request. Crypto-random, not from the
 * scan's seed: markers stay on the target, and one must never match what an earlier scan left there.
 */
export function newMarker(prefix = 'pcl'): string {
  return `${prefix}${randomHex(5)}`;
}

const MARKER_FIELD = /^(name|title|label|description|desc|note|notes|comment|body|text|content|summary|subject|message|display_?name|nickname|bio|about|memo|remark|remarks)$/i;

/**
 * A plain string property of an object schema to carry a marker (a free-text one first: no enum,
 * format or pattern, not readOnly); null when there is none.
 */
export function markerField(schema: JsonSchema | null, value: Json | null): string | null {
  const { props } = schemaShape(schema);
  const free = Object.entries(props).filter(([, s]) => s && schemaType(s) === 'string' && !s.enum && !s.format && !s.pattern && s.readOnly !== true && !('const' in s));
  const names = free.map(([n]) => n);
  if (!names.length && value) {
    // No schema: a string value of the body itself.
    for (const [k, v] of Object.entries(value)) if (typeof v === 'string' && MARKER_FIELD.test(k)) return k;
    return null;
  }
  return names.find((n) => MARKER_FIELD.test(n)) ?? names.find((n) => !isIdLike(n) && !/e-?mail|url|uri|phone|password|token|secret/i.test(n)) ?? null;
}

/** A marker that fits the property's length bounds. */
export function fitMarker(marker: string, schema: JsonSchema | null | undefined): string {
  const max = typeof schema?.maxLength === 'number' ? schema.maxLength : Infinity;
  const min = typeof schema?.minLength === 'number' ? schema.minLength : 0;
  let m = marker;
  while (m.length < min) m += 'x';
  return m.length > max ? m.slice(0, Math.max(1, max)) : m;
}

/** The list items of a list response, or the single object (for searching a body for a value). */
export function itemsOf(value: unknown): unknown[] {
  const items = listItems(value);
  if (items) return items;
  return value === undefined ? [] : [value];
}

/** Describes a request's target for texts: "GET /orders/42". */
export function requestLine(ex: Exchange): string {
  const u = new URL(ex.request.url);
  return `${ex.request.method} ${u.pathname}${u.search}`;
}

/** A copy of the exchange with its response body rewritten (for evidence only). */
export function rewriteBody(ex: Exchange, fn: (body: string) => string): Exchange {
  if (!ex.response) return ex;
  const body = fn(ex.response.body);
  return body === ex.response.body ? ex : new Exchange(ex.seq, ex.request, { ...ex.response, body }, ex.error, ex.durationMs, ex.redirects, ex.blockedRedirect);
}

/** A copy of the exchange with secret values in its body replaced (raw and JSON-escaped), so reports do not spread them. */
export function maskBody(ex: Exchange, secrets: readonly { value: string; mask: string }[]): Exchange {
  if (!secrets.length) return ex;
  return rewriteBody(ex, (text) => {
    let body = text;
    for (const { value, mask } of secrets) {
      for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) if (form.length >= 4) body = body.split(form).join(JSON.stringify(mask).slice(1, -1));
    }
    return body;
  });
}
