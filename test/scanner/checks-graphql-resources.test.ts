// GraphQL resource and authentication checks (issue 20) on the GraphQL target: query depth without a
// limit, alias and array-batch amplification, login and reset-code attempts batched past a limiter that
// counts requests, and private data answered without credentials; silence on the hardened twin.

import { describe, expect, it } from 'vitest';
import { attemptOutcome, attemptPlan, ATTEMPTS, graphqlBatchBruteForce } from '../../electron/scanner/checks/api2-authentication/graphql-batch-brute-force';
import { beyondPublicFace, graphqlUnauthenticated, privateMark } from '../../electron/scanner/checks/api2-authentication/graphql-unauthenticated';
import { ALIASES, BATCH, graphqlBatching } from '../../electron/scanner/checks/api4-resource-consumption/graphql-batching';
import { answerShape, graphqlDepth, nestedSelection, reachedDepth } from '../../electron/scanner/checks/api4-resource-consumption/graphql-depth';
import { aliasedCopiesDocument, aliasedCopiesVariables } from '../../electron/scanner/checks/common/graphql';
import { checkProblems } from '../../electron/scanner/checks/index';
import { graphqlEndpointsOf, scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { expectGraphqlFinding, graphqlTargets } from '../helpers/graphql-check-tests';
import { LIBRARY_SDL } from '../targets/graphql/sdl';

const target = graphqlTargets();

const CHECKS = [graphqlDepth, graphqlBatching, graphqlBatchBruteForce, graphqlUnauthenticated];
const READS = ['Query.me', 'Query.members', 'Query.loans', 'Query.books', 'Query.findMembers', 'Query.member', 'Query.loan', 'Query.libraryInfo'];

describe('GraphQL resource and authentication checks: helpers', () => {
  it('have complete metadata and run only on GraphQL operations', () => {
    for (const c of CHECKS) {
      expect(checkProblems(c)).toEqual([]);
      expect(c.protocols).toEqual(['graphql']);
      expect(c.references).toContain('https://cheatsheetseries.owasp.org/cheatsheets/GraphQL_Cheat_Sheet.html');
      expect(c.coverage?.length).toBeGreaterThan(40);
    }
    expect(graphqlBatchBruteForce.last).toBe(true);
    expect(graphqlDepth.appliesTo({ method: 'GET', path: '/x', flags: ['URC'], graphql: null } as never)).toBe(false);
  });

  it('nest a cycle to a depth and measure how deep an answer goes', () => {
    expect(nestedSelection(['author', 'books'], 3)).toBe('{ author { books { author { __typename } } } }');
    expect(reachedDepth([{ author: { books: [{ author: { __typename: 'Author' } }] } }], ['author', 'books'])).toBe(4);
    expect(reachedDepth([{ author: { books: [] } }], ['author', 'books'])).toBe(2);
  });

  it('count what an answer holds level by level, and what each cycle field gave its parent', () => {
    const books = (n: number) => Array.from({ length: n }, () => ({ author: { __typename: 'Author' } }));
    // books { author { books { author } } }: 2 books, each author with 3 books, each with its author.
    const shape = answerShape([{ author: { books: books(3) } }, { author: { books: books(3) } }], ['author', 'books']);
    expect(shape).toEqual({ objects: 2 + 2 + 6 + 6, deepest: 6, widest: 3, branching: [1, 3] });
  });

  it('give each alias its own variables', () => {
    const [login] = graphqlEndpointsOfSdl().filter((e) => e.graphql?.field === 'login');
    const doc = aliasedCopiesDocument(login!.graphql!, 2, { alias: 'try' });
    expect(doc).toContain('$username_0: String!');
    expect(doc).toContain('try1: login(username: $username_1, password: $password_1)');
    expect(aliasedCopiesVariables([{ username: 'a' }, { username: 'b' }])).toEqual({ username_0: 'a', username_1: 'b' });
  });

  it('pick login and code checks by generic words, not sign-ups or password changes', () => {
    const ops = graphqlEndpointsOfSdl();
    const planned = ops.filter((e) => attemptPlan(e as never)).map((e) => e.graphql!.field);
    expect(planned.sort()).toEqual(['login', 'verifyResetCode']);
    const change = { ...ops.find((e) => e.graphql?.field === 'login')!, graphql: { ...ops.find((e) => e.graphql?.field === 'login')!.graphql!, field: 'changePassword' } };
    expect(attemptPlan(change as never)).toBeNull();
  });

  it('read an attempt as evaluated, throttled or refused from GraphQL semantics', () => {
    expect(attemptOutcome({ data: null, errors: [{ message: 'Invalid credentials', path: ['try0'] }] }, 'try0').kind).toBe('evaluated');
    expect(attemptOutcome({ data: { try0: { ok: false } }, errors: [] }, 'try0').kind).toBe('evaluated');
    expect(attemptOutcome({ data: null, errors: [{ message: 'Slow down', path: ['try0'], extensions: { code: 'RATE_LIMITED' } }] }, 'try0').kind).toBe('throttled');
    expect(attemptOutcome({ data: undefined, errors: [{ message: 'Field "try0" is requested 20 times' }] }, 'try0').kind).toBe('refused');
  });

  it('count only private identity values as leaked', () => {
    expect(privateMark('alice@example.com')).toBe(true);
    expect(privateMark('+44 20 7946 0958')).toBe(true);
    expect(privateMark('alice')).toBe(false);
    expect(privateMark('12345')).toBe(false);
    // A post's author by name is the public face of a user; a loan's dates are not.
    expect(beyondPublicFace({ __typename: 'User', id: '7', username: 'alice', displayName: 'Alice' })).toBe(false);
    expect(beyondPublicFace({ __typename: 'Loan', id: '1', dueAt: '2024-05-23' })).toBe(true);
  });
});

let sdlEndpoints: ReturnType<typeof graphqlEndpointsOf> | null = null;
/** The target's operations as the importer reads its SDL (the same in both modes). */
function graphqlEndpointsOfSdl(): ReturnType<typeof graphqlEndpointsOf> {
  return (sdlEndpoints ??= graphqlEndpointsOf({ sdl: LIBRARY_SDL } as Parameters<typeof graphqlEndpointsOf>[0]));
}

describe('GraphQL resource and authentication checks on the target', () => {
  it('find query depth without a limit, and stay silent where depth is limited', async () => {
    const [open, limited] = await Promise.all([target('hardened', { 'depth-limit': true }), target('hardened')]);
    const [s, quiet] = await Promise.all([scanGraphqlChecks(open, [graphqlDepth], { only: ['Query.books'] }), scanGraphqlChecks(limited, [graphqlDepth], { only: ['Query.books'] })]);
    const [f] = s.of(graphqlDepth);
    expect(f, s.outcome.errors.join('\n')).toBeDefined();
    expectGraphqlFinding(f, 'Query.books', 'depth');
    expect(f!.description).toMatch(/12 levels deep/);
    expect(f!.description).toMatch(/depth 2 \d+ ms, depth 3 \d+ ms, .*depth 11 \d+ ms, depth 12 \d+ ms/);
    expect(f!.confidence).toBe('high');
    expect(f!.graphql?.query).toContain('PortcullisDepth12');
    expect(s.sent(graphqlDepth)).toBeLessThanOrEqual(graphqlDepth.budget);
    expect(quiet.of(graphqlDepth)).toEqual([]);
    // One level at a time, up to the first one refused (the hardened twin allows 8).
    expect(quiet.sent(graphqlDepth)).toBe(8);
  }, 30_000);

  it('find alias and array-batch amplification, and stay silent where both are limited', async () => {
    const [open, limited] = await Promise.all([target('hardened', { 'batching-limit': true }), target('hardened')]);
    const [s, quiet] = await Promise.all([
      scanGraphqlChecks(open, [graphqlBatching], { only: ['Query.libraryInfo', 'Query.books'] }),
      scanGraphqlChecks(limited, [graphqlBatching], { only: ['Query.libraryInfo', 'Query.books'] }),
    ]);
    // Two limits, two remediations: one finding each.
    const [aliases, batch, ...more] = s.of(graphqlBatching);
    expect(more).toEqual([]);
    expectGraphqlFinding(aliases, 'Query.libraryInfo', 'aliases');
    expect(aliases!.vulnerability_name).toBe('GraphQL aliases not limited');
    expect(aliases!.description).toContain(`${ALIASES} aliases of Query.libraryInfo in one operation were all resolved`);
    expect(aliases!.graphql?.query).toContain(`p${ALIASES - 1}: libraryInfo`);
    expectGraphqlFinding(batch, 'Query.libraryInfo', 'batching');
    expect(batch!.vulnerability_name).toBe('GraphQL array batches not limited');
    expect(batch!.description).toContain(`an array batch of ${BATCH} copies`);
    expect(s.sent(graphqlBatching)).toBe(3);
    expect(quiet.of(graphqlBatching)).toEqual([]);
  }, 30_000);

  it('find login and reset-code attempts batched past a per-request limiter, with the separate requests throttled', async () => {
    // The per-request limiter shows once batches get through (the hardened twin also caps their size).
    const t = await target('hardened', { 'batch-rate-limit': true, 'batching-limit': true });
    const s = await scanGraphqlChecks(t, [graphqlBatchBruteForce], { only: ['Mutation.login', 'Mutation.verifyResetCode', 'Mutation.register', 'Mutation.requestPasswordReset'] });
    const found = s.of(graphqlBatchBruteForce);
    expect(found.map((f) => f.graphql?.operation).sort()).toEqual(['Mutation.login', 'Mutation.verifyResetCode']);
    const login = found.find((f) => f.graphql?.operation === 'Mutation.login');
    expectGraphqlFinding(login, 'Mutation.login', 'password');
    expect(login!.confidence).toBe('high');
    // Aliases of a mutation run one after the other, and the first wrong password (an error on a non-null field) ends the
    // operation: only the array batch shows the attempts evaluated.
    expect(login!.description).toContain(`evaluated ${ATTEMPTS} wrong passwords sent in one HTTP request as an array batch of ${ATTEMPTS} operations`);
    expect(login!.description).toMatch(/throttled at the 11th request in a row/);
    // Never one of the scan's identities: a user name the scan made up.
    expect(login!.description).toMatch(/pcl_[a-z0-9]{10}, a user name the scan made up/);
    expect(login!.evidence).not.toContain(t.users.alice.username);
    const code = found.find((f) => f.graphql?.operation === 'Mutation.verifyResetCode');
    expectGraphqlFinding(code, 'Mutation.verifyResetCode', 'code');
    expect(code!.description).toContain(`evaluated ${ATTEMPTS} wrong codes sent in one HTTP request as ${ATTEMPTS} aliases in one operation and as an array batch`);
    expect(code!.graphql?.query).toContain('try19: verifyResetCode');
    expect(code!.confidence).toBe('high');
    for (const c of [graphqlBatchBruteForce]) expect(s.sent(c)).toBeLessThanOrEqual(2 * c.budget);
  }, 30_000);

  it('stay silent when every batched attempt is counted, and when batches are refused', async () => {
    const [counted, hardened] = await Promise.all([target('hardened', { 'batching-limit': true }), target('hardened')]);
    const only = ['Mutation.login', 'Mutation.verifyResetCode'];
    const [a, b] = await Promise.all([scanGraphqlChecks(counted, [graphqlBatchBruteForce], { only }), scanGraphqlChecks(hardened, [graphqlBatchBruteForce], { only })]);
    expect(a.of(graphqlBatchBruteForce)).toEqual([]);
    expect(b.of(graphqlBatchBruteForce)).toEqual([]);
    // Two bursts per operation, no single attempts once the bursts were limited.
    expect(a.sent(graphqlBatchBruteForce)).toBe(4);
  }, 30_000);

  it('find private data answered without credentials, not the public catalogue or directory', async () => {
    const [open, closed] = await Promise.all([target('hardened', { 'unauthenticated-fields': true }), target('hardened')]);
    const [s, quiet] = await Promise.all([scanGraphqlChecks(open, [graphqlUnauthenticated], { only: READS }), scanGraphqlChecks(closed, [graphqlUnauthenticated], { only: READS })]);
    const found = s.of(graphqlUnauthenticated);
    expect(found.map((f) => f.graphql?.operation).sort()).toEqual(['Query.loans', 'Query.members']);
    const members = found.find((f) => f.graphql?.operation === 'Query.members');
    expectGraphqlFinding(members, 'Query.members', null);
    expect(members!.confidence).toBe('high');
    expect(members!.description).toMatch(/the e-mail or phone of key 1 \([^)]*@/);
    expect(members!.curl).not.toMatch(/authorization/i);
    expect(quiet.of(graphqlUnauthenticated)).toEqual([]);
  }, 30_000);
});
