// Pieces shared by the OpenAPI 3.x and Swagger 2.0 readers: security requirements and schemes,
// media-type choice, path templates and parameter merging.

import type { EndpointParameter, OAuth2Grant, SecurityRequirement, SecurityScheme } from '../../shared/contract';
import { IMPORT_LIMITS } from './limits';
import { SET_BASE_URL, type Warnings } from './warnings';
import { arr, clampText, isObject, obj, own, str, type Obj } from './values';

/** A security requirement list, or null when the value is absent or not a list. */
export function normalizeSecurity(value: unknown, where: string, warnings: Warnings): SecurityRequirement[] | null {
  if (value === undefined) return null;
  const list = arr(value);
  if (!list) {
    warnings.add(where, '`security` is not a list; it was ignored.');
    return null;
  }
  const out: SecurityRequirement[] = [];
  for (const item of list.slice(0, 50)) {
    if (!isObject(item)) continue;
    const req: SecurityRequirement = {};
    for (const name of Object.keys(item).slice(0, 20)) {
      if (name === '__proto__') continue;
      const scopes = arr(item[name]) ?? [];
      req[clampText(name, 100)] = scopes.filter((s): s is string => typeof s === 'string').slice(0, 50).map((s) => clampText(s, 200));
    }
    out.push(req);
  }
  return out;
}

const API_KEY_PLACES = new Set(['header', 'query', 'cookie']);

/** OpenAPI 3 flow names, in the order the grants are listed. */
const OPENAPI_FLOWS: [string, OAuth2Grant][] = [
  ['clientCredentials', 'client_credentials'],
  ['password', 'password'],
  ['authorizationCode', 'authorization_code'],
  ['implicit', 'implicit'],
];
/** Swagger 2 `flow` values. */
const SWAGGER_FLOWS = new Map<string, OAuth2Grant>([
  ['application', 'client_credentials'],
  ['password', 'password'],
  ['accessCode', 'authorization_code'],
  ['implicit', 'implicit'],
]);

/**
 * A URL a security scheme names (a token endpoint, an OpenID Connect discovery document), kept as
 * written: an absolute http(s) URL or a relative reference, bounded; otherwise the reason it is not.
 */
export function checkSchemeUrl(value: unknown): { url: string } | { reason: string } {
  if (typeof value !== 'string') return { reason: 'it is not a string' };
  const url = value.trim();
  if (!url) return { reason: 'it is empty' };
  if (url.length > IMPORT_LIMITS.maxSchemeUrlLength) return { reason: `it is longer than ${IMPORT_LIMITS.maxSchemeUrlLength} characters` };
  if (/[{}]/.test(url)) return { reason: 'it holds a {variable} the importer cannot fill' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\<>"`]/.test(url)) return { reason: 'it is not an http(s) URL or a relative reference' };
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { reason: 'it is not a valid URL' };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { reason: 'it is not an http(s) URL or a relative reference' };
    if (parsed.username || parsed.password) return { reason: 'it holds a user name or password' };
    return { url };
  }
  try {
    const parsed = new URL(url, 'http://relative.invalid/');
    if (parsed.username || parsed.password) return { reason: 'it holds a user name or password' };
  } catch {
    return { reason: 'it is not a valid URL' };
  }
  return { url };
}

/** Told what was dropped from a scheme: the pointer below the scheme ("/flows/password/tokenUrl") and why. */
type SchemeNote = (subpath: string, message: string) => void;

