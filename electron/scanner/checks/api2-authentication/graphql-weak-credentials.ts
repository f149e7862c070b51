// API2:2023: an account that opens with a common or default password, through any GraphQL operation that
// takes an account name and a password — a login mutation, or a query guarded by credentials in its own
// arguments (an admin's diagnostics). Chosen by its arguments, not its name; proven by its answers: the
// guess is answered otherwise than two made-up passwords for the same account, and otherwise than the
// same guess for a made-up account (so a password-strength meter, which ignores the account, is no finding).

import type { Endpoint, EndpointParameter } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { argumentsOf, graphqlAnswer, graphqlEndpoints, namedType, operationOf, operationVariables, resolved, sendGraphql } from '../common/graphql';
import { mayInject } from '../common/graphql-inputs';
import { forEachLeaf, maskBody } from '../common/objects';
import { OWASP_API2 } from '../common/references';
import { wordsOf } from '../../../importer/default-flags';
import type { CheckContext } from '../types';
import { throttleSign } from './brute-force';
import { attemptOutcome } from './graphql-batch-brute-force';
import { JWT_VALUE } from './token-exposure';
import { ADMIN_CVSS, ADMIN_NAME, COMMON_PASSWORDS, DEFAULT_NAMES } from './weak-credentials';

const PASSWORD_ARG = / (password|passwd|pwd|passphrase) $/;
const FRESH_SECRET = /^ (new|confirm|confirmation|repeat|next|old|current) /;
const USER_ARG = / (username|user name|user|login|account|handle) $/;
/** Operations that set a password rather than check one. */
const SETS_PASSWORD = / (register|registration|sign ?up|create|add|new|update|change|set|reset|delete|remove|invite|edit) /;
const MAX_ACCOUNTS = 3;
const NAME_KEY = /^(username|user_?name|login|handle|account|user|name)$/i;

interface CredentialArguments {
  user: string;
  password: string;
}

/** The top-level String arguments that take an account name and its password; null for operations that set passwords. */
export function credentialArguments(e: Endpoint): CredentialArguments | null {
  const op = e.graphql;
  if (!op || op.kind === 'subscription' || SETS_PASSWORD.test(wordsOf(op.field))) return null;
  const text = (p: EndpointParameter) => namedType(op.variable_types[p.name] ?? '') === 'String';
  const args = argumentsOf(e).filter((p) => p.name in op.variable_types && text(p));
  const password = args.find((p) => PASSWORD_ARG.test(wordsOf(p.name)) && !FRESH_SECRET.test(wordsOf(p.name)));
  const user = args.find((p) => USER_ARG.test(wordsOf(p.name)));
  return password && user ? { user: user.name, password: password.name } : null;
}

/** Administrator-like account names in key 1's answers to the GraphQL queries that need no arguments, then the default names. */
async function accountNames(ctx: CheckContext): Promise<{ name: string; source: string }[]> {
  const own = new Set<string>();
  for (const id of [ctx.identities.key1, ctx.identities.key2, ctx.identities.privileged, ctx.identities.lower]) for (const v of Object.values(id?.values ?? {})) own.add(v.toLowerCase());
  const out: { name: string; source: string }[] = [];
  const add = (name: string, source: string) => {
    if (own.has(name.toLowerCase()) || out.some((x) => x.name.toLowerCase() === name.toLowerCase())) return;
    out.push({ name, source });
  };
  const reads = graphqlEndpoints(ctx.allEndpoints).filter((e) => operationOf(e).kind === 'query' && !Object.values(operationOf(e).variable_types).some((t) => t.endsWith('!')));
  for (const e of reads.slice(0, 20)) {
    const ex = await ctx.baseline('key1', e);
    const json = ex?.ok ? ex.json() : undefined;
    if (json === undefined) continue;
    forEachLeaf(json, (v, _path, key) => {
      if (typeof v === 'string' && NAME_KEY.test(key) && /^[\w.-]{2,40}$/.test(v) && ADMIN_NAME.test(v)) add(v, `seen in the answer of ${describeEndpoint(e)}`);
    });
  }
  for (const n of DEFAULT_NAMES) add(n, 'a common default name');
  return out.slice(0, MAX_ACCOUNTS);
}

