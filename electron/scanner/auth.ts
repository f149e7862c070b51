// Where and how a credential goes on a request, from the API's security schemes: bearer, Basic,
// apiKey in a header, query parameter or cookie; OAuth2 and OpenID Connect tokens as bearer; and
// bearer when the API declares nothing.

import type { ApiSecurity, Endpoint, SecurityRequirement, SecurityScheme } from '../../shared/contract';

export interface CredentialPlacement {
  in: 'header' | 'query' | 'cookie';
  name: string;
  format: 'bearer' | 'basic' | 'raw';
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
  if (scheme.type === 'apiKey') return { in: scheme.in, name: scheme.name, format: 'raw' };
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

/** The wire value of a credential in a placement ("Bearer x", "Basic base64(user:pass)", or x). */
export function formatCredential(value: string, format: CredentialPlacement['format']): string {
  if (format === 'bearer') return /^bearer\s+/i.test(value) ? value : `Bearer ${value}`;
  if (format === 'basic') {
    if (/^basic\s+/i.test(value)) return value;
    return `Basic ${value.includes(':') ? Buffer.from(value, 'utf8').toString('base64') : value}`;
  }
  return value;
}

export function describePlacement(p: CredentialPlacement): string {
  if (p.in === 'header') return p.format === 'raw' ? `header ${p.name}` : `${p.format === 'basic' ? 'Basic' : 'Bearer'} token in ${p.name}`;
  return `${p.in} ${p.name}`;
}
