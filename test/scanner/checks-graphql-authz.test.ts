// GraphQL authorization and SSRF checks (issue 20) on the GraphQL target: BOLA through id arguments
// (key 2's objects learnt from its own reads, asked by key 1), BFLA through privileged mutations run by
// the lower-privileged identity on an object the scan created, and SSRF through URL arguments (the
// out-of-band listener); silence on the hardened twin.

import { describe, expect, it } from 'vitest';
import { graphqlBola } from '../../electron/scanner/checks/api1-object-authorization/graphql-bola';
import { graphqlBfla } from '../../electron/scanner/checks/api5-function-authorization/graphql-bfla';
import { graphqlSsrf } from '../../electron/scanner/checks/api7-ssrf/graphql-ssrf';
import { checkProblems } from '../../electron/scanner/checks/index';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { expectGraphqlFinding, graphqlTargets } from '../helpers/graphql-check-tests';
// test/targets/graphql.ts (the REST target's small GraphQL route) shadows the folder: name its index.
import type { GraphqlTarget } from '../targets/graphql/index';

const target = graphqlTargets();

const READS = ['Query.me', 'Query.loans', 'Query.members', 'Query.books', 'Query.loan', 'Query.member', 'Query.book'];
const admin = (t: GraphqlTarget) => [
  { name: 'alice', role: 'user' as const, token: t.users.alice.key },
  { name: 'bob', role: 'user' as const, token: t.users.bob.key },
  { name: 'admin', role: 'privileged' as const, token: t.users.admin.key },
];

describe('GraphQL authorization and SSRF checks', () => {
  it('have complete metadata and run only on GraphQL operations', () => {
    for (const c of [graphqlBola, graphqlBfla, graphqlSsrf]) {
      expect(checkProblems(c)).toEqual([]);
      expect(c.protocols).toEqual(['graphql']);
      expect(c.references).toContain('https://cheatsheetseries.owasp.org/cheatsheets/GraphQL_Cheat_Sheet.html');
    }
  });

  it('find BOLA through Query.loan and Query.member with key 2\'s ids', async () => {
    const t = await target('hardened', { bola: true });
    const s = await scanGraphqlChecks(t, [graphqlBola], { only: READS });
    expect(s.outcome.status).toBe('completed');
    const found = s.of(graphqlBola);
    const ops = found.map((f) => f.graphql?.operation).sort();
    expect(ops).toEqual(['Query.loan', 'Query.member']);
    const loan = found.find((f) => f.graphql?.operation === 'Query.loan');
    expectGraphqlFinding(loan, 'Query.loan', 'id');
    // Key 1 (alice) read key 2's (bob's) loan, with its private notes.
    expect(loan!.evidence).toContain(t.users.bob.username);
    expect(loan!.description).toMatch(/key 1 sent id=\d+, an id of key 2's/);
    expect(s.sent(graphqlBola)).toBeLessThanOrEqual(graphqlBola.budget);
    // Public objects (the catalogue) are not reported.
    expect(ops).not.toContain('Query.book');
  }, 30_000);

  it('find BFLA: the lower-privileged user makes a member the scan registered an admin', async () => {
    const t = await target('hardened', { bfla: true });
    // Sign-up on: the member the check makes an admin is one it registers (with sign-up off it registers nobody).
    const s = await scanGraphqlChecks(t, [graphqlBfla], { only: ['Mutation.register', 'Mutation.setMemberRole', 'Query.member'], identities: admin(t), signup: 'auto' });
    expect(s.outcome.status).toBe('completed');
    const [f] = s.of(graphqlBfla);
    expectGraphqlFinding(f, 'Mutation.setMemberRole', 'id');
    expect(f!.description).toMatch(/role: ADMIN/);
    expect(f!.confidence).toBe('high');
    expect(f!.description).toMatch(/role: "MEMBER" -> "ADMIN"/);
    // The seeded members are untouched: only the scan's own registration changed.
    const roles = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.users.admin.key}` },
      body: JSON.stringify({ query: '{ members { username role } }' }),
    }).then((r) => r.json() as Promise<{ data: { members: { username: string; role: string }[] } }>);
    for (const m of roles.data.members.filter((x) => ['alice', 'bob'].includes(x.username))) expect(m.role).toBe('MEMBER');
  }, 30_000);

  it('find SSRF through Mutation.importBookCover(url) when writes to existing objects are allowed', async () => {
    const t = await target('hardened', { ssrf: true });
    const s = await scanGraphqlChecks(t, [graphqlSsrf], { only: ['Mutation.importBookCover', 'Mutation.checkMirror'], allowExistingObjects: true });
    expect(s.outcome.status).toBe('completed');
    const [f] = s.of(graphqlSsrf);
    expectGraphqlFinding(f, 'Mutation.importBookCover', 'url');
    expect(f!.description).toMatch(/listener on 127\.0\.0\.1 received GET/);
    expect(f!.graphql?.variables).toMatch(/127\.0\.0\.1/);
  }, 30_000);

  it('by default find SSRF through Mutation.suggestPurchase(link), which addresses nothing, and leave Mutation.importBookCover alone', async () => {
    const t = await target('hardened', { ssrf: true });
    const s = await scanGraphqlChecks(t, [graphqlSsrf], { only: ['Mutation.importBookCover', 'Mutation.suggestPurchase'] });
    expect(s.outcome.status).toBe('completed');
    const found = s.of(graphqlSsrf);
    expect(found).toHaveLength(1);
    expectGraphqlFinding(found[0], 'Mutation.suggestPurchase', 'link');
    // importBookCover(bookId) was never sent: no request body named it.
    expect(t.requests.all().some((r) => (r.body ?? '').includes('importBookCover'))).toBe(false);
  }, 30_000);

  // A URL joined from scheme, host, port and path: the listener's host alone keeps the scan's made-up scheme in it.
  it('find SSRF through Mutation.importCatalogue, whose URL is split across scheme, host, port and path', async () => {
    const t = await target('hardened', { 'ssrf-split-url': true });
    const s = await scanGraphqlChecks(t, [graphqlSsrf], { only: ['Mutation.importCatalogue'] });
    expect(s.outcome.status).toBe('completed');
    const [f] = s.of(graphqlSsrf);
    // The path argument may name a file on a write: it keeps the scan's value, and the listener's path rides in the host.
    expectGraphqlFinding(f, 'Mutation.importCatalogue', 'scheme, host, port');
    expect(f!.description).toMatch(/listener on 127\.0\.0\.1 received GET \/p\//);
    const hardened = await scanGraphqlChecks(await target('hardened'), [graphqlSsrf], { only: ['Mutation.importCatalogue'] });
    expect(hardened.findings).toEqual([]);
    expect(hardened.sent(graphqlSsrf)).toBeGreaterThan(0);
  }, 30_000);

  it('stay silent on the hardened twin', async () => {
    const t = await target('hardened');
    const s = await scanGraphqlChecks(t, [graphqlBola, graphqlBfla, graphqlSsrf], {
      only: [...READS, 'Mutation.register', 'Mutation.setMemberRole', 'Mutation.importBookCover', 'Mutation.checkMirror'],
      identities: admin(t),
      allowExistingObjects: true,
    });
    expect(s.outcome.status).toBe('completed');
    expect(s.findings).toEqual([]);
    // Silent after trying: each check sent its probes.
    for (const c of [graphqlBola, graphqlBfla, graphqlSsrf]) expect(s.sent(c)).toBeGreaterThan(0);
  }, 30_000);
});