export const graphqlWeakCredentials = defineCheck({
  id: 'api2-graphql-weak-credentials',
  title: 'Account opens with a common password through a GraphQL operation (weak or default credential)',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-521',
  confidence: 'high',
  cvss: ADMIN_CVSS,
  kind: 'active',
  measuresThrottling: true,
  safety: 'intrusive',
  scope: 'endpoint',
  last: true,
  budget: MAX_ACCOUNTS * (COMMON_PASSWORDS.length + 3),
  needsKey2: false,
  protocols: ['graphql'],
  techniques: ['API2.weak-credentials'],
  description:
    'On a GraphQL query or mutation with a String argument for an account name (username, user, login...) and one for its password ' +
    '(a login, or an operation guarded by credentials in its own arguments; never one that registers, sets, changes or resets a password), ' +
    `tries the ${COMMON_PASSWORDS.length} common and default passwords of api2-weak-credentials for at most ${MAX_ACCOUNTS} accounts: ` +
    'administrator-like names in key 1\'s answers to the queries that need no arguments, then admin and administrator (never the scan\'s ' +
    'own identities), without credentials, the other arguments as key 1\'s request has them. Two made-up passwords for the account go first ' +
    'and must be answered alike. Finding: a guess makes the operation\'s field resolve (no error for it) with another answer than the ' +
    'made-up passwords got, and the same guess for a made-up account is answered otherwise still (the account and its password together ' +
    'made the difference). Stops at any sign of a throttle or lockout. A password it proves is handed to the checks that run after it ' +
    '(api8-graphql-command-injection-proven-password) and masked in every finding from then on.',
  coverage:
    'Default and top-of-list passwords only. Credentials inside input objects, and accounts whose names never appear in answers (other than ' +
    'admin and administrator), are not tried. Mutations only where the design\'s safety rule lets payloads reach them.',
  remediation:
    'Remove default accounts and passwords at installation (force a change on first login), refuse common and breached passwords, limit ' +
    'failed attempts per account and per client, and guard privileged operations with the session\'s role rather than a password argument.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/521.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html'],
  appliesTo: (e) => credentialArguments(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const args = credentialArguments(ep);
    if (!args || !mayInject(ctx, ep)) return;
    const op = operationOf(ep);
    const base = await operationVariables(ctx, ep);
    const send = (user: string, password: string) => sendGraphql(ctx, ep, { query: op.document, variables: { ...base, [args.user]: user, [args.password]: password } }, { auth: { kind: 'none' } });
    const outcome = (ex: Exchange) => attemptOutcome(graphqlAnswer(ex), op.field);
    const stopped = (ex: Exchange) => throttleSign(ex) ?? (outcome(ex).kind === 'throttled' ? outcome(ex).signature : null);
    for (const account of await accountNames(ctx)) {
      if (ctx.budgetLeft() < COMMON_PASSWORDS.length / 2) return;
      const controls = [await send(account.name, `Pc-${ctx.random.alnum(14)}-7q`), await send(account.name, `Pc-${ctx.random.alnum(14)}-8q`)];
      const sign = controls.map(stopped).find((s) => s !== null);
      if (sign) {
        ctx.note(`${describeEndpoint(ep)}: common passwords not tried further: the API limits attempts (${sign}).`);
        return;
      }
      const [c1, c2] = controls.map(outcome);
      // Made-up passwords must be judged, and alike: otherwise the answer moves by itself and says nothing.
      if (c1!.kind !== 'evaluated' || c1!.signature !== c2!.signature || controls.some((c) => c.status >= 500)) continue;
      const passwords = [...new Set(COMMON_PASSWORDS.map((p) => p.replace('{user}', account.name)))];
      for (const password of passwords) {
        if (ctx.budgetLeft() <= 0) return;
        const ex = await send(account.name, password);
        const s = stopped(ex);
        if (s) {
          ctx.note(`${describeEndpoint(ep)}: common passwords not tried further: the API limits attempts (${s}).`);
          return;
        }
        const o = outcome(ex);
        if (o.kind !== 'evaluated' || o.signature === c1!.signature || ex.status >= 500 || !resolved(graphqlAnswer(ex), op.field)) continue;
        if (ctx.budgetLeft() <= 0) return;
        const stranger = await send(`pcl_${ctx.random.alnum(10).toLowerCase()}`, password);
        if (outcome(stranger).signature === o.signature) continue;
        const masked = `${password.slice(0, 2)}${'*'.repeat(Math.max(0, password.length - 2))}`;
        const tokens = new Set<string>(ex.body.match(new RegExp(JWT_VALUE.source, 'g')) ?? []);
        forEachLeaf(ex.json(), (v, _p, key) => void (/token|session|jwt/i.test(key) && typeof v === 'string' && v.length >= 16 && tokens.add(v)));
        yield {
          parameter: args.password,
          description:
            `${describeEndpoint(ep)} accepted the account ${account.name} (${account.source}) with a common or default password (${masked}, ` +
            `${password.length} characters, from the scan's list of ${COMMON_PASSWORDS.length}), without credentials: its field ${op.field} came back ` +
            `where two made-up passwords for the same account were answered otherwise (${c1!.signature.slice(0, 80)}), and the same password for a ` +
            'made-up account was answered otherwise too. Whoever tries the usual passwords gets in as that account' +
            (ADMIN_NAME.test(account.name) ? ', which looks like an administrator\'s.' : '.'),
          notes: [`The account name: ${account.source}. Credentials in the answer are masked below.`],
          exchanges: [
            { label: 'Control: a made-up password', exchange: controls[0]! },
            { label: 'Attack: a common password', exchange: maskBody(ex, [...tokens].map((v) => ({ value: v, mask: `${v.slice(0, 4)}…[masked by Portcullis]` }))) },
            { label: 'Control: the same password for a made-up account', exchange: stranger },
          ],
          reproduce: ex,
        };
        // After the finding is built (its evidence shows what was sent, masked as above): later checks may use it.
        ctx.provePassword?.({ account: account.name, password, endpointId: ep.id, checkId: ctx.check.id });
        return;
      }
    }
  },
});