function oauth2Scheme(raw: Obj, note: SchemeNote): SecurityScheme {
  const grants: OAuth2Grant[] = [];
  // The token endpoint the scanner can use itself: client credentials first, then password.
  const tokenUrls: [string, unknown][] = [];
  const flows = obj(raw.flows);
  if (flows) {
    for (const [key, grant] of OPENAPI_FLOWS) if (isObject(own(flows, key))) grants.push(grant);
    for (const key of ['clientCredentials', 'password']) {
      const v = own(own(flows, key), 'tokenUrl');
      if (v !== undefined) tokenUrls.push([`/flows/${key}/tokenUrl`, v]);
    }
  } else {
    const flow = str(raw.flow);
    const grant = flow === undefined ? undefined : SWAGGER_FLOWS.get(flow);
    if (grant) grants.push(grant);
    if ((grant === 'client_credentials' || grant === 'password') && raw.tokenUrl !== undefined) tokenUrls.push(['/tokenUrl', raw.tokenUrl]);
  }
  const scheme: SecurityScheme = { type: 'oauth2' };
  for (const [at, v] of tokenUrls) {
    const checked = checkSchemeUrl(v);
    if ('url' in checked) {
      scheme.tokenUrl = checked.url;
      break;
    }
    note(at, `its token URL was dropped because ${checked.reason}`);
  }
  if (grants.length) scheme.grants = grants;
  return scheme;
}

/** An OpenAPI 3 or Swagger 2 security scheme object -> the scanner's SecurityScheme, or a reason it cannot be used. */
export function toSecurityScheme(raw: unknown, note: SchemeNote = () => {}): SecurityScheme | string {
  if (!isObject(raw)) return 'it is not an object';
  const type = str(raw.type)?.trim();
  switch (type) {
    case 'http': {
      const scheme = str(raw.scheme)?.trim().toLowerCase();
      if (!scheme) return 'an http scheme needs `scheme` (bearer, basic...)';
      const bearerFormat = str(raw.bearerFormat);
      return bearerFormat ? { type: 'http', scheme: clampText(scheme, 50), bearerFormat: clampText(bearerFormat, 100) } : { type: 'http', scheme: clampText(scheme, 50) };
    }
    case 'basic':
      return { type: 'http', scheme: 'basic' };
    case 'apiKey': {
      const place = str(raw.in);
      const name = str(raw.name)?.trim();
      if (!place || !API_KEY_PLACES.has(place)) return 'an apiKey scheme needs `in` (header, query or cookie)';
      if (!name) return 'an apiKey scheme needs `name`';
      return { type: 'apiKey', in: place as 'header' | 'query' | 'cookie', name: clampText(name, 200) };
    }
    case 'oauth2':
      return oauth2Scheme(raw, note);
    case 'openIdConnect': {
      if (raw.openIdConnectUrl === undefined) return { type };
      const checked = checkSchemeUrl(raw.openIdConnectUrl);
      if ('url' in checked) return { type, openIdConnectUrl: checked.url };
      note('/openIdConnectUrl', `its OpenID Connect URL was dropped because ${checked.reason}`);
      return { type };
    }
    default:
      return `type ${JSON.stringify(String(type ?? '')).slice(0, 40)} cannot be used by the scanner`;
  }
}

