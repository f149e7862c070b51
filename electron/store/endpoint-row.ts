// An endpoint as its row stores it, its JSON columns already written out. The import worker prepares
// endpoints this way before posting them to the event loop's thread: the structured clone of 10,000
// endpoints' schemas took 1-2 s to deserialize there, their JSON text is copied in milliseconds, and the
// store would have written that text anyway (docs/decisions.md, "Imports run in a worker").

import type { Flag } from '../../shared/constants';
import type { NewEndpoint } from './apis';

export interface PreparedEndpoint {
  prepared: true;
  method: string;
  path: string;
  summary: string;
  operation_id: string | null;
  flags: Flag[];
  /** The JSON of the endpoint's tags, parameters, request body, responses, security and GraphQL descriptor. */
  tags: string;
  parameters: string;
  request_body: string;
  responses: string;
  security: string;
  graphql: string | null;
}

export function prepareEndpoint(e: NewEndpoint): PreparedEndpoint {
  return {
    prepared: true,
    method: e.method,
    path: e.path,
    summary: e.summary,
    operation_id: e.operation_id,
    flags: e.flags,
    tags: JSON.stringify(e.tags),
    parameters: JSON.stringify(e.parameters),
    request_body: JSON.stringify(e.request_body),
    responses: JSON.stringify(e.responses),
    security: JSON.stringify(e.security),
    graphql: e.graphql ? JSON.stringify(e.graphql) : null,
  };
}

export const isPrepared = (e: NewEndpoint | PreparedEndpoint): e is PreparedEndpoint => 'prepared' in e && e.prepared === true;
