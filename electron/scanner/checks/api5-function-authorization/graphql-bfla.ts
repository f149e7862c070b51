// API5:2023 Broken Function Level Authorization through GraphQL (issue 20): privileged queries and
// mutations (named like administration, roles or permissions) run by the lower-privileged identity.
// Mutations only where the design's safety rule allows: no argument addresses an existing object, or
// every such argument names an object the scan created for the test (a create mutation's new object,
// a user the scan registered), so only the scan's own objects ever change.

import type { Endpoint, EndpointParameter } from '../../../../shared/contract';
import { wordsOf } from '../../../importer/default-flags';
import { LOWER, PRIVILEGED, type Exchange, type KeyNumber } from '../../http/exchange';
import { randomAlnum } from '../../random';
import { destructiveRead } from '../../probe-safety';
import { containedIn } from '../../similarity';
import { defineCheck } from '../common/helpers';
import { argumentsOf, fieldValue, graphqlAnswer, namedType, operationName, operationOf, operationVariables, resolved } from '../common/graphql';
import {
  addressedTypes,
  answerSummary,
  fieldText,
  gotContent,
  identityMarksOf,
  idVariable,
  objectArguments,
  objectValueFor,
  ofTypes,
  readableIds,
  sendOperation,
  typedObjects,
  type Json,
  type TypedObject,
} from '../common/graphql-objects';
import { mayInject } from '../common/graphql-inputs';
import { asKey, keyLabel, maskBody, marksIn } from '../common/objects';
import { OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { CheckContext } from '../types';
import { higherKey, lowerKey, REFS } from './privileged-operations';

/** The default-flags ADMIN words (and "manage"): what names an operation meant for administrators. */
const ADMIN = / (admin|admins|administrator|administration|internal|superuser|sudo|staff|moderator|moderation|manage|management|privileged|impersonate|impersonation|roles?|permissions?) /;
/** Mutations that destroy or reset what they address: sent only on an object the scan created. */
const DESTRUCTIVE = /^(delete|remove|drop|reset|wipe|purge|destroy|truncate|clear|erase|revoke|deactivate|disable|ban|unlink|detach)/i;
/** Mutations that create a new object (a sign-up included): the scan's source of objects of its own. */
const CREATE = /^ (create|add|new|insert|register|sign up|signup|submit|post|open|make|place|upload|write) /;
const PRIVILEGED_VALUE = /admin|superuser|super_user|root|staff|owner|moderator|manager/i;

/** Where the operation says it is privileged: its field's name, else its return type's. */
export function privilegedSignal(e: Endpoint): string | null {
  const op = e.graphql;
  if (!op) return null;
  const word = (text: string) => ADMIN.exec(wordsOf(text))?.[1] ?? null;
  const inField = word(op.field);
  if (inField) return `its name ("${op.field}": "${inField}")`;
  const type = namedType(op.returns);
  const inType = word(type);
  return inType ? `the type it returns (${type}: "${inType}")` : null;
}

/** Enum arguments set to their most privileged value (role: ADMIN): the escalation the operation would grant. */
function escalated(ep: Endpoint, vars: Record<string, unknown>): { vars: Record<string, unknown>; set: Record<string, string> } {
  const out = { ...vars };
  const set: Record<string, string> = {};
  for (const p of argumentsOf(ep)) {
    const values = Array.isArray(p.schema?.enum) ? (p.schema!.enum as unknown[]) : null;
    const best = values?.find((v): v is string => typeof v === 'string' && PRIVILEGED_VALUE.test(v));
    if (best && (p.required || p.name in out)) {
      out[p.name] = best;
      set[p.name] = best;
    }
  }
  return { vars: out, set };
}

/** An answer that resolved the field yet says it failed inside its payload ({ success: false }, { error: "..." }). */
function failedPayload(v: unknown): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Json;
  return o.success === false || o.ok === false || (typeof o.error === 'string' && o.error !== '') || (Array.isArray(o.errors) && o.errors.length > 0);
}

function succeeded(ex: Exchange, field: string): boolean {
  const a = graphqlAnswer(ex);
  return gotContent(a, field) && !failedPayload(fieldValue(a, field));
}

