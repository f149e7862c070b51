// GraphQL engine fingerprinting (issue 28, DVGA's scenario 1): the wording of parse and validation errors names
// the engine. On the GraphQL target (graphql-js) the check names graphql-js, for information; the signatures of
// other engines are checked on their own answers.

import { describe, expect, it } from 'vitest';
import { engineOf, graphqlEngine, type EngineAnswers } from '../../electron/scanner/checks/api9-inventory/graphql-engine';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { graphqlTargets } from '../helpers/graphql-check-tests';

const target = graphqlTargets();

const answers = (messages: EngineAnswers['messages'], typename: string | null = 'Query'): EngineAnswers => ({ typename, messages });

describe('GraphQL engine fingerprinting', () => {
  it('names graphql-js on the GraphQL target, for information, with four requests and the answer that told it', async () => {
    const t = await target('hardened');
    const s = await scanGraphqlChecks(t, [graphqlEngine], { only: ['Query.libraryInfo', 'Query.book'] });
    expect(s.outcome.status).toBe('completed');
    const [f, ...more] = s.of(graphqlEngine);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ vulnerability_name: 'GraphQL engine fingerprinted: graphql-js', severity: 'info', method: 'POST', path: '/graphql', owasp: 'API9:2023' });
    expect(f!.description).toMatch(/runs graphql-js, JavaScript .*Directive "@deprecated" may not be used on QUERY\./);
    expect(s.sent(graphqlEngine)).toBe(4);
  }, 30_000);

  it('tells other engines by their own wording, and names none for answers it does not know', () => {
    const name = (a: EngineAnswers) => engineOf(a)?.signature.engine ?? null;
    // graphql-core 2 (Graphene 2, as on Flask-GraphQL).
    expect(name(answers({ 'bare-name': ['Syntax Error GraphQL (1:1) Unexpected Name "portcullis"\n\n1: portcullis\n   ^\n'] }))).toBe('Graphene 2 (graphql-core 2)');
    expect(name(answers({}, 'query_root'))).toBe('Hasura');
    expect(name(answers({ 'misspelt-keyword': ["Invalid Syntax : offending token 'queryy' at line 1 column 1"] }))).toBe('graphql-java');
    expect(name(answers({ 'bare-name': ['Parse error on "portcullis" (IDENTIFIER) at [1, 1]'] }))).toBe('graphql-ruby');
    expect(name(answers({ 'misplaced-directive': ['Directive "deprecated" may not be used on "QUERY".'] }))).toBe('graphql-php');
    expect(name(answers({ 'misplaced-directive': ["Directive '@deprecated' may not be used on query."] }))).toBe('graphql-core 3');
    expect(name(answers({ 'bare-name': ['Syntax Error: Unexpected Name "portcullis".'] }))).toBe('graphql-js');
    // A server that masks its errors says nothing of its engine.
    expect(name(answers({ 'bare-name': ['Invalid request.'], 'misplaced-directive': ['Invalid request.'] }))).toBeNull();
  });
});
