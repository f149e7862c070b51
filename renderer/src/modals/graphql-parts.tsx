// How endpoint lists and findings show a GraphQL operation: its kind and name ("Query.loan") in place
// of the method and path every operation shares (POST /graphql), its arguments with their GraphQL
// types, and a finding's query, variables and batch size.

import type { ReactElement } from 'react';
import type { Endpoint, EndpointParameter, FindingGraphql, GraphqlOperation } from '../../../shared/contract';
import { graphqlOperationName } from '../../../shared/display';
import { CodeBlock, MethodBadge } from './shared';

const KIND_OF_WORD: Record<string, GraphqlOperation['kind']> = { query: 'query', mutation: 'mutation', subscription: 'subscription' };

/** "QUERY", "MUTATION", "SUBSCRIPTION" in the place of the method badge. */
export function OperationBadge({ kind }: { kind: GraphqlOperation['kind'] }): ReactElement {
  return (
    <span className={`method method-gql method-gql-${kind}`} title={`GraphQL ${kind}`}>
      {kind.toUpperCase()}
    </span>
  );
}

/** The kind a finding's operation name starts with ("Mutation.login" → mutation); query when unknown. */
export function kindOfOperation(operation: string): GraphqlOperation['kind'] {
  return KIND_OF_WORD[operation.split('.')[0]!.toLowerCase()] ?? 'query';
}

/** An endpoint's line: method and path, or for a GraphQL operation its kind, name and (muted) the POST it is sent as. */
export function EndpointTitle({ endpoint }: { endpoint: Pick<Endpoint, 'method' | 'path' | 'graphql'> }): ReactElement {
  const op = endpoint.graphql;
  if (!op)
    return (
      <div className="endpoint-line">
        <MethodBadge method={endpoint.method} />
        <span className="mono">{endpoint.path}</span>
      </div>
    );
  return (
    <div className="endpoint-line">
      <OperationBadge kind={op.kind} />
      <span className="mono operation-name" data-testid="operation-name">
        {graphqlOperationName(op)}
      </span>
      <span className="muted small operation-transport">
        {endpoint.method.toUpperCase()} {endpoint.path}
      </span>
    </div>
  );
}

/** The GraphQL type an argument's schema carries ("ID!", "[String!]"), else its JSON type. */
export function argumentType(p: Pick<EndpointParameter, 'schema' | 'required'>): string {
  const declared = p.schema?.['x-graphql-type'];
  if (typeof declared === 'string' && declared) return declared;
  const type = typeof p.schema?.type === 'string' ? p.schema.type : 'unknown';
  return p.required ? `${type}!` : type;
}

/** A GraphQL operation's arguments as "name: Type" chips; nothing for an operation without arguments. */
export function GraphqlArguments({ parameters }: { parameters: EndpointParameter[] }): ReactElement | null {
  const args = parameters.filter((p) => p.in === 'argument');
  if (!args.length) return null;
  return (
    <ul className="graphql-args" aria-label="Arguments" data-testid="operation-arguments">
      {args.map((p) => (
        <li key={p.name} className="mono" data-testid="operation-argument">
          {p.name}: <span className="graphql-type">{argumentType(p)}</span>
        </li>
      ))}
    </ul>
  );
}

/** A summary worth showing: not the operation name the title already shows. */
export function endpointSummary(endpoint: Pick<Endpoint, 'summary' | 'graphql'>): string {
  if (!endpoint.summary) return '';
  if (endpoint.graphql && endpoint.summary === graphqlOperationName(endpoint.graphql)) return '';
  return endpoint.summary;
}

/**
 * A finding's GraphQL request: the operation, the query and the variables (each with a copy button),
 * and how many operations the request batched.
 */
export function FindingGraphqlSection({
  graphql,
  testId,
  onCopied,
  heading: Heading = 'h3',
}: {
  graphql: FindingGraphql;
  testId: string;
  onCopied(ok: boolean): void;
  heading?: 'h3' | 'h4';
}): ReactElement {
  return (
    <section className="finding-graphql" data-testid={testId}>
      <Heading>GraphQL</Heading>
      <dl className="graphql-facts">
        <div>
          <dt>Operation</dt>
          <dd className="mono" data-testid={`${testId}-operation`}>
            {graphql.operation ?? 'The API as a whole'}
          </dd>
        </div>
        {graphql.batch !== null && graphql.batch > 0 && (
          <div>
            <dt>Request</dt>
            <dd data-testid={`${testId}-batch`}>
              Batch of {graphql.batch} operation{graphql.batch === 1 ? '' : 's'}
            </dd>
          </div>
        )}
      </dl>
      <CodeBlock title="Query" text={graphql.query} testId={`${testId}-query`} onCopied={onCopied} />
      {graphql.variables && <CodeBlock title="Variables" text={graphql.variables} testId={`${testId}-variables`} onCopied={onCopied} />}
    </section>
  );
}

/** The operation a finding is about, when it names one. */
export function findingOperation(f: { graphql?: FindingGraphql | null }): string | null {
  return f.graphql?.operation ?? null;
}