// ---------------------------------------------------------------- objects the scan creates

const SECRET_KEY = /token|secret|password|passwd|api_?key/i;

/** The exchange with the secrets its answer issued (a new user's session token) masked: evidence keeps no live credential. */
function masked(ex: Exchange): Exchange {
  const secrets: { value: string; mask: string }[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8 || !v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Json)) {
      if (typeof x === 'string' && x.length >= 8 && SECRET_KEY.test(k)) secrets.push({ value: x, mask: `<${k} issued to the test object>` });
      else walk(x, depth + 1);
    }
  };
  walk(ex.json(), 0);
  return maskBody(ex, secrets);
}

interface Created {
  object: TypedObject;
  creator: Endpoint;
  exchange: Exchange;
  key: KeyNumber;
}

/** Create mutations that address no existing object (no ID-typed or id-named argument: a sign-up counts) and may be sent, those returning one of the types first. */
function creatorsOf(ctx: CheckContext, types: readonly string[], except: Endpoint): Endpoint[] {
  return ctx.allEndpoints
    .filter((e) => e !== except && e.graphql?.kind === 'mutation' && CREATE.test(wordsOf(e.graphql.field)) && mayInject(ctx, e) && !privilegedSignal(e))
    .map((e, i) => ({ e, i, rank: types.includes(namedType(e.graphql!.returns).toLowerCase()) ? 0 : types.some((t) => wordsOf(e.graphql!.field).includes(` ${t} `)) ? 1 : 2 }))
    .filter((c) => c.rank < 2 || /^ (register|sign up|signup) /.test(wordsOf(c.e.graphql!.field)))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, 2)
    .map((c) => c.e);
}

const USER_NAME = /^(user_?name|login|handle|nick_?name|screen_?name)$/i;

/** User names of letters and digits only (sign-ups often refuse the synthesised "portcullis-<n>"); crypto-random, as users registered on the target must not collide with an earlier scan's. */
function plainNames(vars: Record<string, unknown>): Record<string, unknown> {
  const out = { ...vars };
  for (const [k, v] of Object.entries(out)) if (typeof v === 'string' && USER_NAME.test(k)) out[k] = `pcs${randomAlnum(10).toLowerCase()}`;
  return out;
}

/** A new object of one of the types, created for this test by a create mutation (as `key`); null when none could be. */
async function createObject(ctx: CheckContext, types: readonly string[], ep: Endpoint, key: KeyNumber): Promise<Created | null> {
  for (const creator of creatorsOf(ctx, types, ep)) {
    if (ctx.budgetLeft() < 2) return null;
    const vars = plainNames(await operationVariables(ctx, creator, key));
    const ex = await sendOperation(ctx, creator, vars, asKey(key), true);
    const a = graphqlAnswer(ex);
    const field = operationOf(creator).field;
    if (!resolved(a, field)) continue;
    const object = typedObjects(fieldValue(a, field)).find((o) => ofTypes(o, types) && objectValueFor(o.value, 'id') !== null);
    if (object) return { object, creator, exchange: masked(ex), key };
  }
  return null;
}

