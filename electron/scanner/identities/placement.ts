// Where and how a credential goes on a request: from the identity's own `place` when the user gave
// one, else from the API's security schemes (bearer, Basic, apiKey in a header, query parameter or
// cookie, with a template such as "Token {token}" when the importer inferred one; OAuth2 and OpenID
// Connect tokens as bearer), and bearer when the API declares nothing.

import type { ApiSecurity, Endpoint, SecurityRequirement, SecurityScheme } from '../../../shared/contract';
import { identityUrls, type IdentityConfig, type PlacementConfig } from '../../../shared/identities';

export interface CredentialPlacement {
  in: 'header' | 'query' | 'cookie';
  name: string;
  format: 'bearer' | 'basic' | 'raw';
  /** How the value is written, with {token} where the credential goes ("Token {token}"); raw format only. */
  template?: string;
}

export interface AuthSpec {
  placements: CredentialPlacement[];
  /** The spec says this endpoint needs credentials (a requirement list without an anonymous option). */
  declaredSecured: boolean;
  /** Names of the schemes used, for evidence and notes. */
  schemes: string[];
}

export const DEFAULT_PLACEMENT: CredentialPlacement = { in: 'header', name: 'Authorization', format: 'bearer' };

function placementOf(scheme: SecurityScheme): CredentialPlacement {
  if (scheme.type === 'apiKey') return scheme.template && scheme.template !== '{token}' ? { in: scheme.in, name: scheme.name, format: 'raw', template: scheme.template } : { in: scheme.in, name: scheme.name, format: 'raw' };
  if (scheme.type === 'http' && scheme.scheme.toLowerCase() === 'basic') return { in: 'header', name: 'Authorization', format: 'basic' };
  return DEFAULT_PLACEMENT;
}

function usable(req: SecurityRequirement, schemes: Record<string, SecurityScheme>): boolean {
  const names = Object.keys(req);
  return names.length > 0 && names.every((n) => schemes[n] !== undefined);
}

/**
 * The API's security as a scan uses it: `prefer` names the scheme the health check found key 1
 * works with, for endpoints that accept several (e.g. a bearer token or an X-API-Key).
 */
export type ScanSecurity = ApiSecurity & { prefer?: string };

const cache = new WeakMap<ApiSecurity, WeakMap<object, Map<string, AuthSpec>>>();

/** Cached per security value, endpoint object and preference (fixed for a scan once chosen). */
export function authSpecFor(endpoint: Pick<Endpoint, 'security'> | null, security: ScanSecurity): AuthSpec {
  if (!endpoint) return computeAuthSpec(null, security);
  let byEndpoint = cache.get(security);
  if (!byEndpoint) cache.set(security, (byEndpoint = new WeakMap()));
  let byPrefer = byEndpoint.get(endpoint);
  if (!byPrefer) byEndpoint.set(endpoint, (byPrefer = new Map()));
  const key = security.prefer ?? '';
  let spec = byPrefer.get(key);
  if (!spec) byPrefer.set(key, (spec = computeAuthSpec(endpoint, security)));
  return spec;
}

function placementsOf(req: SecurityRequirement, schemes: Record<string, SecurityScheme>): CredentialPlacement[] {
  const seen = new Set<string>();
  const placements: CredentialPlacement[] = [];
  for (const n of Object.keys(req)) {
    const p = placementOf(schemes[n]!);
    const k = `${p.in}:${p.name.toLowerCase()}`;
    if (!seen.has(k)) {
      seen.add(k);
      placements.push(p);
    }
  }
  return placements;
}

function computeAuthSpec(endpoint: Pick<Endpoint, 'security'> | null, security: ScanSecurity): AuthSpec {
  const requirements = endpoint?.security ?? security.default;
  const declaredSecured = requirements.length > 0 && requirements.every((r) => Object.keys(r).length > 0);
  const prefers = (r: SecurityRequirement) => !!security.prefer && security.prefer in r;
  // The endpoint's own requirements first (the preferred one among them), then the API's default,
  // then any scheme the API defines.
  const own = requirements.filter((r) => usable(r, security.schemes));
  const fallback = [...security.default, ...Object.keys(security.schemes).map((n) => ({ [n]: [] }))].filter((r) => usable(r, security.schemes));
  const chosen = own.find(prefers) ?? own[0] ?? fallback.find(prefers) ?? fallback[0];
  if (!chosen) return { placements: [DEFAULT_PLACEMENT], declaredSecured, schemes: [] };
  return { placements: placementsOf(chosen, security.schemes), declaredSecured, schemes: Object.keys(chosen) };
}

