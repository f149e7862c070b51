// Default flags of an endpoint from its shape (DESIGN.md section 5): which OWASP API Top 10 checks
// the scanner runs on it until the user changes them. Heuristics read the method, the path, the
// operation id, summary and tags, the parameters, the body and the responses; never the network.

import type { Flag } from '../../shared/constants';
import type { ApiSecurity, JsonSchema } from '../../shared/contract';
import { graphqlDefaultFlags } from './graphql-default-flags';
import type { ExtractedEndpoint } from './result';
import { arr, isObject, obj } from './values';

const wordCache = new Map<string, string>();
const WORD_CACHE_MAX = 20_000;

/** Lower-case words of identifiers and text: "resetPassword /users/{user_id}" -> "reset password users user id". */
export function wordsOf(...parts: (string | null | undefined)[]): string {
  // Parameter, property and tag names repeat across a spec's endpoints: split each once.
  const key = parts.length === 1 ? (parts[0] ?? '') : parts.join('\u0000');
  const hit = wordCache.get(key);
  if (hit !== undefined) return hit;
  const words = splitWords(parts);
  if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
  wordCache.set(key, words);
  return words;
}

function splitWords(parts: (string | null | undefined)[]): string {
  const text = parts
    .filter(Boolean)
    .join(' ')
    .slice(0, 2_000)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return ` ${text} `;
}

const has = (words: string, pattern: RegExp): boolean => pattern.test(words);

export const AUTH_ROUTE = / (log ?in|log ?out|sign ?in|sign ?on|sign ?out|auth|authenticate|authentication|authorize|oauth2?|token|tokens|password|passwords|passwd|reset|session|sessions|otp|mfa|2fa|sso|credentials?|jwt|refresh) /;
export const ADMIN = / (admin|admins|administrator|administration|internal|superuser|sudo|staff|moderator|moderation|management|privileged|impersonate|impersonation|roles?|permissions?) /;
export const BUSINESS = / (purchases?|buy|checkout|orders?|payments?|pay|charges?|refunds?|transfers?|withdraw|withdrawals?|deposits?|votes?|likes?|comments?|reviews?|ratings?|sign ?up|register|registration|invite|invitations?|reset|coupons?|redeem|vouchers?|promo|gift|bookings?|book|reserve|reservations?|subscribe|subscriptions?|donate|donations?|cart|tickets?|follow|claim|rewards?|bids?|payouts?|invoices?|trade|otp|passcode|2fa|mfa) /;
/** A human-verification challenge (CAPTCHA) handed out before a flow. */
const CHALLENGE = / (re ?)?(captchas?|challenges?) /;
/** Reads that happen to be POSTs (an invoice lookup, a price estimate): not a business flow of their own. */
export const READ_ACTION = / (lookup|look up|search|find|get|list|query|view|read|preview|calculate|estimate|export|download) /;
const SEARCH = / (search|searches|find|query|lookup|filter) /;
const UPLOAD = / (upload|uploads|import|attachments?|files?|media) /;
export const INTEGRATION = / (webhooks?|hooks?|callbacks?|integrations?|connectors?|sync|import|imports|feeds?|fetch|proxy|external|third party|partners?|federation|federated) /;
/** Matched against the last word of a parameter or property name: callback_url, redirectUri, image, host... */
const URL_WORD = / (url|urls|uri|uris|href|link|links|callback|webhook|hook|redirect|image|img|avatar|icon|logo|host|hostname|domain|endpoint|feed|rss|proxy|dest|destination|target|src|website|remote) $/;
const PAGING = / (limit|offset|page|pages|per page|page size|size|cursor|after|before|starting after|ending before|top|skip|max results|page token|pagination token|next token|continuation token) /;
const SEARCH_PARAM = / (q|query|search|filter|keyword|keywords|term|terms) /;

/** Path parameters that select a representation or a version, not an object. */
const NOT_OBJECT_PATH_PARAM = /^(api[_-]?version|version|v|format|fmt|ext|extension|lang|language|locale|region|type|kind|page|size|style|theme)$/i;

/** An identifier of one object: id, user_id, petId, uuid, slug... */
export function isIdLikeName(name: string): boolean {
  if (/(^|[_\-.\s])(id|ids|uuid|guid|pk|key|slug|number|num|no)$/i.test(name)) return true;
  if (/[a-z0-9](Id|ID|Ids|IDs|Uuid|UUID|Guid|GUID|Key|Number|Num|Slug)$/.test(name)) return true;
  return /^(uuid|guid|slug|handle|username|login|sid|oid|sku)$/i.test(name);
}

