// Endpoints typed by hand (POST /api/apis/manual) -> the same result an import gives, with path
// parameters from the path template and default flags from the endpoint's shape.

import type { EndpointParameter } from '../../shared/contract';
import { defaultFlags } from './default-flags';
import { wholeGraphqlEndpoint } from './graphql-endpoint';
import { pathTemplateNames } from './openapi-common';
import type { ImportResult } from './result';

/** GRAPHQL: a GraphQL endpoint (POST), its operations learnt by introspection when it is scanned. */
export const MANUAL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'GRAPHQL'] as const;

export interface ManualInput {
  name: string;
  base_url: string;
  endpoints: { method: string; path: string; summary: string }[];
}

/** "/users/:id" -> "/users/{id}"; repeated and trailing slashes dropped. */
export function normalizeManualPath(path: string): string {
  const p = path
    .split('/')
    .map((seg) => seg.replace(/^:([A-Za-z_][\w.-]*)$/, '{$1}'))
    .join('/')
    .replace(/\/{2,}/g, '/');
  return p.length > 1 ? p.replace(/\/$/, '') : p;
}

export function buildManualApi(input: ManualInput): ImportResult {
  const security = { schemes: {}, default: [] };
  const endpoints = input.endpoints.map((e) => {
    const path = normalizeManualPath(e.path);
    if (e.method.toUpperCase() === 'GRAPHQL') {
      const graphql = wholeGraphqlEndpoint(path, e.summary);
      return { ...graphql, flags: defaultFlags(graphql, security) };
    }
    const parameters: EndpointParameter[] = pathTemplateNames(path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    const extracted = {
      method: e.method.toUpperCase(),
      path,
      summary: e.summary,
      operation_id: null,
      tags: [],
      parameters,
      request_body: null,
      responses: {},
      security: null,
    };
    return { ...extracted, flags: defaultFlags(extracted, security) };
  });
  return {
    name: input.name,
    base_url: input.base_url.replace(/\/+$/, ''),
    format: 'manual',
    spec_version: null,
    security,
    endpoints,
    warnings: [],
  };
}
