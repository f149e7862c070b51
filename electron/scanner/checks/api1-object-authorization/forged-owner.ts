// API1:2023 Broken Object Level Authorization in creates: a body field that names whose object it is
// (the owner's user id, or the id of an object the new one goes into: a basket, a cart) set to the
// other identity's value from the ownership ledger, and the API stores it (forged ownership). Where
// the API refuses the plain swap, the field is sent twice, the caller's own value first: servers that
// validate the first occurrence and store the last accept it.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, KeyNumber } from '../../http/exchange';
import { mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { defineCheck, describeEndpoint } from '../common/helpers';
import { isIdLike, isObj, keyLabel, otherKey, privilegedKey, propOf, requestLine, resourceObject, sameValue, schemaShape, schemaType } from '../common/objects';
import { isOwnerField, ledgerIdsFor, ledgers, type LearnedValue, type OwnershipLedger } from '../common/ownership';
import { OWASP_API1 } from '../common/references';
import { sendCreate } from '../common/varied-creates';
import { readsObject, REFS, REMEDIATION, WRITE_CVSS } from './id-swaps';

const AUTH_WORDS = /(^|[^a-z])(log-?in|sign-?in|sign-?up|register|token|auth|password|reset|verify|otp)([^a-z]|$)/i;

/** Top-level scalar body fields that say whose the new object is: an owner (UserId) or a parent object (cartId). */
export function ownershipFields(e: Endpoint): string[] {
  const props = schemaShape(e.request_body?.schema ?? null).props;
  return Object.entries(props)
    .filter(([name, s]) => s?.readOnly !== true && !['array', 'object'].includes(schemaType(s) ?? '') && (isOwnerField(name) || isIdLike(name)))
    .map(([name]) => name);
}

function storedValue(ex: Exchange, field: string): unknown {
  return propOf(resourceObject(ex.json()), field).value;
}

/** The body with the field twice, the caller's own value first (JSON parsers keep the last). */
function polluted(request: PreparedRequest, field: string, own: unknown, theirs: unknown): PreparedRequest {
  const body = { ...(request.bodyValue as Record<string, unknown>), [field]: own };
  const text = JSON.stringify(body);
  return mutate(request, { bodyValue: body, body: `${text.slice(0, -1)},${JSON.stringify(field)}:${JSON.stringify(theirs)}}` });
}

interface Side {
  value: string;
  learnt: LearnedValue;
}

/** Each key's own value for the field: its user id for an owner field, its own object of that resource for a parent id. */
function valueFor(ledger: OwnershipLedger, field: string): Side | null {
  if (isOwnerField(field)) {
    const v = ledger.self[0];
    return v ? { value: v.value, learnt: v } : null;
  }
  const id = ledgerIdsFor(ledger, { path: '' }, field)[0];
  return id ? { value: id.value, learnt: id.learnt } : null;
}

/** The value typed as the schema wants it (a number for an integer field). */
function typed(e: Endpoint, field: string, value: string): unknown {
  const t = schemaType(schemaShape(e.request_body?.schema ?? null).props[field]);
  return (t === 'integer' || t === 'number') && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

export const bolaForgedOwner = defineCheck({
  id: 'api1-bola-forged-owner',
  title: 'Object created in another user\'s name (forged owner)',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  confidence: 'medium',
  cvss: WRITE_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 6,
  needsKey2: true,
  techniques: ['API1.3'],
  description:
    'For creates (POST without path parameters, not a login or a lookup) whose body has a field that says whose the new object is — an owner ' +
    'field (UserId, owner_id, author) or the id of a parent object (cartId, BasketId) — with both users\' values known from the ownership ledger ' +
    '(their user ids; their own object of that resource, from their login answer or profile): the attacker creates with its own value, then with ' +
    'the other user\'s, then, if refused, with the field twice (its own value first, the other\'s last). Finding: the create answers 2xx and ' +
    'stores the other user\'s value. For an owner field the API must also fill in the caller\'s own id when the field is left out (so the field is ' +
    'the owner, not a recipient); for a parent id the attacker\'s create with its own value must store it.',
  coverage:
    'Needs a second key, each user\'s value in the ownership ledger, and an answer that shows the stored object. A parent id adds to the other ' +
    'user\'s existing object (their basket): sent only with `writes: existing`. An owner field the API leaves empty when it is left out is ' +
    'not tested (it may name a recipient).',
  remediation: `${REMEDIATION} Set the owner and the parent object of a new object from the caller's session, never from the body; read a field once, with the same parser that stores it.`,
  references: [OWASP_API1, ...REFS.slice(1)],
  appliesTo: (e) => e.method === 'POST' && pathParamNames(e.path).length === 0 && !readsObject(e) && !AUTH_WORDS.test(e.path) && ownershipFields(e).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const both = await ledgers(ctx);
    const ledger = (k: KeyNumber) => both[k === 1 ? 0 : 1];
    const privileged = await privilegedKey(ctx);
    for (const field of ownershipFields(ep)) {
      for (const attacker of [2, 1] as const) {
        const victim = otherKey(attacker);
        if (attacker === privileged) continue;
        const own = valueFor(ledger(attacker), field);
        const theirs = valueFor(ledger(victim), field);
        if (!own || !theirs || own.value === theirs.value) continue;
        const owner = isOwnerField(field);
        // The other user's object, unless the scan created it, is an existing one: adding to it needs the user's consent.
        if (!owner && !ctx.options.allowExistingObjects && !theirs.learnt.source.startsWith('the object it created')) {
          ctx.holdBack(`${field} names an existing object of the other user (its ${theirs.learnt.field}): adding to it is a write to an object the scan did not create`);
          break;
        }
        if (ctx.budgetLeft() < 3) return;
        const base = await ctx.prepare(ep, attacker, 'write');
        if (!base || !isObj(base.bodyValue)) return;
        const body = base.bodyValue;
        // The field is the owner when the API fills in the caller's own id without it; a parent id must be stored as sent.
        // A create the API refuses as a duplicate (the pair exists) goes again with its other ids changed, the field under test kept.
        const first = owner
          ? await sendCreate(ctx, mutate(base, { bodyValue: Object.fromEntries(Object.entries(body).filter(([k]) => k !== field)) }), attacker, [field])
          : await sendCreate(ctx, mutate(base, { bodyValue: { ...body, [field]: typed(ep, field, own.value) } }), attacker, [field]);
        if (!first.ok || !sameValue(own.value, String(storedValue(first, field) ?? ''))) continue;
        const fresh = (await ctx.prepare(ep, attacker, 'write')) ?? base;
        const freshBody = isObj(fresh.bodyValue) ? fresh.bodyValue : body;
        let attack = await sendCreate(ctx, mutate(fresh, { bodyValue: { ...freshBody, [field]: typed(ep, field, theirs.value) } }), attacker, [field]);
        let how = `set ${field} to ${keyLabel(victim)}'s value`;
        if (!attack.ok && ctx.budgetLeft() > 0) {
          attack = await sendCreate(ctx, { ...fresh, bodyValue: freshBody }, attacker, [field], (r) => polluted(r, field, typed(ep, field, own.value), typed(ep, field, theirs.value)));
          how = `sent ${field} twice, its own value first and ${keyLabel(victim)}'s last (the API refused ${keyLabel(victim)}'s value alone, so it checks one occurrence and stores the other)`;
        }
        if (!attack.ok || !sameValue(theirs.value, String(storedValue(attack, field) ?? ''))) continue;
        const whose = owner ? `${keyLabel(victim)}'s own user id` : `${keyLabel(victim)}'s own object`;
        yield {
          parameter: field,
          description:
            `${describeEndpoint(ep)} created an object in another user's name: ${keyLabel(attacker)} ${how}, and the API stored ${field} = ${theirs.value}, ` +
            `${whose} (${theirs.learnt.field} in ${theirs.learnt.source}). ${owner ? `Without ${field} the API records the caller (${own.value}) itself, so ${field} is the owner.` : `${keyLabel(attacker)}'s own create stored its own ${field} (${own.value}).`} ` +
            `Any signed-in user can ${owner ? 'create objects that appear to be another user\'s' : 'add to other users\' objects'}.`,
          notes: [`Ownership: ${field} = ${theirs.value} is ${whose}, learnt from ${theirs.learnt.source}; ${keyLabel(attacker)}'s is ${own.value} (${own.learnt.source}).`, `Identities: ${ctx.identities.how}.`],
          exchanges: [
            { label: owner ? `Baseline: ${keyLabel(attacker)} creates without ${field}; the API records its own id` : `Baseline: ${keyLabel(attacker)} creates with its own ${field}`, exchange: first },
            { label: `Attack: ${keyLabel(attacker)} creates with ${keyLabel(victim)}'s ${field} (${requestLine(attack)})`, exchange: attack },
          ],
          reproduce: attack,
        };
        return;
      }
    }
  },
});