function schemaType(schema: JsonSchema | null): string | undefined {
  if (!schema) return undefined;
  const t = schema.type;
  if (typeof t === 'string') return t;
  const list = arr(t);
  return list?.find((x): x is string => typeof x === 'string' && x !== 'null');
}

const URL_FORMATS = new Set(['uri', 'url', 'iri', 'uri-reference', 'iri-reference', 'uri-template', 'hostname', 'idn-hostname']);

export function isUrlish(schema: JsonSchema | null, example: unknown): boolean {
  const format = typeof schema?.format === 'string' ? schema.format.toLowerCase() : '';
  if (URL_FORMATS.has(format)) return true;
  const sample = example ?? schema?.example ?? schema?.default;
  return typeof sample === 'string' && /^https?:\/\//i.test(sample);
}

/** Whether a schema describes an object (or objects), looking through allOf/oneOf/anyOf and arrays. */
function describesObjects(schema: unknown, depth = 0): boolean {
  if (!isObject(schema) || depth > 4) return false;
  const t = schemaType(schema as JsonSchema);
  if (t === 'object' || isObject(schema.properties) || isObject(schema.additionalProperties)) return true;
  if (t === 'array' || schema.items !== undefined) return describesObjects(schema.items, depth + 1);
  for (const k of ['allOf', 'oneOf', 'anyOf']) for (const s of arr(schema[k]) ?? []) if (describesObjects(s, depth + 1)) return true;
  return false;
}

function describesArray(schema: unknown, depth = 0): boolean {
  if (!isObject(schema) || depth > 4) return false;
  if (schemaType(schema as JsonSchema) === 'array' || schema.items !== undefined) return true;
  // A page object: { data: [...] } / { items: [...] } / { results: [...] }.
  const props = obj(schema.properties);
  if (props) {
    for (const key of ['data', 'items', 'results', 'records', 'entries', 'values', 'value', 'list', 'nodes', 'edges', 'content']) {
      const p = props[key];
      if (isObject(p) && (schemaType(p as JsonSchema) === 'array' || p.items !== undefined)) return true;
    }
  }
  for (const k of ['allOf', 'oneOf', 'anyOf']) for (const s of arr(schema[k]) ?? []) if (describesArray(s, depth + 1)) return true;
  return false;
}

/** Property names of a body schema, two levels deep, with the schema of each. */
function bodyProperties(schema: unknown, out: [string, JsonSchema | null][] = [], depth = 0): [string, JsonSchema | null][] {
  if (!isObject(schema) || depth > 2 || out.length > 300) return out;
  const props = obj(schema.properties);
  if (props) {
    for (const name of Object.keys(props)) {
      const p = obj(props[name]) ?? null;
      out.push([name, p as JsonSchema | null]);
      if (p) bodyProperties(p, out, depth + 1);
    }
  }
  if (schema.items !== undefined) bodyProperties(schema.items, out, depth + 1);
  for (const k of ['allOf', 'oneOf', 'anyOf']) for (const s of arr(schema[k]) ?? []) bodyProperties(s, out, depth + 1);
  return out;
}

/** Top-level property names of a body schema (allOf parts merged), with the schema of each. */
function topLevelProperties(schema: unknown, depth = 0): [string, JsonSchema | null][] {
  if (!isObject(schema) || depth > 3) return [];
  const out: [string, JsonSchema | null][] = [];
  const props = obj(schema.properties);
  if (props) for (const name of Object.keys(props)) out.push([name, (obj(props[name]) ?? null) as JsonSchema | null]);
  for (const s of arr(schema.allOf) ?? []) out.push(...topLevelProperties(s, depth + 1));
  return out;
}

/** What a body schema says for the flags: a declared size bound, a URL-like field. Many endpoints share one body schema (a resolved $ref): walked once. */
interface BodyTraits {
  bounded: boolean;
  urlField: boolean;
}
const bodyTraitsCache = new WeakMap<object, BodyTraits>();

function bodyTraits(schema: JsonSchema | null | undefined): BodyTraits {
  if (!isObject(schema)) return { bounded: false, urlField: false };
  let traits = bodyTraitsCache.get(schema);
  if (!traits) {
    const props = bodyProperties(schema);
    traits = {
      bounded: props.some(([, s]) => hasBound(s)),
      urlField: props.some(([name, s]) => nameIs(name, 'url') || isUrlish(s, undefined)),
    };
    bodyTraitsCache.set(schema, traits);
  }
  return traits;
}

const NAME_WORDS = { url: URL_WORD, paging: PAGING, search: SEARCH_PARAM } as const;
const nameCaches = { url: new Map<string, boolean>(), paging: new Map<string, boolean>(), search: new Map<string, boolean>() };

