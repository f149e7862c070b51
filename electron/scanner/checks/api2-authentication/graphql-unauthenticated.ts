// API2:2023 Broken Authentication: GraphQL queries that hand private data to callers without
// credentials (issue 20, CWE-306). A GraphQL API is one endpoint whose resolvers each decide whether
// the caller must be signed in; one that forgets answers anonymous callers. Public data (a catalogue)
// answered without credentials is no finding: the anonymous answer must carry data that is not public,
// either the e-mail addresses or phone numbers of the scan's own users (key 1, key 2), or objects of a
// type the API refuses to anonymous callers elsewhere (an id query that answers key 1 and refuses the
// same call without credentials).

import type { Endpoint } from '../../../../shared/contract';
import { wordsOf } from '../../../importer/default-flags';
import { ANONYMOUS, type Exchange } from '../../http/exchange';
import { fieldValue, graphqlAnswer, graphqlEndpoints, namedType, operationName, operationOf, resolved, sendGraphql } from '../common/graphql';
import { answerSummary, gotContent, identityMarksOf, objectArguments, typedObjects, withTypenames } from '../common/graphql-objects';
import { defineCheck } from '../common/helpers';
import { marksIn } from '../common/objects';
import { OWASP_API2, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { KeyNumber } from '../../http/exchange';
import type { CheckContext } from '../types';

/** Most own-read queries a key sends to learn its identity (common/graphql-objects.ts ownReads). */
const OWN_READS = 6;
/** Other queries looked at to learn which types the API protects (their baselines are shared with other checks). */
const MAX_GUARDS = 6;

/** Identity values that are private by nature: an e-mail address, a phone number (a user name or an id may be public). */
export function privateMark(v: string): boolean {
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) return true;
  return /^\+?[\d\s().-]{8,20}$/.test(v) && v.replace(/\D/g, '').length >= 8;
}

/** Fields any public view of an object shows (a post's author by name): objects with nothing else say nothing private. */
const PUBLIC_FIELD = / (id|ids|uuid|guid|typename|name|username|user name|display name|nickname|nick|handle|login|title|slug|avatar|picture|url) $/;

/** The object carries a value in a field beyond its public face (its id and names). */
export function beyondPublicFace(value: Record<string, unknown>): boolean {
  return Object.entries(value).some(([k, v]) => !PUBLIC_FIELD.test(wordsOf(k)) && v !== null && v !== undefined && typeof v !== 'object' && v !== '');
}

interface Guard {
  endpoint: Endpoint;
  key1: Exchange;
  anonymous: Exchange;
}

const guardsMemo = new WeakMap<object, Map<string, Promise<Guard | null>>>();

/**
 * The type's guard: a query of the scan that returns it by an id argument, answers key 1 with the
 * object and refuses the same call without credentials (an error, no data). Memoised per scan.
 */
function guardOf(ctx: CheckContext, type: string): Promise<Guard | null> {
  let memo = guardsMemo.get(ctx.resources);
  if (!memo) guardsMemo.set(ctx.resources, (memo = new Map()));
  let p = memo.get(type);
  if (!p) {
    p = (async () => {
      const queries = graphqlEndpoints(ctx.allEndpoints)
        .filter((e) => e.graphql!.kind === 'query' && namedType(e.graphql!.returns) === type && objectArguments(e).some((a) => a.required))
        .slice(0, MAX_GUARDS);
      for (const endpoint of queries) {
        const field = operationOf(endpoint).field;
        const key1 = await ctx.baseline('key1', endpoint);
        if (!key1?.ok || !gotContent(graphqlAnswer(key1), field)) continue;
        const anonymous = await ctx.baseline('anonymous', endpoint);
        const a = anonymous ? graphqlAnswer(anonymous) : null;
        if (anonymous?.response && !resolved(a, field) && (!a || a.errors.length > 0 || anonymous.status === 401 || anonymous.status === 403)) return { endpoint, key1, anonymous };
      }
      return null;
    })();
    memo.set(type, p);
  }
  return p;
}

async function privateMarks(ctx: CheckContext, key: KeyNumber, others: KeyNumber[]): Promise<string[]> {
  return (await identityMarksOf(ctx, key, others)).filter(privateMark);
}

