// API2:2023: accounts that open with a common or default password. A short list (tens, not a
// dictionary) is tried on the API's login operation for user names the scan learned from the API's
// own answers (administrator-like names and e-mail addresses) and the usual default names, never
// for the scan's own identities, stopping at the first sign of a throttle or lockout.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { failedInBody } from '../../identities/accounts';
import { mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { forEachLeaf, isObj, looksLikeError, maskBody, schemaShape } from '../common/objects';
import { OWASP_API2 } from '../common/references';
import type { CheckContext } from '../types';
import { authRoute, throttleSign, USER_FIELD } from './brute-force';
import { JWT_VALUE } from './token-exposure';

/** Passwords that ship as defaults or top every leaked-password list; `{user}` is the account's own name. */
export const COMMON_PASSWORDS = [
  'admin', 'admin123', 'password', 'Password1', 'password123', '123456', '12345678', 'changeme', 'letmein', 'welcome',
  'qwerty', 'secret', 'admin1234', 'root', 'toor', '{user}', '{user}123',
];
const MAX_ACCOUNTS = 3;
/** Administrator-like account names: the accounts whose default passwords matter most. */
export const ADMIN_NAME = /^(admin|administrator|root|superuser|sysadmin|su|sa|system|webmaster|manager|owner|operator|ops|support)$|admin/i;
export const DEFAULT_NAMES = ['admin', 'administrator'];
const EMAIL = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,24}/g;
/** Documentation and reserved domains: addresses there are examples, not accounts. */
const EXAMPLE_DOMAIN = /(^|\.)(example\.(com|org|net)|test|invalid|localhost|local)$/i;
const NAME_KEY = /^(username|user_?name|login|handle|account|user)$/i;

interface Candidate {
  name: string;
  /** An e-mail address, for fields that take one. */
  email: boolean;
  admin: boolean;
  /** Where the scan learned it. */
  source: string;
}

const localPart = (v: string) => v.split('@')[0]!;

/** The values that are the scan's own: its identities' names and addresses, and their domains. */
function ownValues(ctx: CheckContext): { values: Set<string>; domains: Set<string> } {
  const values = new Set<string>();
  const domains = new Set<string>();
  for (const id of [ctx.identities.key1, ctx.identities.key2, ctx.identities.privileged, ctx.identities.lower]) {
    for (const v of Object.values(id?.values ?? {})) {
      values.add(v.toLowerCase());
      if (v.includes('@')) domains.add(v.split('@')[1]!.toLowerCase());
    }
  }
  return { values, domains };
}

/** User names and addresses in the answers the scan already has (key 1's baselines of GET operations). */
async function learnedNames(ctx: CheckContext): Promise<{ emails: Map<string, string>; names: Map<string, string> }> {
  const emails = new Map<string, string>();
  const names = new Map<string, string>();
  const reads = ctx.allEndpoints.filter((e) => e.method === 'GET' && !e.graphql).slice(0, 40);
  for (const e of reads) {
    const ex = await ctx.baseline('key1', e);
    if (!ex?.ok) continue;
    const where = describeEndpoint(e);
    for (const m of ex.body.slice(0, 200_000).match(EMAIL) ?? []) if (!emails.has(m.toLowerCase())) emails.set(m.toLowerCase(), where);
    const json = ex.json();
    if (json !== undefined) {
      forEachLeaf(json, (v, _path, key) => {
        if (typeof v === 'string' && NAME_KEY.test(key) && /^[\w.-]{2,40}$/.test(v) && !names.has(v.toLowerCase())) names.set(v.toLowerCase(), where);
      });
    }
  }
  return { emails, names };
}

/** Administrator-like accounts first: learned ones, then default names (or admin@ each domain seen in answers). */
async function candidates(ctx: CheckContext, userField: string, ep: Endpoint): Promise<Candidate[]> {
  const schema = schemaShape(ep.request_body?.schema ?? null).props[userField];
  const takesEmail = /mail/i.test(userField) || schema?.format === 'email';
  const takesName = !takesEmail;
  const own = ownValues(ctx);
  const learned = await learnedNames(ctx);
  const out: Candidate[] = [];
  const add = (c: Candidate) => {
    if (own.values.has(c.name.toLowerCase()) || out.some((x) => x.name.toLowerCase() === c.name.toLowerCase())) return;
    out.push(c);
  };
  for (const [e, source] of learned.emails) {
    const domain = e.split('@')[1]!;
    if (own.domains.has(domain) || EXAMPLE_DOMAIN.test(domain) || !ADMIN_NAME.test(localPart(e))) continue;
    if (takesEmail) add({ name: e, email: true, admin: true, source: `seen in the answer of ${source}` });
    else add({ name: localPart(e), email: false, admin: true, source: `the name of an address seen in the answer of ${source}` });
  }
  if (takesName) {
    for (const [n, source] of learned.names) if (ADMIN_NAME.test(n)) add({ name: n, email: false, admin: true, source: `seen in the answer of ${source}` });
    for (const n of DEFAULT_NAMES) add({ name: n, email: false, admin: true, source: 'a common default name' });
  } else {
    const domains = [...new Set([...learned.emails.keys()].map((e) => e.split('@')[1]!))].filter((d) => !own.domains.has(d) && !EXAMPLE_DOMAIN.test(d));
    for (const d of domains.slice(0, 2)) add({ name: `admin@${d}`, email: true, admin: true, source: `the administrator name at ${d}, a domain seen in the API's answers` });
  }
  return out.slice(0, MAX_ACCOUNTS);
}