/** A query that reads one object of the type by an id argument (to confirm an effect), or null. */
function readerOf(ctx: CheckContext, types: readonly string[]): { endpoint: Endpoint; param: EndpointParameter } | null {
  for (const e of ctx.allEndpoints) {
    if (e.graphql?.kind !== 'query' || argumentsOf(e).filter((p) => p.required).length > 1) continue;
    if (!types.includes(namedType(e.graphql.returns).toLowerCase()) || /^\s*\[/.test(e.graphql.returns)) continue;
    const param = objectArguments(e)[0];
    if (param && (param.required || argumentsOf(e).length === 1)) return { endpoint: e, param };
  }
  return null;
}

/** What changed between two states of an object, in a few words; null when nothing did. */
function changes(before: Json, after: Json, sent: Record<string, string>): string | null {
  const changed = Object.keys(before).filter((k) => k !== '__typename' && k in after && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (!changed.length) return null;
  const sentValues = new Set(Object.values(sent));
  const ordered = [...changed].sort((a, b) => Number(sentValues.has(String(after[b]))) - Number(sentValues.has(String(after[a]))));
  return ordered.slice(0, 3).map((k) => `${k}: ${JSON.stringify(before[k])} -> ${JSON.stringify(after[k])}`).join(', ');
}

// ---------------------------------------------------------------- the check

export const graphqlBfla = defineCheck({
  id: 'api5-graphql-bfla',
  title: 'Privileged GraphQL operation available to a lower-privileged user',
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-285',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 8,
  protocols: ['graphql'],
  techniques: ['API5.1'],
  description:
    'Queries and mutations whose field (or return type) is named like administration (admin, internal, staff, moderator, management, ' +
    'privileged, impersonate, role, permission...) are run by the lower-privileged identity (the scan\'s lower role, else the key set as ' +
    'lower-privileged, key 2 by default), with enum arguments at their most privileged value (role: ADMIN). Queries: with an id of the ' +
    'type the privileged identity reads; also sent without credentials and as the privileged identity for reference. Mutations only on ' +
    'the scan\'s own objects: those without id arguments as they are; those with id arguments on a new object a create or sign-up mutation ' +
    'made for the test (as the other identity), never on existing data. Finding: the lower identity\'s answer resolves the field (data, no ' +
    'error naming it, not false or a failed payload); high confidence when it gets the privileged identity\'s data, or a read of the ' +
    'object afterwards shows the change.',
  coverage:
    'Which operations are privileged is read from names, so a privileged operation with a plain name is missed. Mutations with id ' +
    'arguments are tested only where a create mutation without id arguments makes an object of the addressed type (destructive ones ' +
    'included, on that object); mutations with ids inside input objects, or destructive ones without an object of the scan\'s, are not ' +
    'sent unless the scan allows writes to existing objects. Subscriptions are not tested.',
  remediation:
    'Enforce the caller\'s role in every privileged resolver (or with a schema directive / middleware applied to whole types and fields, ' +
    'deny by default), not only by hiding fields from clients; keep administrative operations in a separate schema or endpoint where ' +
    'possible, and test each role against each privileged field.',
  references: [...REFS, OWASP_GRAPHQL_CHEAT_SHEET],
  appliesTo: (e) => (e.graphql?.kind === 'query' || e.graphql?.kind === 'mutation') && e.flags.includes('BFLA') && privilegedSignal(e) !== null,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const op = operationOf(ep);
    const name = operationName(ep);
    const field = op.field;
    const low = lowerKey(ctx);
    if (!low) {
      ctx.skip('Needs the lower-privileged identity (key 2 by default): the check runs privileged operations as it.');
      return;
    }
    const high = higherKey(ctx, low);
    const signal = privilegedSignal(ep)!;
    const objArgs = objectArguments(ep);
    const { vars: start, set } = escalated(ep, await operationVariables(ctx, ep, low));
    const vars: Record<string, unknown> = { ...start };
    const exchanges: { label: string; exchange: Exchange }[] = [];
    const proofs: string[] = [];
    let created: Created | null = null;
    const types = objArgs[0] ? addressedTypes(ep, objArgs[0]) : [];

    if (op.kind === 'mutation') {
      if (objArgs.length) {
        // Only on an object made for this test, by the other identity, so the lower one acts on someone else's.
        const creatorKey = high ?? low;
        created = (await createObject(ctx, types, ep, creatorKey)) ?? (creatorKey !== low ? await createObject(ctx, types, ep, low) : null);
        if (!created) {
          if (!ctx.options.allowExistingObjects || DESTRUCTIVE.test(field)) return;
        } else {
          for (const p of objArgs) {
            const v = objectValueFor(created.object.value, p.name);
            if (v === null) {
              if (p.required) return;
              delete vars[p.name];
            } else vars[p.name] = idVariable(ep, p, v);
          }
          exchanges.push({ label: `${keyLabel(created.key)} creates an object for the test (${operationName(created.creator)})`, exchange: created.exchange });
        }
      } else if (!mayInject(ctx, ep) || destructiveRead({ method: 'GET', path: `/${field}`, operation_id: field })) return;
    } else if (objArgs.length) {
      // Reads are safe: an id the privileged identity (else the lower one) reads.
      for (const p of objArgs) {
        const ids = await readableIds(ctx, high ?? low, addressedTypes(ep, p), p.name);
        const first = [...ids.keys()][0];
        if (first !== undefined) vars[p.name] = idVariable(ep, p, first);
      }
    }

    let reference: Exchange | null = null;
    if (op.kind === 'query') {
      const anon = await sendOperation(ctx, ep, vars, { kind: 'none' });
      // Public data: nothing privileged about it.
      if (succeeded(anon, field)) return;
      exchanges.push({ label: 'Baseline: the same query without credentials', exchange: anon });
      if (high !== null && ctx.budgetLeft() > 1) {
        reference = await sendOperation(ctx, ep, vars, asKey(high));
        exchanges.push({ label: `Baseline (${keyLabel(high)})`, exchange: reference });
      }
    }
    if (ctx.budgetLeft() <= 0) return;
    const attack = await sendOperation(ctx, ep, vars, asKey(low));
    if (!succeeded(attack, field)) return;
    exchanges.push({ label: `Attack: the lower-privileged ${keyLabel(low)} runs ${name}`, exchange: attack });
    const attackText = fieldText(graphqlAnswer(attack), field);
    if (reference && succeeded(reference, field) && containedIn(attackText, fieldText(graphqlAnswer(reference), field), 0.9)) proofs.push(`it gets the same data as ${keyLabel(high!)}`);
    if (high !== null && op.kind === 'query') {
      const others = marksIn(await identityMarksOf(ctx, high, [low]), attackText);
      if (others.length) proofs.push(`its answer carries the other identity's data (${others.slice(0, 2).join(', ')})`);
    }
    // The effect, read back by the object's creator.
    if (created && ctx.budgetLeft() > 0) {
      const reader = readerOf(ctx, types);
      if (reader) {
        const id = objectValueFor(created.object.value, reader.param.name) ?? objectValueFor(created.object.value, 'id')!;
        const readVars = { ...(await operationVariables(ctx, reader.endpoint, created.key)), [reader.param.name]: idVariable(reader.endpoint, reader.param, id) };
        const readerKey = ctx.identities.privileged ? PRIVILEGED : created.key;
        const after = await sendOperation(ctx, reader.endpoint, readVars, asKey(readerKey), true);
        const readField = operationOf(reader.endpoint).field;
        const a = graphqlAnswer(after);
        const now = fieldValue(a, readField);
        const what =
          now && typeof now === 'object' && !Array.isArray(now)
            ? changes(created.object.value, now as Json, set)
            : a?.data && (now === null || !resolved(a, readField)) && DESTRUCTIVE.test(field)
              ? `the object is gone (${answerSummary(after, readField)})`
              : null;
        if (what) {
          proofs.push(`a read afterwards (${operationName(reader.endpoint)}) shows the change: ${what}`);
          exchanges.push({ label: `${keyLabel(readerKey)} reads the object afterwards`, exchange: after });
        }
      }
    }
    const sentEnums = Object.entries(set).map(([k, v]) => `${k}: ${v}`);
    yield {
      parameter: objArgs[0]?.name ?? Object.keys(set)[0] ?? 'operation',
      confidence: proofs.length ? 'high' : 'medium',
      description:
        `${name} is privileged (${signal}), yet the lower-privileged ${keyLabel(low)} ran it: the ${op.kind} resolved ${field} with ` +
        `${attackText.length > 80 ? `${attackText.slice(0, 80)}...` : attackText}${sentEnums.length ? ` (sent with ${sentEnums.join(', ')})` : ''}` +
        `${created ? `, on an object the scan created for the test (${operationName(created.creator)})` : ''}` +
        `${proofs.length ? `; ${proofs.join('; ')}` : ''}. The resolver checks that the caller is signed in, not that they may use the operation.`,
      notes: [
        `Lower-privileged identity: ${keyLabel(low)}${low === LOWER ? ' (its role)' : ' (scan setting)'}. ${ctx.identities.how}.`,
        ...(op.kind === 'mutation' ? ['Mutation sent only on objects the scan created for the test (or without object arguments).'] : []),
      ],
      exchanges,
      reproduce: attack,
    };
  },
});
