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

const cache = new WeakMap<object, WeakMap<ApiSecurity, AuthSpec>>();

/** Cached per endpoint object and security value (both are fixed for a scan). */
export function authSpecFor(endpoint: Pick<Endpoint, 'security'> | null, security: ApiSecurity): AuthSpec {
  if (!endpoint) return computeAuthSpec(null, security);
  let byApi = cache.get(endpoint);
  if (!byApi) cache.set(endpoint, (byApi = new WeakMap()));
  let spec = byApi.get(security);
  if (!spec) byApi.set(security, (spec = computeAuthSpec(endpoint, security)));
  return spec;
}

function computeAuthSpec(endpoint: Pick<Endpoint, 'security'> | null, security: ApiSecurity): AuthSpec {
  const requirements = endpoint?.security ?? security.default;
  const declaredSecured = requirements.length > 0 && requirements.every((r) => Object.keys(r).length > 0);
  // The endpoint's own requirement first, then the API's default, then any scheme the API defines.
  const candidates = [...requirements, ...security.default, ...Object.keys(security.schemes).map((n) => ({ [n]: [] }))];
  const chosen = candidates.find((r) => usable(r, security.schemes));
  if (!chosen) return { placements: [DEFAULT_PLACEMENT], declaredSecured, schemes: [] };
  const names = Object.keys(chosen);
  const seen = new Set<string>();
  const placements: CredentialPlacement[] = [];
  for (const n of names) {
    const p = placementOf(security.schemes[n]!);
    const k = `${p.in}:${p.name.toLowerCase()}`;
    if (!seen.has(k)) {
      seen.add(k);
      placements.push(p);
    }
  }
  return { placements, declaredSecured, schemes: names };
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
