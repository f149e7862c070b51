// Markup a GraphQL mutation stores and a later query returns verbatim (issue 28, DVGA's scenarios 15 and 17):
// Mutation.postNotice keeps markup as sent and Query.notices returns it; the hardened twin encodes it.

import { describe, expect, it } from 'vitest';
import { graphqlStoredMarkup } from '../../electron/scanner/checks/api8-misconfiguration/graphql-stored-markup';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { graphqlTargets } from '../helpers/graphql-check-tests';

const target = graphqlTargets();
const OPS = ['Mutation.postNotice', 'Query.notices', 'Query.libraryInfo'];

describe('GraphQL stored markup', () => {
  it('finds a script payload and plain HTML stored by a mutation and returned by a query, for information', async () => {
    const t = await target('hardened', { 'stored-markup': true });
    const s = await scanGraphqlChecks(t, [graphqlStoredMarkup], { only: OPS });
    expect(s.outcome.status).toBe('completed');
    const found = s.of(graphqlStoredMarkup);
    expect(found.map((f) => f.vulnerability_name).sort()).toEqual([
      'Stored HTML markup returned verbatim through GraphQL (HTML injection in clients)',
      'Stored script payload returned verbatim through GraphQL (stored XSS in clients)',
    ]);
    expect(found.every((f) => f.severity === 'info' && f.graphql?.operation === 'Mutation.postNotice')).toBe(true);
    expect(found.map((f) => f.parameter).sort()).toEqual(['title:html', 'title:script']);
    expect(found[0]!.description).toMatch(/in the answer of Query\.notices/);
    expect(s.sent(graphqlStoredMarkup)).toBeLessThanOrEqual(graphqlStoredMarkup.budget);
  }, 30_000);

  it('stays silent where the markup is encoded on the way in', async () => {
    const t = await target('hardened');
    const s = await scanGraphqlChecks(t, [graphqlStoredMarkup], { only: OPS });
    expect(s.of(graphqlStoredMarkup)).toEqual([]);
    expect(s.sent(graphqlStoredMarkup)).toBeGreaterThanOrEqual(3);
  }, 30_000);
});
