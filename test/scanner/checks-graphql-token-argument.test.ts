// A token passed as a GraphQL argument (issue 28 item 5): Query.sharedCard(token) takes the share token
// (a JWT) Query.shareToken hands the caller. The JWT check tampers with header tokens only; the argument
// check finds the flaw, once per accepted variant, and stays silent on the hardened twin.

import { describe, expect, it } from 'vitest';
import { jwtArgument } from '../../electron/scanner/checks/api2-authentication/jwt-argument';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { graphqlTargets } from '../helpers/graphql-check-tests';

const target = graphqlTargets();
const OPS = ['Query.me', 'Query.shareToken', 'Query.sharedCard'];

describe('GraphQL token arguments', () => {
  it('finds a share token argument that accepts unsigned and altered JWTs', async () => {
    const t = await target('hardened', { 'share-token-unverified': true });
    const s = await scanGraphqlChecks(t, [jwtArgument], { only: OPS });
    expect(s.outcome.status).toBe('completed');
    const found = s.of(jwtArgument);
    expect(found.map((f) => f.parameter).sort()).toEqual(['token:alg-none', 'token:signature-altered', 'token:signature-stripped']);
    expect(found.every((f) => f.graphql?.operation === 'Query.sharedCard')).toBe(true);
    expect(found[0]!.description).toMatch(/while a made-up JWT is refused/);
    expect(s.sent(jwtArgument)).toBeLessThanOrEqual(jwtArgument.budget);
  }, 30_000);

  it('stays silent on the hardened twin, after sending the genuine token and a control', async () => {
    const t = await target('hardened');
    const s = await scanGraphqlChecks(t, [jwtArgument], { only: OPS });
    expect(s.outcome.status).toBe('completed');
    expect(s.of(jwtArgument)).toEqual([]);
    expect(s.sent(jwtArgument)).toBeGreaterThanOrEqual(2);
  }, 30_000);

  // The badge token names its holder by a username claim, not `sub`: a control that only changes `sub` would be
  // accepted by a server that never checks signatures, and hide the flaw.
  it('finds a badge token argument that reads a username claim without checking the signature', async () => {
    const t = await target('hardened', { 'badge-token-unverified': true });
    const s = await scanGraphqlChecks(t, [jwtArgument], { only: ['Query.badgeToken', 'Query.badge'] });
    expect(s.outcome.status).toBe('completed');
    const found = s.of(jwtArgument);
    expect(found.map((f) => f.parameter).sort()).toEqual(['token:alg-none', 'token:signature-altered', 'token:signature-stripped']);
    expect(found.every((f) => f.graphql?.operation === 'Query.badge')).toBe(true);
  }, 30_000);

  it('stays silent on a verified badge token', async () => {
    const t = await target('hardened');
    const s = await scanGraphqlChecks(t, [jwtArgument], { only: ['Query.badgeToken', 'Query.badge'] });
    expect(s.of(jwtArgument)).toEqual([]);
    expect(s.sent(jwtArgument)).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