/** The different ways an endpoint accepts credentials (its OR list), each with the scheme it is named by. */
export function credentialAlternatives(endpoint: Pick<Endpoint, 'security'>, security: ApiSecurity): { scheme: string; placements: CredentialPlacement[] }[] {
  const requirements = (endpoint.security ?? security.default).filter((r) => usable(r, security.schemes));
  const out: { scheme: string; placements: CredentialPlacement[] }[] = [];
  const seen = new Set<string>();
  for (const r of requirements) {
    const placements = placementsOf(r, security.schemes);
    const k = JSON.stringify(placements);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ scheme: Object.keys(r)[0]!, placements });
  }
  return out;
}

/** A header template that is HTTP Basic with the credential as its whole value ("Basic {token}"). */
const BASIC_TEMPLATE = /^\s*basic\s+\{token\}\s*$/i;

/**
 * "Basic base64(user:pass)": a `user:pass` value is encoded (with or without a "Basic " of its own);
 * a value without a colon is taken as already encoded (base64 has no colon).
 */
function basicValue(value: string): string {
  const bare = value.replace(/^basic\s+/i, '');
  return `Basic ${bare.includes(':') ? Buffer.from(bare, 'utf8').toString('base64') : bare}`;
}

/**
 * The wire value of a credential in a placement: "Bearer x", "Basic base64(user:pass)" (also for a
 * header template "Basic {token}"), the template filled in, or x.
 */
export function formatCredential(value: string, placement: Pick<CredentialPlacement, 'format' | 'template'>, vars: Readonly<Record<string, string>> = {}): string {
  const { format, template } = placement;
  if (format === 'bearer') return /^bearer\s+/i.test(value) ? value : `Bearer ${value}`;
  if (format === 'basic' || (template && BASIC_TEMPLATE.test(template))) return basicValue(value);
  // Other `{name}` of a template are values a login recipe extracted.
  if (template) return template.split('{token}').join(value).replace(/\{([A-Za-z_]\w*)\}/g, (whole, n: string) => vars[n] ?? whole);
  return value;
}

/** Adds a cookie to a request's Cookie header. */
export function addCookie(headers: Record<string, string>, name: string, value: string): void {
  headers.cookie = headers.cookie ? `${headers.cookie}; ${name}=${value}` : `${name}=${value}`;
}

export function describePlacement(p: CredentialPlacement): string {
  if (p.in === 'header') {
    if (p.format !== 'raw') return `${p.format === 'basic' ? 'Basic' : 'Bearer'} token in ${p.name}`;
    return p.template ? `header ${p.name}: ${p.template}` : `header ${p.name}`;
  }
  return `${p.in === 'query' ? 'query parameter' : 'cookie'} ${p.name}`;
}

/** An identity's `place` as the engine's placement. */
export function placementFromConfig(p: PlacementConfig): CredentialPlacement {
  if (p.bearer) return DEFAULT_PLACEMENT;
  if (p.basic) return { in: 'header', name: 'Authorization', format: 'basic' };
  if (p.query) return { in: 'query', name: p.query, format: 'raw' };
  if (p.cookie) return { in: 'cookie', name: p.cookie, format: 'raw' };
  const name = p.header!;
  const template = p.value ?? (name.toLowerCase() === 'authorization' ? 'Bearer {token}' : '{token}');
  if (name.toLowerCase() === 'authorization' && template === 'Bearer {token}') return DEFAULT_PLACEMENT;
  if (name.toLowerCase() === 'authorization' && BASIC_TEMPLATE.test(template)) return { in: 'header', name: 'Authorization', format: 'basic' };
  return template === '{token}' ? { in: 'header', name, format: 'raw' } : { in: 'header', name, format: 'raw', template };
}

/** The placement a scan uses for an API by default, and where it came from: what Configure Scan shows. */
export function inferredPlacement(security: ApiSecurity): { placements: CredentialPlacement[]; scheme: string | null; description: string } {
  const spec = authSpecFor(null, security);
  const description = spec.placements.map(describePlacement).join(' + ');
  return { placements: spec.placements, scheme: spec.schemes[0] ?? null, description: spec.schemes.length ? `${description} (security scheme "${spec.schemes.join('", "')}")` : `${description} (the API declares no security scheme)` };
}

/** The token URL of the API's OAuth2 security scheme, when the spec declares one. */
export function specTokenUrl(security: ApiSecurity): string | null {
  for (const s of Object.values(security.schemes)) if (s.type === 'oauth2' && s.tokenUrl) return s.tokenUrl;
  return null;
}

/** Origins other than the API's that identities log in at (an OAuth2 token endpoint on its own host): the engine lets login requests reach them. */
export function loginOrigins(baseUrl: string, identities: readonly IdentityConfig[], security: ApiSecurity): string[] {
  const base = new URL(baseUrl).origin;
  const token = specTokenUrl(security);
  const out = new Set<string>();
  for (const u of [...identities.flatMap(identityUrls), ...(token && /^https?:\/\//i.test(token) ? [token] : [])]) {
    try {
      const origin = new URL(u).origin;
      if (origin !== base) out.add(origin);
    } catch {
      /* validated before: nothing to allow */
    }
  }
  return [...out];
}
