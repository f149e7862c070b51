// API1:2023 Broken Object Level Authorization through GraphQL arguments (issue 20). Key 2's objects are
// learnt from what key 2 itself reads (its "me"-like and list queries, which need no argument; each
// object says its type through __typename) and not key 1; then each query that takes an object's id is
// asked by key 2 (its own view) and by key 1 with that id. Reads only.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { containedIn, distinctiveValues, sameData } from '../../similarity';
import { defineCheck } from '../common/helpers';
import { graphqlAnswer, operationName, operationOf, operationVariables } from '../common/graphql';
import {
  addressedTypes,
  fieldText,
  gotContent,
  identityMarksOf,
  identityValuesOf,
  idVariable,
  isMeQuery,
  meObject,
  objectArguments,
  readableIds,
  sendOperation,
} from '../common/graphql-objects';
import { asKey, isUserRef, marksIn, rolePrivileged } from '../common/objects';
import { OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { READ_CVSS, REFS, REMEDIATION } from './id-swaps';

const MAX_OPERATIONS = 8;
/** Per operation: key 2's read, key 1's attack, the anonymous read, key 1's own object. */
const PER_OPERATION = 4;

/** The value a user-reference argument takes for key 2 (its id, username or e-mail). */
function userValue(values: Record<string, string>, name: string): string | null {
  const n = name.toLowerCase();
  if (/e-?mail/.test(n)) return values.email ?? null;
  if (/(name|login|handle)$/.test(n)) return values.username ?? values.login ?? null;
  return values.id ?? values.user_id ?? values.userId ?? values.uid ?? values.sub ?? null;
}

interface Victim {
  id: string;
  /** How the id is known to be key 2's. */
  how: string;
  listing: Exchange | null;
  /** The operation key 2 read it with ("Query.myLoans"). */
  source: string | null;
}

/**
 * Key 2's objects of the types: those in its "me"-like answer that are not in key 1's (whoever else
 * lists them, they are key 2's own), then those its other reads show and key 1's reads do not.
 */
async function victimIds(ctx: CheckContext, ep: Endpoint, param: string, types: string[]): Promise<{ victims: Victim[]; ownIds: string[] }> {
  const [mine, theirs] = [await readableIds(ctx, 2, types, param), await readableIds(ctx, 1, types, param)];
  const theirsOwn = new Set([...theirs].filter(([, r]) => isMeQuery(r.read.endpoint)).map(([id]) => id));
  const victims: Victim[] = [...mine.entries()]
    .filter(([id, r]) => (isMeQuery(r.read.endpoint) ? !theirsOwn.has(id) : !theirs.has(id)))
    .map(([id, r]) => {
      const source = operationName(r.read.endpoint);
      const how = isMeQuery(r.read.endpoint) ? `${param}=${id} is in key 2's own ${source} answer (its own profile)` : `${param}=${id} is in key 2's own ${source} and not in key 1's`;
      return { id, how, listing: r.read.exchange, source };
    });
  if (isUserRef(param)) {
    const [v2, v1] = [userValue(await identityValuesOf(ctx, 2), param), userValue(await identityValuesOf(ctx, 1), param)];
    if (v2 && v2 !== v1 && !theirsOwn.has(v2) && !victims.some((v) => v.id === v2)) victims.push({ id: v2, how: `${param}=${v2} is key 2's own user`, listing: null, source: null });
  }
  const own = [...theirs].filter(([id]) => !mine.has(id)).sort(([, a], [, b]) => Number(isMeQuery(b.read.endpoint)) - Number(isMeQuery(a.read.endpoint)));
  return { victims, ownIds: own.map(([id]) => id) };
}

export const graphqlBola = defineCheck({
  id: 'api1-graphql-bola',
  title: "Another user's object readable through a GraphQL argument",
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  confidence: 'high',
  cvss: READ_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 12 + MAX_OPERATIONS * PER_OPERATION,
  needsKey2: true,
  protocols: ['graphql'],
  techniques: ['API1.1', 'API1.3'],
  description:
    'Learns key 2\'s objects from what key 2 itself reads: the queries that need no argument ("me"-like ones first, then lists) are sent ' +
    'as key 2 and as key 1 with __typename added to every selection, and an object of the type a query addresses (its return type, or the ' +
    'resource its argument names: loanId -> Loan) that key 2 reads and key 1 does not is key 2\'s; for user arguments (userId, username, ' +
    'email) key 2\'s own identity counts too. Each query with an ID-typed or id-named argument is then asked by key 2 with that id (its ' +
    'own view), by key 1 with the same id, without credentials, and by key 1 with its own object\'s id. Finding: key 1\'s answer resolves ' +
    'the field with ≥ 90 % of the values key 2 reads, or with key 2\'s identity; not when the request without credentials gets the same ' +
    'data (public) or key 1\'s own object reads the same (the id makes no difference). Queries only.',
  coverage:
    'Needs a second key, and an argument-free query through which key 2 reads its own objects (or its identity, for user arguments): ids ' +
    'key 2 cannot list are not tried. Mutations that take ids are not sent (they would change key 2\'s data). A key 1 whose "me"-like ' +
    'answer names an administrator role is never the attacker.',
  remediation:
    `${REMEDIATION} In GraphQL, authorize in every resolver that loads an object by an argument (and in nested resolvers), not only at the ` +
    'root: the same object is often reachable through several fields.',
  references: [...REFS, OWASP_GRAPHQL_CHEAT_SHEET],
  appliesTo: (e) => e.graphql?.kind === 'query' && e.flags.includes('BOLA') && objectArguments(e).length > 0,
  async *run(ctx) {
    if (rolePrivileged(await meObject(ctx, 1))) {
      ctx.note('GraphQL BOLA: key 1 looks like an administrator (its "me"-like answer names the role), so reading other users\' objects may be its job; not tested.');
      return;
    }
    const marks2 = await identityMarksOf(ctx, 2, [1]);
    const marks1 = await identityMarksOf(ctx, 1, [2]);
    for (const ep of ctx.endpoints.slice(0, MAX_OPERATIONS)) {
      if (ctx.budgetLeft(ep) < 2) continue;
      const finding = await tryOperation(ctx, ep, marks2, marks1);
      if (finding) yield finding;
    }
  },
});

async function tryOperation(ctx: CheckContext, ep: Endpoint, marks2: string[], marks1: string[]): Promise<FindingDraft | null> {
  const op = operationOf(ep);
  const name = operationName(ep);
  const field = op.field;
  for (const param of objectArguments(ep).slice(0, 2)) {
    const { victims, ownIds } = await victimIds(ctx, ep, param.name, addressedTypes(ep, param));
    const victim = victims[0];
    if (!victim) continue;
    const base = await operationVariables(ctx, ep, 2);
    const vars = { ...base, [param.name]: idVariable(ep, param, victim.id) };
    const own = await sendOperation(ctx, ep, vars, asKey(2));
    const ownAnswer = graphqlAnswer(own);
    const ownText = fieldText(ownAnswer, field);
    // Something worth protecting: key 2 reads it, with at least two distinctive values.
    if (!gotContent(ownAnswer, field) || distinctiveValues(JSON.parse(ownText) as unknown, 4).length < 2) continue;
    if (ctx.budgetLeft(ep) <= 0) return null;
    const attack = await sendOperation(ctx, ep, vars, asKey(1));
    const attackAnswer = graphqlAnswer(attack);
    if (!gotContent(attackAnswer, field)) continue;
    const attackText = fieldText(attackAnswer, field);
    const same = containedIn(attackText, ownText, 0.9);
    const leaked = marksIn(marks2, attackText);
    if (!same && !leaked.length) continue;
    // Only the identity as proof, and the object names key 1 as well (a message between the two): it may be key 1's to read.
    if (victim.listing === null && marksIn(marks1, attackText).length) continue;
    const proofs = [victim.how];
    const exchanges = [
      ...(victim.listing ? [{ label: `Key 2 reads its own objects (${victim.source})`, exchange: victim.listing }] : []),
      { label: `Baseline: key 2 reads its object (${param.name}=${victim.id})`, exchange: own },
    ];
    let anon: Exchange | null = null;
    if (ctx.budgetLeft(ep) > 0) {
      anon = await sendOperation(ctx, ep, vars, { kind: 'none' });
      const anonAnswer = graphqlAnswer(anon);
      if (gotContent(anonAnswer, field) && containedIn(fieldText(anonAnswer, field), ownText, 0.9)) {
        ctx.note(`${name}: key 1 reads key 2's ${param.name}=${victim.id}, but so does a request without credentials (public data); not reported.`);
        continue;
      }
      exchanges.push({ label: 'Baseline: the same query without credentials', exchange: anon });
    }
    let mine: Exchange | null = null;
    if (ownIds.length && ctx.budgetLeft(ep) > 0) {
      mine = await sendOperation(ctx, ep, { ...vars, [param.name]: idVariable(ep, param, ownIds[0]!) }, asKey(1));
      const mineAnswer = graphqlAnswer(mine);
      if (gotContent(mineAnswer, field) && sameData(fieldText(mineAnswer, field), ownText, 0.9)) continue; // the id makes no difference
      if (gotContent(mineAnswer, field)) proofs.push("key 1's own object reads differently");
    }
    if (leaked.length) proofs.push(`the answer carries key 2's identity (${leaked.slice(0, 3).join(', ')})`);
    if (same) proofs.push("key 1 gets the data key 2 reads as its own");
    exchanges.push({ label: `Attack: key 1 asks ${name} with key 2's ${param.name}`, exchange: attack });
    if (mine) exchanges.push({ label: 'Key 1 reads its own object (for comparison)', exchange: mine });
    return {
      endpoint: ep,
      parameter: param.name,
      confidence: victim.listing && proofs.length >= 3 ? 'high' : 'medium',
      description:
        `${name} returned another user's object: key 1 sent ${param.name}=${victim.id}, an id of key 2's (${victim.how}), and got ` +
        `${same ? "the same data key 2 reads" : "key 2's data"}${leaked.length ? `, including key 2's identity (${leaked.slice(0, 2).join(', ')})` : ''}` +
        `${anon ? ', while the query without credentials does not get it' : ''}. Any signed-in user can read other users' objects by changing the argument.`,
      notes: [`Ownership: ${proofs.join('; ')}.`, `Identities: ${ctx.identities.how}.`],
      exchanges,
      reproduce: attack,
    };
  }
  return null;
}