export const graphqlUnauthenticated = defineCheck({
  id: 'api2-graphql-unauthenticated',
  title: 'GraphQL query returns private data without credentials',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-306',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  // The probe with __typename, one spare; and once per scan, charged to the operation that asks first, each key's own reads
  // (up to 6 argument-free queries per key) to learn who the keys are.
  budget: 2 + 2 * OWN_READS,
  needsKey2: false,
  protocols: ['graphql'],
  techniques: ['API2.1', 'API2.graphql-unauthenticated'],
  description:
    'Sends each query as key 1 and without credentials (the shared baselines; without credentials once more with __typename in every ' +
    'selection set). Finding when the anonymous answer resolves the field with content that is not public: the e-mail addresses or ' +
    'phone numbers of key 1 or key 2 (learnt from the scan\'s identities or a "me"-like query) - high confidence; or objects, showing ' +
    'more than their id and names, of a type ' +
    'that another query of the scan refuses without credentials (it answers key 1 the object by id and an anonymous caller an error) - ' +
    'medium. Public data answered without credentials (a catalogue, a directory of user names) is not a finding; silent when the ' +
    'anonymous call gets an error or null for the field.',
  coverage:
    'Private data is recognised by the scan users\' own e-mails and phone numbers and by types the API protects elsewhere: a field that ' +
    'leaks other private data (of users the scan does not know, of types no other query guards) is missed. Mutations are not sent ' +
    'without credentials (api5 and api2 checks cover writes); subscriptions are not tested.',
  remediation:
    'Authenticate every GraphQL request in one place (the server context) and authorise in the business layer every resolver that ' +
    'returns user data, denying by default: a field that needs a signed-in caller must throw an authentication error (UNAUTHENTICATED) ' +
    'and return null without one. Mark intentionally public fields explicitly (a @public directive or an allow-list) and test anonymous ' +
    'access to the others.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/306.html', OWASP_GRAPHQL_CHEAT_SHEET, 'https://graphql.org/learn/authorization/'],
  appliesTo: (e) => e.graphql?.kind === 'query' && (e.flags.includes('BKEN_AUTH') || e.flags.includes('BOPLA')),
  async *run(ctx) {
    const endpoint = ctx.endpoint;
    const op = operationOf(endpoint);
    const anonymous = await ctx.baseline('anonymous');
    if (!anonymous?.ok || !gotContent(graphqlAnswer(anonymous), op.field)) return;
    const key1 = await ctx.baseline('key1');
    const text = JSON.stringify(fieldValue(graphqlAnswer(anonymous), op.field));

    // 1. The scan's own users' e-mails or phone numbers, without credentials.
    const leaked: { who: string; marks: string[] }[] = [];
    const own = marksIn(await privateMarks(ctx, 1, ctx.hasKey2 ? [2] : []), text);
    if (own.length) leaked.push({ who: ctx.identityName(1), marks: own });
    if (ctx.hasKey2) {
      const other = marksIn(await privateMarks(ctx, 2, [1]), text);
      if (other.length) leaked.push({ who: ctx.identityName(2), marks: other });
    }

    // 2. Objects of a type the API refuses anonymous callers elsewhere.
    let typed: Exchange | null = null;
    let guarded: { type: string; count: number; guard: Guard } | null = null;
    const request = await ctx.baselineRequest(endpoint, 'anonymous');
    const body = request?.bodyValue as { variables?: Record<string, unknown> } | undefined;
    if (ctx.budgetLeft() > 0) {
      typed = await sendGraphql(ctx, endpoint, { query: withTypenames(op.document), variables: body?.variables ?? null }, { auth: ANONYMOUS });
      const answer = graphqlAnswer(typed);
      const objects = resolved(answer, op.field) ? typedObjects(fieldValue(answer, op.field)) : [];
      const counts = new Map<string, number>();
      for (const o of objects) if (beyondPublicFace(o.value)) counts.set(o.typename, (counts.get(o.typename) ?? 0) + 1);
      // The field's own type first, then the nested ones; only objects showing more than their id and names.
      const order = [namedType(op.returns), ...counts.keys()].filter((t, i, all) => counts.has(t) && all.indexOf(t) === i);
      for (const type of order) {
        const guard = await guardOf(ctx, type);
        if (guard && guard.endpoint.id !== endpoint.id) {
          guarded = { type, count: counts.get(type)!, guard };
          break;
        }
      }
    }
    if (!leaked.length && !guarded) return;

    const name = operationName(endpoint);
    const said: string[] = [];
    if (leaked.length) said.push(`the e-mail or phone of ${leaked.map((l) => `${l.who} (${l.marks.slice(0, 2).join(', ')})`).join(' and ')}`);
    if (guarded) {
      said.push(
        `${guarded.count} ${guarded.type} object${guarded.count === 1 ? '' : 's'}, a type ${operationName(guarded.guard.endpoint)} refuses without credentials ` +
          `(${answerSummary(guarded.guard.anonymous, operationOf(guarded.guard.endpoint).field)})`,
      );
    }
    yield {
      endpoint,
      parameter: null,
      confidence: leaked.length ? 'high' : 'medium',
      description:
        `${name} answers a request without any credentials with data: ${said.join('; and ')}. Anyone on the network reads it without ` +
        'signing in: the resolver does not require an authenticated caller.',
      notes: [
        `Key 1: ${key1 ? answerSummary(key1, op.field) : 'no baseline'}. Without credentials: ${answerSummary(anonymous, op.field)}.`,
        ...(leaked.length ? [`Private values of the scan's users in the anonymous answer: ${leaked.map((l) => `${l.who}: ${l.marks.join(', ')}`).join('; ')}.`] : []),
        ...(guarded ? [`${operationName(guarded.guard.endpoint)} answers key 1 (${answerSummary(guarded.guard.key1, operationOf(guarded.guard.endpoint).field)}) and refuses the same call without credentials.`] : []),
      ],
      exchanges: [
        ...(key1 ? [{ label: 'Baseline: key 1', exchange: key1 }] : []),
        { label: 'Attack: no credentials', exchange: anonymous },
        ...(guarded && typed ? [{ label: 'Attack: no credentials, objects named by __typename', exchange: typed }] : []),
        ...(guarded ? [{ label: `Control: ${operationName(guarded.guard.endpoint)} without credentials is refused`, exchange: guarded.guard.anonymous }] : []),
      ],
      reproduce: anonymous,
    };
  },
});
