// API8:2023 OS command injection through a GraphQL operation that runs its command only for a caller who
// passes an account's password in its own arguments (an admin's diagnostics). The ordinary check cannot get
// past that guard; once a weak-credential check has proven an account's password (at the end of the scan,
// where its guesses may trip a lockout), this one sends that password and probes the other arguments with
// the same time-based proof. Correct passwords only: no failed attempt, so no lockout.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { mutate, type PreparedRequest } from '../../requests';
import { credentialArguments } from '../api2-authentication/graphql-weak-credentials';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { graphqlAnswer, operationOf } from '../common/graphql';
import { argumentPoints, mayInject } from '../common/graphql-inputs';
import { AS_KEY1, type PointSource } from '../common/input-points';
import { isObj } from '../common/objects';
import { OWASP_API8, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import { TIME_CONFIRM_BUDGET, timeBased } from '../common/time-proof';
import type { ProvenPassword } from '../types';
import { commandFinding, commandPoints, commandTemplates, CMD_POINTS, CMD_TEMPLATES } from './command-injection';

/** The password proven on this operation first, then one proven elsewhere (an account's password opens it anywhere). */
export function provenFor(endpoint: Endpoint, proven: readonly ProvenPassword[]): ProvenPassword | null {
  return proven.find((p) => p.endpointId === endpoint.id) ?? proven[0] ?? null;
}

/** What the operation answered: its field's value and its errors' messages (the durations and ids aside). */
function answerOf(ex: Exchange | null, field: string): string | null {
  const json = ex ? graphqlAnswer(ex) : null;
  if (!isObj(json)) return null;
  const data = isObj(json.data) ? json.data[field] : undefined;
  const errors = Array.isArray(json.errors) ? json.errors.map((e) => (isObj(e) ? String(e.message ?? '') : '')) : [];
  return JSON.stringify({ data: data ?? null, errors });
}

export const graphqlCommandInjectionProvenPassword = defineCheck({
  id: 'api8-graphql-command-injection-proven-password',
  title: 'OS command injection through GraphQL arguments, behind a password the scan proved',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-78',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  usesProvenPasswords: true,
  protocols: ['graphql'],
  budget: 1 + CMD_POINTS * CMD_TEMPLATES.length + TIME_CONFIRM_BUDGET,
  description:
    'On a GraphQL query with an account-name and a password argument (an operation guarded by credentials in its own arguments), after ' +
    'the weak-credential checks: when one of them proved an account\'s password in this scan (on this operation first, else on another), ' +
    'sends key 1\'s request with that account and password. Only when the answer differs from key 1\'s own (the password opened ' +
    'something), probes the other String arguments as api8-graphql-command-injection does: shell separators with a sleep, the delay ' +
    'proven against the re-timed request with the password, again at a second delay, and not with no delay. Finding as that check\'s; ' +
    'the password is masked in the evidence.',
  coverage:
    'Only passwords the scan proved (weak or default ones), only queries (a mutation guarded so would run with the account\'s rights and ' +
    'write), and only where the password changes the answer. Credentials inside input objects are not filled.',
  remediation:
    'Do not build shell commands from GraphQL arguments: call programs with an argument list (no shell), or use a library instead of a ' +
    'command; validate arguments against an allow-list. Guard privileged operations with the session\'s role, not a password argument, ' +
    'and remove default passwords.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/78.html', OWASP_GRAPHQL_CHEAT_SHEET, 'https://cheatsheetseries.owasp.org/cheatsheets/OS_Command_Injection_Defense_Cheat_Sheet.html'],
  appliesTo: (e) => e.graphql?.kind === 'query' && credentialArguments(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const args = credentialArguments(ep);
    const proven = provenFor(ep, ctx.provenPasswords?.() ?? []);
    if (!args || !proven || !mayInject(ctx, ep)) return;
    const request = await ctx.baselineRequest(ep, 'key1');
    const body = request && isObj(request.bodyValue) ? request.bodyValue : null;
    if (!request || !body) return;
    const field = operationOf(ep).field;
    const opened: PreparedRequest = mutate(request, {
      bodyValue: { ...body, variables: { ...(isObj(body.variables) ? body.variables : {}), [args.user]: proven.account, [args.password]: proven.password } },
    });
    const plain = await ctx.baseline('key1');
    if (ctx.budgetLeft() <= 0) return;
    const withPassword = await ctx.sendPrepared(opened, AS_KEY1);
    const seen = answerOf(withPassword, field);
    // The same answer as without the password: the ordinary check already probed what this one would.
    if (!withPassword.response || withPassword.status >= 500 || seen === null || seen === answerOf(plain, field)) return;
    const points = commandPoints(argumentPoints(ep, opened).filter((p) => p.name !== args.user && p.name !== args.password));
    if (!points.length) return;
    const src: PointSource = { request: opened, points, get: async (name) => points.find((p) => p.name === name) ?? null, unchanged: async () => opened };
    const found = await timeBased(ctx, src, withPassword, points, commandTemplates);
    if (!found) return;
    const draft = commandFinding(ep, found);
    const where = ctx.allEndpoints.find((e) => e.id === proven.endpointId);
    yield {
      ...draft,
      description:
        `${draft.description} The operation runs it only for a caller who passes an account's password in ${args.user} and ${args.password}: ` +
        `the scan sent the password of the account ${proven.account} that it proved at ${where ? describeEndpoint(where) : 'another operation'} ` +
        `(${proven.checkId}), masked here. Whoever guesses that password runs commands on the server.`,
      notes: [...(draft.notes ?? []), `Account ${proven.account}, password proven by ${proven.checkId}; it is masked in the exchanges.`],
    };
  },
});
