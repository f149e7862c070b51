// OS command injection behind a password argument, probed with the password a weak-credential check proved
// (issue 28): the GraphQL target's Query.mirrorReport runs its shell command only for an administrator who
// passes their password in its arguments, and the default-password flaw leaves one with its installation password.

import { afterAll, describe, expect, it } from 'vitest';
import { graphqlWeakCredentials } from '../../electron/scanner/checks/api2-authentication/graphql-weak-credentials';
import { graphqlCommandInjectionProvenPassword } from '../../electron/scanner/checks/api8-misconfiguration/graphql-command-injection-proven-password';
import { graphqlCommandInjection } from '../../electron/scanner/checks/api8-misconfiguration/graphql-injection';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { startGraphqlTarget, type GraphqlTarget } from '../targets/graphql/index';

const started: GraphqlTarget[] = [];
afterAll(async () => {
  await Promise.all(started.map((t) => t.close()));
});
async function target(flaws: Parameters<typeof startGraphqlTarget>[0]['flaws']) {
  const t = await startGraphqlTarget({ mode: 'hardened', flaws, attemptLimit: { limit: 1000, windowMs: 60_000 } });
  started.push(t);
  return t;
}
const CHECKS = [graphqlCommandInjection, graphqlWeakCredentials, graphqlCommandInjectionProvenPassword];
const OPS = ['Query.mirrorReport', 'Query.libraryInfo'];

describe('GraphQL command injection behind a proven password', () => {
  it('runs after the weak-credential check, sends the password it proved and proves the delay; the password stays masked', async () => {
    const t = await target({ 'default-password': true, 'guarded-command-injection': true });
    const s = await scanGraphqlChecks(t, CHECKS, { only: OPS });
    expect(s.outcome.status).toBe('completed');
    // Without the password the command never runs: the ordinary check finds nothing.
    expect(s.of(graphqlCommandInjection)).toEqual([]);
    expect(s.of(graphqlWeakCredentials)).toHaveLength(1);
    const [f, ...more] = s.of(graphqlCommandInjectionProvenPassword);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ parameter: 'host', severity: 'high', cwe: 'CWE-78', path: '/graphql' });
    expect(f!.description).toMatch(/Query\.mirrorReport runs shell commands injected through argument host/);
    expect(f!.description).toMatch(/the password of the account administrator that it proved at POST \/graphql Query\.mirrorReport \(api2-graphql-weak-credentials\)/);
    expect(`${f!.description}\n${f!.evidence}\n${f!.curl}`).not.toContain('admin123');
    expect(f!.evidence).toContain("[administrator's password]");
    expect(s.sent(graphqlCommandInjectionProvenPassword)).toBeLessThanOrEqual(graphqlCommandInjectionProvenPassword.budget);
  }, 60_000);

  it('stays silent on the hardened twin (no shell), with the same proven password', async () => {
    const t = await target({ 'default-password': true });
    const s = await scanGraphqlChecks(t, CHECKS, { only: OPS });
    expect(s.of(graphqlWeakCredentials)).toHaveLength(1);
    expect(s.of(graphqlCommandInjectionProvenPassword)).toEqual([]);
    // It did probe: the password opened the operation and the payloads went to host.
    expect(s.sent(graphqlCommandInjectionProvenPassword)).toBeGreaterThan(3);
  }, 60_000);

  it('sends nothing when no password was proven', async () => {
    const t = await target({ 'guarded-command-injection': true });
    const s = await scanGraphqlChecks(t, CHECKS, { only: OPS });
    expect(s.of(graphqlCommandInjectionProvenPassword)).toEqual([]);
    expect(s.sent(graphqlCommandInjectionProvenPassword)).toBe(0);
  }, 60_000);
});