/** A login answer that signs the caller in: 2xx, no error, and a credential (a JWT, a token field or a cookie). */
function signsIn(ex: Exchange): boolean {
  if (!ex.ok || failedInBody(ex) || looksLikeError(ex)) return false;
  if (JWT_VALUE.test(ex.body) || ex.header('set-cookie')) return true;
  let token = false;
  const json = ex.json();
  if (json !== undefined) forEachLeaf(json, (v, _p, key) => void (token ||= /token|session|jwt|auth/i.test(key) && String(v).length >= 16));
  return token;
}

function credentialValues(ex: Exchange): string[] {
  const out = new Set<string>(ex.body.match(new RegExp(JWT_VALUE.source, 'g')) ?? []);
  const json = ex.json();
  if (json !== undefined) forEachLeaf(json, (v, _p, key) => void (/token|session|jwt|auth/i.test(key) && String(v).length >= 16 && out.add(String(v))));
  return [...out];
}

export const ADMIN_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:N';
const USER_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:N';

export const weakCredentials = defineCheck({
  id: 'api2-weak-credentials',
  title: 'Account opens with a common password (weak or default credential)',
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
  budget: MAX_ACCOUNTS * (COMMON_PASSWORDS.length + 1),
  needsKey2: false,
  techniques: ['API2.weak-credentials'],
  description:
    `On a login operation (a POST with a user field and a password field), tries ${COMMON_PASSWORDS.length} common and default passwords ` +
    '(admin, admin123, password, changeme, the account\'s own name...) for at most ' +
    `${MAX_ACCOUNTS} accounts: administrator-like names and e-mail addresses seen in the API's own answers (key 1's baselines), else the ` +
    'default names admin and administrator, or admin@ a domain seen in the answers where the login takes an e-mail. Never the scan\'s own ' +
    'identities. A made-up password for the same account is sent first as a control. Finding: a guess is answered 2xx with a credential (a ' +
    'JWT, a token field or a cookie) where the control is refused; high for an administrator-like account. Stops at a 429, 423 or 503, a ' +
    'Retry-After, a lockout message or any change in how wrong passwords are answered.',
  coverage:
    'Finds default and top-of-list passwords only, not weak ones in general; accounts whose names never appear in answers are tried only ' +
    'under the default names. Logins with a second factor, a CAPTCHA or a per-account lockout stop the check. The guesses may lock the ' +
    'accounts tried where a lockout exists.',
  remediation:
    'Remove default accounts and passwords at installation (force a change on first login), refuse passwords from breached and common ' +
    'lists at sign-up and change (NIST SP 800-63B), and limit failed logins per account and per client.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/521.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html#implement-proper-password-strength-controls'],
  appliesTo: (e) => e.flags.includes('BKEN_AUTH') && authRoute(e)?.kind === 'login' && pathParamNames(e.path).length === 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const route = authRoute(ep);
    if (route?.kind !== 'login') return;
    const props = Object.keys(schemaShape(ep.request_body?.schema ?? null).props);
    const userField = props.find((p) => USER_FIELD.test(p));
    if (!userField) return;
    const base = await ctx.prepare(ep, 1, 'write');
    if (!base || !isObj(base.bodyValue)) return;
    const accounts = await candidates(ctx, userField, ep);
    if (!accounts.length) {
      ctx.note(`${describeEndpoint(ep)}: common passwords not tried: no administrator-like account name was seen in the API's answers.`);
      return;
    }
    const body = base.bodyValue;
    const attempt = (name: string, password: string): Promise<Exchange> =>
      ctx.sendPrepared(mutate(base, { bodyValue: { ...body, [userField]: name, [route.secret]: password } }) as PreparedRequest, { kind: 'none' });
    for (const account of accounts) {
      if (ctx.budgetLeft() <= COMMON_PASSWORDS.length / 2) return;
      const control = await attempt(account.name, `Pc-${ctx.random.alnum(14)}-7q`);
      const stop = throttleSign(control);
      if (stop) {
        ctx.note(`${describeEndpoint(ep)}: common passwords not tried further: the API limits attempts (${stop}).`);
        return;
      }
      // A login that lets a made-up password in checks nothing this test can tell apart.
      if (!control.response || control.status >= 500 || signsIn(control)) continue;
      const passwords = [...new Set(COMMON_PASSWORDS.map((p) => p.replace('{user}', localPart(account.name))))];
      for (const password of passwords) {
        if (ctx.budgetLeft() <= 0) return;
        const ex = await attempt(account.name, password);
        const sign = throttleSign(ex);
        if (sign) {
          ctx.note(`${describeEndpoint(ep)}: common passwords not tried further: the API limits attempts (${sign}).`);
          return;
        }
        if (signsIn(ex)) {
          const masked = `${password.slice(0, 2)}${'*'.repeat(Math.max(0, password.length - 2))}`;
          yield {
            parameter: route.secret,
            cvss: account.admin ? ADMIN_CVSS : USER_CVSS,
            description:
              `${describeEndpoint(ep)} signed in the account ${account.name} (${account.source}) with a common or default password ` +
              `(${masked}, ${password.length} characters, from the scan's list of ${COMMON_PASSWORDS.length}) and answered ${ex.status} with a credential, ` +
              `while a made-up password for the same account is refused (HTTP ${control.status}). ` +
              (account.admin ? 'The account looks like an administrator\'s: whoever tries the usual passwords takes the API over.' : 'Whoever tries the usual passwords takes the account over.'),
            notes: [`The account name: ${account.source}. The credential in the answer is masked below.`],
            exchanges: [
              { label: 'Control: a made-up password', exchange: control },
              { label: 'Attack: a common password', exchange: maskBody(ex, credentialValues(ex).map((v) => ({ value: v, mask: `${v.slice(0, 4)}…[masked by Portcullis]` }))) },
            ],
            reproduce: ex,
          };
          break;
        }
        // A wrong password answered differently from the control: a lockout or a challenge began.
        if (ex.status !== control.status) break;
      }
    }
  },
});
