// GraphQL document abuse and the in-browser IDE (issue 28 item 5) on the GraphQL target: a selection
// repeating one field thousands of times answered in full (no token limit), two fragments that spread
// each other answered with a server error instead of the specification's validation error, and GraphiQL
// served in production. Each found on its flaw alone and silent on the hardened twin.

import { describe, expect, it } from 'vitest';
import { circularFragmentsDocument, duplicatedFieldDocument, DUPLICATES, graphqlDocumentAbuse } from '../../electron/scanner/checks/api4-resource-consumption/graphql-document-abuse';
import { graphqlIde } from '../../electron/scanner/checks/api8-misconfiguration/graphql-ide';
import { checkProblems } from '../../electron/scanner/checks/index';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { graphqlTargets } from '../helpers/graphql-check-tests';

const target = graphqlTargets();
const OPS = ['Query.libraryInfo', 'Query.books'];

describe('GraphQL documents a server should refuse, and its IDE', () => {
  it('have complete metadata, GraphQL only, and documents that select only __typename', () => {
    for (const c of [graphqlDocumentAbuse, graphqlIde]) {
      expect(checkProblems(c)).toEqual([]);
      expect(c.protocols).toEqual(['graphql']);
    }
    expect(duplicatedFieldDocument(3)).toBe('query PortcullisDuplicates { __typename __typename __typename }');
    expect(circularFragmentsDocument('Query')).toContain('fragment PortcullisB on Query { __typename ...PortcullisA }');
  });

  it('find field duplication without a token limit, and circular fragments that crash the server', async () => {
    // The hardened alias limit counts a repeated field too: the duplication is open only with both limits off.
    const [dup, cycles, hardened] = await Promise.all([
      target('hardened', { 'token-limit': true, 'batching-limit': true }),
      target('hardened', { 'fragment-cycles': true }),
      target('hardened'),
    ]);
    const [a, b, quiet] = await Promise.all([dup, cycles, hardened].map((t) => scanGraphqlChecks(t, [graphqlDocumentAbuse], { only: OPS })));
    expect(a!.of(graphqlDocumentAbuse).map((f) => [f.vulnerability_name, f.severity])).toEqual([['GraphQL field duplication not limited', 'low']]);
    expect(a!.of(graphqlDocumentAbuse)[0]!.description).toContain(`one field ${DUPLICATES} times`);
    expect(b!.of(graphqlDocumentAbuse).map((f) => [f.vulnerability_name, f.severity])).toEqual([['GraphQL circular fragments not refused', 'medium']]);
    expect(b!.of(graphqlDocumentAbuse)[0]!.description).toMatch(/with HTTP 500/);
    // The hardened twin refuses both before running anything: 400 with the parser's and the validator's messages.
    expect(quiet!.of(graphqlDocumentAbuse)).toEqual([]);
    expect(quiet!.sent(graphqlDocumentAbuse)).toBe(3);
  }, 30_000);

  it('find GraphiQL served in production, at its own path and at the GraphQL path asked for HTML', async () => {
    const [open, closed] = await Promise.all([target('hardened', { graphiql: true }), target('hardened')]);
    const [s, quiet] = await Promise.all([open, closed].map((t) => scanGraphqlChecks(t, [graphqlIde], { only: OPS })));
    const [f] = s!.of(graphqlIde);
    expect([f!.vulnerability_name, f!.method, f!.path, f!.severity]).toEqual(['GraphQL IDE exposed (GraphiQL)', 'GET', '/graphql', 'medium']);
    expect(f!.description).toContain('GET /graphiql answered HTTP 200 with the GraphiQL page');
    expect(quiet!.of(graphqlIde)).toEqual([]);
  }, 30_000);
});
