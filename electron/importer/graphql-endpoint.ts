// A GraphQL endpoint typed by hand (manual entry, method "GRAPHQL"): its operations are unknown until the
// scan asks the endpoint for its schema (scanner/run-graphql.ts). Until then it is one operation that
// every GraphQL server answers, `query { __typename }`, which the endpoint-wide GraphQL checks need.

import type { Endpoint, GraphqlOperation } from '../../shared/contract';
import type { ExtractedEndpoint } from './result';

const WHOLE_ENDPOINT_DOCUMENT = 'query { __typename }';

/** The operation of a GraphQL endpoint whose schema is not known. */
export const WHOLE_ENDPOINT_OPERATION: GraphqlOperation = Object.freeze({
  kind: 'query',
  root_type: 'Query',
  field: '__typename',
  document: WHOLE_ENDPOINT_DOCUMENT,
  variable_types: {},
  returns: 'String!',
  cycle: null,
}) as GraphqlOperation;

/** Whether an endpoint is a GraphQL endpoint typed by hand (its operations still to be learnt). */
export function isWholeGraphqlEndpoint(e: Pick<Endpoint, 'graphql'>): boolean {
  return e.graphql?.field === '__typename' && e.graphql.document === WHOLE_ENDPOINT_DOCUMENT;
}

export function wholeGraphqlEndpoint(path: string, summary: string): ExtractedEndpoint {
  return {
    method: 'POST',
    path,
    summary: summary || 'GraphQL endpoint',
    operation_id: null,
    tags: ['GraphQL'],
    parameters: [],
    request_body: {
      required: true,
      content_type: 'application/json',
      schema: { type: 'object', required: ['query'], properties: { query: { type: 'string', const: WHOLE_ENDPOINT_DOCUMENT } } },
    },
    responses: {},
    security: null,
    graphql: { ...WHOLE_ENDPOINT_OPERATION, variable_types: {} },
  };
}
