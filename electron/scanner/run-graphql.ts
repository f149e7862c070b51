// GraphQL endpoints typed by hand (importer/graphql-endpoint.ts) learn their operations when they are
// scanned: the introspection query is sent as key 1, and each operation of the schema that comes back is
// scanned like an imported one (default flags; kept in the scan only, the API is not changed). A server
// that refuses introspection leaves the endpoint-wide GraphQL checks (suggestions, batching, GET
// mutations, debug errors) to work on the endpoint itself; the scan notes it.

import { getIntrospectionQuery } from 'graphql';
import type { Endpoint } from '../../shared/contract';
import { isWholeGraphqlEndpoint } from '../importer/graphql-endpoint';
import { importRunner } from '../importer/import-runner';
import { describeEndpoint } from './checks/common/helpers';
import { mayHoldSchema } from './graphql-introspect';
import { authSpecFor } from './identities/placement';
import type { ScanRun } from './run-state';

const QUERY = getIntrospectionQuery({ descriptions: false });

/** Adds the operations of every hand-typed GraphQL endpoint that answers introspection to the scan. */
export async function learnGraphqlOperations(run: ScanRun): Promise<void> {
  const wholes = run.active.filter(isWholeGraphqlEndpoint);
  for (const e of wholes) {
    if (run.signal.aborted) return;
    const ex = await run.engine.send(
      {
        method: 'POST',
        url: run.engine.resolve(e.path),
        auth: { kind: 'key', key: 1 },
        placements: authSpecFor(e, run.security).placements,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: QUERY }),
      },
      [run.budgetOf(e)],
    );
    const noSchema = () =>
      run.problem(`${describeEndpoint(e)} did not answer the introspection query (${ex.response ? `HTTP ${ex.status}` : (ex.error ?? 'no response')}): only its endpoint-wide GraphQL checks ran. Import its schema (SDL) to scan each operation.`);
    if (!mayHoldSchema(ex)) {
      noSchema();
      continue;
    }
    let operations: Endpoint[];
    try {
      // Parsed and built in the import worker: the scan's other tasks keep the loop meanwhile.
      const result = await importRunner().readIntrospectionAnswer(ex.body, { name: run.api.name, baseUrl: run.api.baseUrl, path: e.path });
      if (!result) {
        noSchema();
        continue;
      }
      operations = result.endpoints.map((op, i) => ({ ...op, id: `${e.id}~${i}`, security: e.security }));
    } catch (err) {
      run.problem(`${describeEndpoint(e)} answered introspection with a schema that could not be read (${(err as Error).message}).`);
      continue;
    }
    run.active.push(...operations);
    run.note(`${describeEndpoint(e)}: ${operations.length} operation${operations.length === 1 ? '' : 's'} learnt by introspection were scanned with their default flags.`);
  }
}
