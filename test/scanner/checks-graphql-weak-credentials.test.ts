// Weak and default credentials through a GraphQL operation that takes an account name and a password (issue 28,
// DVGA's scenario 22): the GraphQL target's administrator account keeps its installation password.

import { afterAll, describe, expect, it } from 'vitest';
import { graphqlWeakCredentials } from '../../electron/scanner/checks/api2-authentication/graphql-weak-credentials';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { startGraphqlTarget, type GraphqlTarget } from '../targets/graphql/index';

const started: GraphqlTarget[] = [];
afterAll(async () => {
  await Promise.all(started.map((t) => t.close()));
});
// The login's own attempt limit (10 a minute) would stop the guesses before the account is reached: raised here.
async function target(flaws: Parameters<typeof startGraphqlTarget>[0]['flaws']) {
  const t = await startGraphqlTarget({ mode: 'hardened', flaws, attemptLimit: { limit: 1000, windowMs: 60_000 } });
  started.push(t);
  return t;
}

describe('GraphQL weak credentials', () => {
  it('signs the default administrator account in through Mutation.login, and masks the token it got', async () => {
    const t = await target({ 'default-password': true });
    const s = await scanGraphqlChecks(t, [graphqlWeakCredentials], { only: ['Mutation.login', 'Query.libraryInfo'] });
    expect(s.outcome.status).toBe('completed');
    const [f, ...more] = s.of(graphqlWeakCredentials);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ parameter: 'password', severity: 'high', owasp: 'API2:2023' });
    expect(f!.description).toMatch(/Mutation\.login accepted the account administrator \(a common default name\) with a common or default password \(ad\*{6}/);
    expect(f!.evidence).toContain('Control: the same password for a made-up account');
    expect(s.sent(graphqlWeakCredentials)).toBeLessThanOrEqual(graphqlWeakCredentials.budget);
  }, 30_000);

  it('stays silent where no account keeps a common password, after trying', async () => {
    const t = await target({});
    const s = await scanGraphqlChecks(t, [graphqlWeakCredentials], { only: ['Mutation.login', 'Query.libraryInfo'] });
    expect(s.of(graphqlWeakCredentials)).toEqual([]);
    expect(s.sent(graphqlWeakCredentials)).toBeGreaterThan(20);
  }, 30_000);
});
