// API5:2023 Broken Function Level Authorization: every user's record, with personal data, listed to an
// ordinary user. Listing all accounts is an administrative function; an API that guards the listing
// (a request without credentials is refused) but hands it to any user has no role check behind it.

import { MODE_LABEL, type BaselineMode } from '../../baselines';
import { pathParamNames } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { authRefused, identityMarks, isObj, marksIn, type Json } from '../common/objects';
import { personalDataIn } from '../common/personal-data';
import { adminSignal, REFS } from './privileged-operations';

const USER_KEY = /^(username|user_?name|login|email|e_?mail|handle|nickname)$/i;
const LIST_KEYS = ['data', 'items', 'results', 'users', 'accounts', 'members', 'content', 'records', 'rows', 'list'];

/** The records of a listing: the answer itself when it is an array, else the array under a usual container key. */
function recordsOf(body: unknown): Json[] {
  const list = Array.isArray(body) ? body : isObj(body) ? LIST_KEYS.map((k) => body[k]).find(Array.isArray) : undefined;
  return (list ?? []).filter(isObj);
}

/** The value that names the account in a record (its user name or e-mail), if the record looks like a user. */
function accountName(record: Json): string | null {
  for (const [k, v] of Object.entries(record)) if (USER_KEY.test(k) && typeof v === 'string' && v.trim()) return v;
  return null;
}


export const userDirectory = defineCheck({
  id: 'api5-user-directory',
  title: "Every user's personal data listed to an ordinary user",
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-285',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 1,
  needsKey2: false,
  description:
    'For reads without path parameters (documented or found by route discovery) that a request without credentials is refused (401/403): the ' +
    'answer to the ordinary identity (the lower-privileged role, else key 1). Finding: it lists user accounts (records with a user name or ' +
    'e-mail, at least two different ones) and at least one record that is not the caller\'s carries personal or secret data (an e-mail ' +
    'address, a phone number, a postal address, a password or token...). Operations named as administrative are left to ' +
    'api5-bfla-admin-operation.',
  coverage:
    'Only lists at the top of the answer or under a usual container key (data, items, results, users...); a directory meant for every user ' +
    '(a team\'s members and their work e-mail addresses) is reported too, and should be marked accepted where that is the design.',
  remediation:
    'Reserve the listing of all accounts to administrators (a role check on the route), and give ordinary users only the fields of other ' +
    'users that the product needs them to see (a public profile without contact data).',
  references: REFS,
  appliesTo: (e) => e.method === 'GET' && !e.graphql && pathParamNames(e.path).length === 0 && adminSignal(e) === null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const mode: BaselineMode = ctx.identities.lower ? 'lower' : 'key1';
    const anon = await ctx.baseline('anonymous');
    if (!authRefused(anon)) return;
    const answer = await ctx.baseline(mode);
    if (!answer?.ok) return;
    const records = recordsOf(answer.json());
    const names = new Set(records.map(accountName).filter((n): n is string => n !== null));
    if (names.size < 2) return;
    const mine = identityMarks(ctx, mode === 'lower' ? 4 : 1);
    const exposed = records
      .filter((r) => accountName(r) !== null && !(mine.length && marksIn(mine, JSON.stringify(r)).length))
      .map((r) => ({ record: r, data: personalDataIn(r) }))
      .find((x) => x.data !== null);
    if (!exposed) return;
    const who = mode === 'lower' ? MODE_LABEL.lower : ctx.identityName(1);
    yield {
      description:
        `${describeEndpoint(ep)} lists ${records.length} user accounts to ${who}, an ordinary user, while a request without credentials is ` +
        `refused (HTTP ${anon!.status}). The records of other users carry personal data: ${exposed.data!.kind} (${exposed.data!.field} of the ` +
        `account ${accountName(exposed.record)}). Listing every account is an administrative function; any user can harvest everyone's data.`,
      notes: [`Accounts listed: ${[...names].slice(0, 5).join(', ')}${names.size > 5 ? ', ...' : ''}.`],
      exchanges: [
        { label: 'Baseline (no credentials)', exchange: anon! },
        { label: `Attack: the listing as ${who}`, exchange: answer },
      ],
      reproduce: answer,
    };
  },
});