/** Whether a parameter or property name is URL-like, a paging or a search parameter (names repeat: decided once each). */
export function nameIs(name: string, kind: keyof typeof NAME_WORDS): boolean {
  const cache = nameCaches[kind];
  let yes = cache.get(name);
  if (yes === undefined) {
    yes = has(wordsOf(name), NAME_WORDS[kind]);
    if (cache.size >= WORD_CACHE_MAX) cache.clear();
    cache.set(name, yes);
  }
  return yes;
}

function hasBound(schema: JsonSchema | null): boolean {
  return !!schema && (typeof schema.maxLength === 'number' || typeof schema.maxItems === 'number' || typeof schema.maximum === 'number' || typeof schema.exclusiveMaximum === 'number');
}

export function requiresAuth(security: ApiSecurity['default'] | null, api: ApiSecurity): boolean {
  const effective = security ?? api.default;
  return effective.length > 0 && effective.every((req) => Object.keys(req).length > 0);
}

export function defaultFlags(e: ExtractedEndpoint, api: ApiSecurity): Flag[] {
  // A GraphQL operation's method and path are the same for all of them: its root field and arguments say what it does.
  if (e.graphql) return graphqlDefaultFlags(e, e.graphql, api);
  const method = e.method.toUpperCase();
  // A summary read from a long description is noisy; with an operation id, the id says enough.
  const route = wordsOf(e.path.replace(/\{[^}]*\}/g, ' '), e.operation_id, e.operation_id ? '' : e.summary);
  const routeAndTags = `${route}${wordsOf(...e.tags)}`;
  // What the call does is at the end of its path: /subscriptions/{id}/.../sites is not a subscription flow.
  const literals = e.path.split('/').filter((seg) => seg && !seg.includes('{'));
  const action = wordsOf(literals.slice(-2).join(' '), e.operation_id, e.operation_id ? '' : e.summary);
  const flags = new Set<Flag>(['SEC_MISC', 'IIM']);
  const writes = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const reads = method === 'GET' || method === 'HEAD';
  const successCodes = Object.keys(e.responses).filter((code) => code.startsWith('2'));
  const success = successCodes.map((code) => e.responses[code]!);

  // In a REST path almost every parameter selects an object (/repos/{owner}/{repo}, /charges/{charge}).
  if (e.parameters.some((p) => (p.in === 'path' && !NOT_OBJECT_PATH_PARAM.test(p.name)) || (p.in === 'query' && isIdLikeName(p.name))))
    flags.add('BOLA');
  // An object id in the body of a call that is not a create (POST /invoices/lookup {"orderId": 42}) selects an object as well.
  if (!successCodes.includes('201') && topLevelProperties(e.request_body?.schema).some(([name, schema]) => isIdLikeName(name) && schema?.readOnly !== true)) flags.add('BOLA');

  if (requiresAuth(e.security, api) || has(route, AUTH_ROUTE)) flags.add('BKEN_AUTH');

  if (writes || e.request_body !== null || success.some((r) => describesObjects(r.schema))) flags.add('BOPLA');

  const contentType = e.request_body?.content_type.toLowerCase() ?? '';
  const uploads =
    contentType.startsWith('multipart/') ||
    contentType === 'application/octet-stream' ||
    e.parameters.some((p) => p.schema?.format === 'binary' || p.schema?.type === 'file') ||
    (writes && has(route, UPLOAD));
  const lists = reads && success.some((r) => describesArray(r.schema));
  const pages = e.parameters.some((p) => p.in === 'query' && nameIs(p.name, 'paging'));
  const searches = has(route, SEARCH) || e.parameters.some((p) => p.in === 'query' && nameIs(p.name, 'search'));
  const body = bodyTraits(e.request_body?.schema);
  // Declared size bounds (maxLength, maxItems, maximum) are limits the scan can test for enforcement.
  const bounded = e.parameters.some((p) => p.in !== 'header' && hasBound(p.schema)) || body.bounded;
  if (lists || pages || uploads || searches || bounded) flags.add('URC');

  if (method === 'DELETE' || method === 'PUT' || method === 'PATCH' || has(routeAndTags, ADMIN)) flags.add('BFLA');

  if (writes && has(action, BUSINESS) && !has(action, READ_ACTION)) flags.add('UABF');
  // Handing out a human-verification challenge guards a business flow: the read is where its answer may leak.
  if (reads && has(action, CHALLENGE)) flags.add('UABF');

  const urlParam = e.parameters.some((p) => p.in !== 'header' && (nameIs(p.name, 'url') || isUrlish(p.schema, p.example))) || body.urlField;
  if (urlParam) flags.add('SSRF');

  if (urlParam || has(routeAndTags, INTEGRATION)) flags.add('UCAPI');

  return [...flags];
}
