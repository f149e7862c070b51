// The GraphQL part of a finding (issue 20): which operation it is about, and the query and variables of
// the request that proves it, read back from that request (a JSON POST, an array batch, or a GET with
// ?query=), keys redacted, so the scan page and the reports show them apart from the raw exchange.

import type { Endpoint, FindingGraphql } from '../../shared/contract';
import { graphqlOperationName } from '../../shared/display';
import type { Exchange } from './http/exchange';
import type { Redactor } from './redact';

interface SentOperation {
  query: string;
  variables: unknown;
}

const MAX_QUERY = 8_000;

function asOperation(v: unknown): SentOperation | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  return typeof o.query === 'string' ? { query: o.query, variables: o.variables ?? null } : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The operations a request carried: one (POST body or GET query string), several (an array batch), or none. */
export function sentOperations(ex: Exchange): SentOperation[] {
  const req = ex.request;
  if (req.method === 'GET') {
    const params = new URL(req.url).searchParams;
    const query = params.get('query');
    if (query === null) return [];
    const variables = params.get('variables');
    return [{ query, variables: variables ? (parseJson(variables) ?? variables) : null }];
  }
  if (!req.body) return [];
  const body = parseJson(req.body);
  if (Array.isArray(body)) return body.map(asOperation).filter((o): o is SentOperation => o !== null);
  const one = asOperation(body);
  return one ? [one] : [];
}

function printVariables(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return null;
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

/**
 * The finding's GraphQL part: set when its endpoint is a GraphQL operation or its proving request sent
 * a GraphQL query; null for everything else.
 */
export function findingGraphql(endpoint: Endpoint | null, proof: Exchange | undefined, redactor: Redactor): FindingGraphql | null {
  const operation = endpoint?.graphql ? graphqlOperationName(endpoint.graphql) : null;
  const sent = proof ? sentOperations(proof) : [];
  const first = sent[0];
  if (!first && !endpoint?.graphql) return null;
  const query = first ? first.query : endpoint!.graphql!.document;
  const variables = first ? printVariables(first.variables) : null;
  return {
    operation,
    query: redactor.redact(query.length > MAX_QUERY ? `${query.slice(0, MAX_QUERY)}…` : query),
    variables: variables === null ? null : redactor.redact(variables.length > MAX_QUERY ? `${variables.slice(0, MAX_QUERY)}…` : variables),
    batch: proof && proof.request.body?.trimStart().startsWith('[') && sent.length > 0 ? sent.length : null,
  };
}
