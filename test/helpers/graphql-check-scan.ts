// Runs chosen checks over the GraphQL test target (test/targets/graphql) with the real scan runner: the
// target's schema imported by the product's importer (SDL), the operations kept by `only` (operation
// names such as "Query.loan"; the rest SKIP), alice and bob as keys 1 and 2.

import type { ApiSecurity, Endpoint } from '../../shared/contract';
import { graphqlOperationName } from '../../shared/display';
import { importApiDocument } from '../../electron/importer/index';
import type { Check } from '../../electron/scanner/checks/types';
import { runCheckScan, type CheckScanOptions, type CheckScanRun } from './check-scan';

/** What the harness needs of a GraphQL target. */
export interface GraphqlTargetLike {
  url: string;
  sdl: string;
  users: Record<'alice' | 'bob' | 'admin', { key: string }>;
}

export interface GraphqlCheckScanOptions extends Omit<CheckScanOptions, 'only' | 'apiKeys'> {
  /** Operations to scan ("Query.loan", "Mutation.login"), or a predicate; default all. */
  only?: readonly string[] | ((e: Endpoint) => boolean);
}

const BEARER: ApiSecurity = { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, default: [{ bearer: [] }] };

export function graphqlEndpointsOf(t: GraphqlTargetLike): Omit<Endpoint, 'id'>[] {
  return importApiDocument(new TextEncoder().encode(t.sdl), { filename: 'library.graphql' }).endpoints;
}

export async function scanGraphqlChecks(t: GraphqlTargetLike, checks: readonly Check[], opts: GraphqlCheckScanOptions = {}): Promise<CheckScanRun> {
  const only = opts.only;
  const keep = typeof only === 'function' ? only : only ? (e: Endpoint) => !!e.graphql && only.includes(graphqlOperationName(e.graphql)) : undefined;
  return runCheckScan({
    api: { id: 'library', name: 'Library GraphQL', baseUrl: t.url, security: BEARER },
    endpoints: graphqlEndpointsOf(t),
    checks,
    keys: [t.users.alice.key, t.users.bob.key],
    opts: { ...opts, only: keep },
  });
}