export function readSecuritySchemes(
  raw: unknown,
  where: string,
  warnings: Warnings,
  deref: (node: unknown, at: string) => unknown,
): Record<string, SecurityScheme> {
  const out: Record<string, SecurityScheme> = {};
  const map = obj(raw);
  if (!map) return out;
  for (const name of Object.keys(map).slice(0, 100)) {
    if (name === '__proto__') continue;
    const at = `${where}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const label = clampText(name, 100);
    const scheme = toSecurityScheme(deref(map[name], at), (subpath, message) => warnings.add(`${at}${subpath}`, `Security scheme "${label}": ${message}.`));
    if (typeof scheme === 'string') warnings.add(at, `Security scheme "${label}" was skipped: ${scheme}.`);
    else out[label] = scheme;
  }
  return out;
}

/** The media type to keep: JSON when offered, else the first. */
export function pickMediaType(types: string[]): string | null {
  if (!types.length) return null;
  return (
    types.find((t) => /^application\/json\s*(;|$)/i.test(t)) ??
    types.find((t) => /[/+]json\s*(;|$)/i.test(t)) ??
    types[0]!
  );
}

/** `{name}` placeholders of a path template. */
export function pathTemplateNames(path: string): string[] {
  const out: string[] = [];
  for (const m of path.matchAll(/\{([^{}/]+)\}/g)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/**
 * Parameters of an operation: the path item's, overridden by the operation's with the same name
 * and place; path placeholders nobody declared are added as required strings.
 */
export function completeParameters(list: EndpointParameter[], path: string, where: string, warnings: Warnings): EndpointParameter[] {
  const byKey = new Map<string, EndpointParameter>();
  for (const p of list) byKey.set(`${p.in}:${p.name}`, p);
  for (const name of pathTemplateNames(path)) {
    if (!byKey.has(`path:${name}`)) {
      warnings.add(where, `Path parameter {${clampText(name, 100)}} is not declared; it was added as a string.`);
      byKey.set(`path:${name}`, { name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  return [...byKey.values()].slice(0, IMPORT_LIMITS.maxParameters);
}

/** Tags: strings only, bounded. */
export function readTags(value: unknown): string[] {
  const list = arr(value) ?? [];
  const out: string[] = [];
  for (const t of list) {
    if (typeof t !== 'string') continue;
    const tag = clampText(t, IMPORT_LIMITS.maxTagLength);
    if (tag && !out.includes(tag)) out.push(tag);
    if (out.length >= IMPORT_LIMITS.maxTags) break;
  }
  return out;
}

/** Header parameters OpenAPI says to ignore: they are set by the content and the security scheme. */
export const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Replaces {var} in a server URL with each variable's default (or first enum value). */
export function fillServerVariables(url: string, variables: unknown, where: string, warnings: Warnings): string {
  return url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const v = own(variables, name) as Obj | undefined;
    const value = str(own(v, 'default')) ?? str((arr(own(v, 'enum')) ?? [])[0]);
    if (value === undefined) {
      warnings.add(where, `Server variable {${clampText(name, 100)}} has no default value; it was left in the base URL.`);
      return whole;
    }
    return value;
  });
}

/** A base URL as stored: trailing slashes dropped; the warning says when it cannot be scanned as is. */
export function finishBaseUrl(url: string, where: string, warnings: Warnings): string {
  const trimmed = clampText(url, IMPORT_LIMITS.maxBaseUrlLength).replace(/\/+$/, '');
  if (!trimmed) {
    warnings.add(where, `The file gives no server URL; ${SET_BASE_URL}`);
    return '';
  }
  if (!/^https?:\/\/[^/]/i.test(trimmed))
    warnings.add(where, `The base URL "${clampText(trimmed, 200)}" is not an absolute http(s) URL; ${SET_BASE_URL}`);
  return trimmed;
}

export const pathPointer = (path: string, ...rest: string[]): string =>
  ['/paths', path, ...rest].map((t, i) => (i === 0 ? t : t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * The path items of a document's `paths` (Swagger 2.0 and OpenAPI 3.x alike): extension keys
 * skipped, a local $ref followed, anything not an object warned about and skipped. `path` always
 * starts with a slash.
 */
export function* pathItems(
  doc: Obj,
  deref: (node: unknown, where: string) => { ok: boolean; value?: unknown },
  warnings: Warnings,
): Generator<{ rawPath: string; path: string; item: Obj }> {
  const paths = doc.paths === undefined ? {} : obj(doc.paths);
  if (!paths) warnings.add('/paths', '`paths` is not an object; no endpoint could be read from it.');
  for (const rawPath of Object.keys(paths ?? {})) {
    if (rawPath.startsWith('x-')) continue;
    const itemWhere = pathPointer(rawPath);
    const d = deref(paths![rawPath], itemWhere);
    if (!d.ok) continue;
    const item = d.value;
    if (!isObject(item)) {
      warnings.add(itemWhere, `Path "${clampText(rawPath, 200)}" was skipped: its value is not an object.`);
      continue;
    }
    yield { rawPath, path: rawPath.startsWith('/') ? rawPath : `/${rawPath}`, item };
  }
}
