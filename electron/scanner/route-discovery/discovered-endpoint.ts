// A route found beyond the API description, as an endpoint the checks can scan: its path relative to the
// API's base, numeric, UUID and long hexadecimal segments made path parameters (with the value seen as their
// example), the query names seen as query parameters, and the default flags an imported one would get.

import type { ApiSecurity, Endpoint, EndpointParameter, RequestBodySpec } from '../../../shared/contract';
import { defaultFlags } from '../../importer/default-flags';

const ID_SEGMENT = /^(\d{1,19}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,64})$/i;

/** "/users/42/orders/7" -> "/users/{id}/orders/{id2}", with the values seen. */
export function templateOf(pathname: string): { path: string; values: Record<string, string> } {
  const values: Record<string, string> = {};
  let n = 0;
  const segs = pathname.split('/').map((seg) => {
    let decoded = seg;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      // keep it as sent
    }
    if (!ID_SEGMENT.test(decoded)) return seg;
    n += 1;
    const name = n === 1 ? 'id' : `id${n}`;
    values[name] = decoded;
    return `{${name}}`;
  });
  return { path: segs.join('/') || '/', values };
}

/** The path of `pathname` relative to the API's base path; null when it lies outside it. */
export function relativeToBase(pathname: string, basePath: string): string | null {
  const base = basePath.replace(/\/+$/, '');
  if (!base) return pathname;
  if (pathname === base) return '/';
  return pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : null;
}

export interface DiscoveredRoute {
  method: string;
  /** The concrete path on the origin, with its query when one was seen ("/api/search?q=x"). */
  url: string;
  /** Where it was found ("robots.txt", "script /static/app.js", "a link in GET /orders"). */
  source: string;
  body?: RequestBodySpec | null;
  /** Refused without credentials: it takes the API's default security. Otherwise it answered anonymously and is public. */
  refusesAnonymous?: boolean;
}

/** The endpoint for a discovered route, or null when it lies outside the API's base path. */
export function discoveredEndpoint(route: DiscoveredRoute, basePath: string, security: ApiSecurity): Endpoint | null {
  const [pathname, query = ''] = route.url.split('?', 2) as [string, string?];
  // A folder keeps its trailing slash: servers tell /files/ (the listing) from /files.
  const relative = relativeToBase(pathname, basePath);
  if (relative === null) return null;
  const { path, values } = templateOf(relative);
  const parameters: EndpointParameter[] = Object.entries(values).map(([name, value]) => ({
    name,
    in: 'path',
    required: true,
    schema: /^\d+$/.test(value) ? { type: 'integer' } : { type: 'string' },
    example: /^\d+$/.test(value) ? Number(value) : value,
  }));
  for (const pair of query.split('&').filter(Boolean).slice(0, 20)) {
    const [rawName, rawValue = ''] = pair.split('=', 2) as [string, string?];
    let name = rawName;
    let value = rawValue;
    try {
      name = decodeURIComponent(rawName);
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      // keep them as sent
    }
    if (name && !parameters.some((p) => p.in === 'query' && p.name === name)) parameters.push({ name, in: 'query', required: false, schema: { type: 'string' }, example: value || undefined });
  }
  const method = route.method.toUpperCase();
  const extracted = {
    method,
    path,
    summary: `Discovered: ${route.source}`,
    operation_id: null,
    tags: ['discovered'],
    parameters,
    request_body: route.body ?? null,
    responses: {},
    // A route that answered without credentials is public as far as the scan knows: the authentication checks must not
    // hold it to a requirement no description ever gave it.
    security: route.refusesAnonymous ? null : [],
  };
  return { ...extracted, id: `discovered:${method} ${path}`, flags: defaultFlags(extracted, security), discovered: route.source };
}
