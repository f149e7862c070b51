// API1:2023 Broken Object Level Authorization, tested between the two users of a scan in both
// directions: the victim's request replayed with the attacker's key (token swap), a user id from
// /me swapped into the attacker's own request (id swap), objects one key created read, changed
// and deleted by the other (create then steal), and an object still readable after its DELETE.
// Every cross-user finding proves the object belongs to the victim: the scan created it as the
// victim, it is in the victim's own listing and not the attacker's, or the answer carries the
// victim's identity from /me.

import type { Endpoint } from '../../../shared/contract';
import type { Exchange, KeyNumber } from '../http/exchange';
import { fillPath, mutate, pathParamNames, type PreparedRequest } from '../requests';
import { listItems } from '../resources';
import { compareBodies, distinctiveValues, isEmptyBody, isVolatileKey, sameData, sameShapeOtherData, valuesFoundIn } from '../similarity';
import { defineCheck, describeEndpoint } from './helpers';
import {
  asKey,
  carriesDataOf,
  createdBy,
  fitMarker,
  identityMarks,
  identityValueFor,
  idParams,
  isObj,
  isUserRef,
  keyLabel,
  looksLikeError,
  markerField,
  marksIn,
  newMarker,
  otherKey,
  ownedIds,
  privilegedKey,
  readAs,
  readerOf,
  refused,
  requestLine,
  resourceObject,
  schemaShape,
  type IdParam,
} from './objects';
import type { CheckContext, FindingDraft } from './types';
import type { LabelledExchange } from '../evidence';

const OWASP_API1 = 'https://owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization/';
const REFS = [OWASP_API1, 'https://cwe.mitre.org/data/definitions/639.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authorization_Cheat_Sheet.html'];
const READ_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N';
const WRITE_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:N';
const DELETE_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H';
const REMEDIATION =
  'Check ownership in every handler that takes an object id (path, query or body): load the object through the caller\'s identity ' +
  '(`WHERE id = ? AND owner_id = ?`) or call one authorization function with the caller and the object before acting, and answer 404 ' +
  'when it is not theirs. Never trust an id because the client sent it; prefer unguessable ids as defence in depth, not as the fix.';

const READ_WORDS = /(^|[^a-z])(lookup|look-up|search|find|query|get|fetch|view|show|read|retrieve|details?|info|export|download|preview|resolve|status)([^a-z]|$)/i;

/** GETs, and POSTs that read (a lookup by id in the body), never creates or other writes. */
export function readsObject(e: Endpoint): boolean {
  if (e.method === 'GET') return true;
  if (e.method !== 'POST' || Object.keys(e.responses).includes('201')) return false;
  const literals = e.path.split('/').filter((s) => s && !s.includes('{')).slice(-2).join(' ');
  return READ_WORDS.test(`${literals} ${e.operation_id ?? ''} ${e.operation_id ? '' : e.summary}`.replace(/([a-z])([A-Z])/g, '$1 $2'));
}

/** The parameter that names the object: the last path parameter, else an id in the query, else in the body. */
function objectParam(e: Endpoint): IdParam | null {
  const params = idParams(e);
  const path = params.filter((p) => p.in === 'path');
  return path[path.length - 1] ?? params.find((p) => p.in === 'query') ?? params.find((p) => p.in === 'body') ?? null;
}

function valueIn(request: PreparedRequest, p: IdParam): string | null {
  if (p.in === 'path') return request.pathValues[p.name]?.value ?? null;
  if (p.in === 'query') return request.url.searchParams.get(p.name);
  const v = isObj(request.bodyValue) ? request.bodyValue[p.name] : undefined;
  return v === undefined || v === null ? null : String(v);
}

/** The request with the parameter set to `value` (typed as the schema wants it in a body). */
function withValue(ctx: CheckContext, request: PreparedRequest, p: IdParam, value: string): PreparedRequest {
  if (p.in === 'query') return mutate(request, { query: { [p.name]: value } });
  if (p.in === 'body') {
    const schema = schemaShape(ctx.endpoint.request_body?.schema ?? null).props[p.name];
    const numeric = (schema?.type === 'integer' || schema?.type === 'number') && /^-?\d+(\.\d+)?$/.test(value);
    return mutate(request, { bodyValue: { ...(isObj(request.bodyValue) ? request.bodyValue : {}), [p.name]: numeric ? Number(value) : value } });
  }
  const template = request.endpoint?.path ?? ctx.endpoint.path;
  const values = Object.fromEntries(Object.entries(request.pathValues).map(([k, v]) => [k, k === p.name ? value : v.value]));
  const target = new URL(request.url);
  target.pathname = ctx.url(fillPath(template, values)).pathname;
  return { ...request, url: target, pathValues: { ...request.pathValues, [p.name]: { value, source: 'harvested' } } };
}

const sameRequest = (a: PreparedRequest | null, b: PreparedRequest | null) => !!a && !!b && a.method === b.method && a.url.href === b.url.href && a.body === b.body;

/** Is the attacker the higher-privileged key? Then reading others' objects may be its role (an admin). */
function attackerMayBePrivileged(ctx: CheckContext, attacker: KeyNumber): boolean {
  return attacker !== ctx.options.lowerPrivilegeKey;
}

function privilegeNote(ctx: CheckContext, attacker: KeyNumber): string[] {
  return attackerMayBePrivileged(ctx, attacker)
    ? [`Key ${attacker} is not marked as the lower-privileged key: if its user had a role allowed to reach every user's objects (an administrator), this would be by design (no sign of such a role was seen). Confidence is capped at medium for this direction.`]
    : [];
}

const cap = (c: 'high' | 'medium', ctx: CheckContext, attacker: KeyNumber): 'high' | 'medium' => (attackerMayBePrivileged(ctx, attacker) ? 'medium' : c);

interface Leak {
  victim: KeyNumber;
  attacker: KeyNumber;
  confidence: 'high' | 'medium';
  proof: string;
  exchanges: LabelledExchange[];
  attack: Exchange;
}

function bolaFinding(ctx: CheckContext, leaks: Leak[], param: string, technique: string): FindingDraft {
  const best = [...leaks].sort((a, b) => (a.confidence === b.confidence ? 0 : a.confidence === 'high' ? -1 : 1))[0]!;
  const both = leaks.length > 1;
  return {
    parameter: param,
    confidence: best.confidence,
    description:
      `${describeEndpoint(ctx.endpoint)} returned another user's object: ${keyLabel(best.attacker)} (${technique}) received ${keyLabel(best.victim)}'s data ` +
      `for ${param}, ${best.proof}. ${both ? 'It works in both directions (each key reads the other\'s objects). ' : ''}` +
      'Any signed-in user can read other users\' objects by changing the id.',
    notes: [
      `Ownership: ${best.proof}.`,
      `Identities: ${ctx.identities.how}.`,
      ...(both ? [`The other direction leaked as well: ${keyLabel(leaks[1]!.attacker)} read ${keyLabel(leaks[1]!.victim)}'s object.`] : []),
      ...privilegeNote(ctx, best.attacker),
    ],
    exchanges: best.exchanges,
    reproduce: best.attack,
  };
}

/** Victim reads its own object, without credentials it is refused, attacker gets the same data. */
async function compareTriple(
  ctx: CheckContext,
  victimRead: Exchange,
  anon: Exchange | null,
  attack: Exchange,
): Promise<boolean> {
  if (!victimRead.ok || isEmptyBody(victimRead) || looksLikeError(victimRead)) return false;
  if (anon && !refused(anon)) return false;
  // Something worth leaking: at least two distinctive values (not `{"ok": true}`).
  const json = victimRead.json();
  if (json !== undefined && distinctiveValues(json, 4).length < 2) return false;
  return carriesDataOf(attack, victimRead) && !looksLikeError(attack);
}

// ---------------------------------------------------------------- API1.1 token swap

export const bolaTokenSwap = defineCheck({
  id: 'api1-bola-token-swap',
  title: 'Object readable with another user\'s key (token swap)',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  severity: 'high',
  confidence: 'medium',
  cvss: READ_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 8,
  needsKey2: true,
  techniques: ['API1.1'],
  description:
    'For reads (GET, and POST lookups) that name an existing object by an id in the path, query or body: the victim\'s request, with an id ' +
    'from the victim\'s own listing of that collection (or the spec\'s example), is sent by the victim, without credentials and with the other key; ' +
    'then the other way round. Finding: the other key gets a 2xx whose body carries ≥ 90 % of the victim\'s values, the anonymous request is ' +
    'refused, and the object is proven to be the victim\'s — its id is in the victim\'s listing and not the attacker\'s, or the body carries the ' +
    'victim\'s identity from /me. Objects the scan created are left to the create-then-steal check, user ids to the id-swap check.',
  coverage:
    'Needs a second key. Ownership can only be proven where the API lists the caller\'s objects (a GET on the collection) or answers with the ' +
    'owner\'s identity; ids the victim cannot list and that carry no identity are not reported. A key with an administrator role legitimately ' +
    'reads everyone\'s objects: a key whose /me answer names an admin role, or that alone gets an administrative GET, is never the attacker; ' +
    'otherwise the direction where the attacker is not the lower-privileged key is reported at medium confidence at most.',
  remediation: REMEDIATION,
  references: REFS,
  appliesTo: (e) => e.flags.includes('BOLA') && readsObject(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const param = objectParam(ep);
    if (!param || isUserRef(param.name)) return;
    const leaks: Leak[] = [];
    const base1 = await ctx.baselineRequest(ep, 'key1');
    const privileged = await privilegedKey(ctx);
    for (const victim of [1, 2] as const) {
      const attacker = otherKey(victim);
      if (attacker === privileged) continue;
      const base = victim === 1 ? base1 : await ctx.prepare(ep, 2, 'read');
      if (!base) continue;
      // Objects the scan created belong to the create-then-steal check.
      if (param.in === 'path' && base.pathValues[param.name]?.source === 'created') return;
      const victimIds = await ownedIds(ctx, param, ep, victim);
      const attackerIds = await ownedIds(ctx, param, ep, attacker);
      let request = base;
      let value = valueIn(base, param);
      if (victimIds?.length && (value === null || !victimIds.includes(value))) {
        value = victimIds.find((id) => !attackerIds?.includes(id)) ?? null;
        if (value === null) continue;
        request = withValue(ctx, base, param, value);
      }
      if (value === null) continue;
      // Listed by both users: shared by design (public files, a team's common objects).
      if (attackerIds?.includes(value)) continue;
      const owned = !!victimIds?.includes(value);
      if (victim === 2 && !owned) continue; // key 2's request has only the spec's examples to offer otherwise
      if (ctx.budgetLeft() < 3) break;
      const isBaseline = victim === 1 && sameRequest(request, base1);
      const victimRead = isBaseline ? await ctx.baseline('key1') : await ctx.sendPrepared(request, asKey(victim));
      if (!victimRead?.ok) continue;
      const anon = isBaseline ? await ctx.baseline('anonymous') : await ctx.sendPrepared(request, { kind: 'none' });
      if (!anon?.response || !refused(anon)) continue;
      const attack = isBaseline ? await ctx.baseline('key2') : await ctx.sendPrepared(request, asKey(attacker));
      if (!attack || !(await compareTriple(ctx, victimRead, anon, attack))) continue;
      const leaked = marksIn(identityMarks(ctx, victim), attack.body);
      if (!owned && !leaked.length) continue;
      // With the identity as the only proof, an object that also names the attacker (a message between the two) may be theirs to read.
      if (!owned && marksIn(identityMarks(ctx, attacker), attack.body).length) continue;
      // The attacker's own object reads differently: the data depends on the id, so this is the victim's.
      let own: Exchange | null = null;
      if (attackerIds?.length && ctx.budgetLeft() > 0) {
        const mine = withValue(ctx, attacker === 1 ? (base1 ?? base) : ((await ctx.prepare(ep, 2, 'read')) ?? base), param, attackerIds[0]!);
        own = await ctx.sendPrepared(mine, asKey(attacker));
        if (own.ok && sameData(own, victimRead, 0.9)) continue; // the id makes no difference: nothing per-user here
      }
      const proofs = [
        ...(owned ? [`${param.name}=${value} is in ${keyLabel(victim)}'s own listing of the collection and not in ${keyLabel(attacker)}'s`] : []),
        ...(leaked.length ? [`the answer carries ${keyLabel(victim)}'s identity (${leaked.slice(0, 3).join(', ')})`] : []),
        ...(own?.ok ? [`${keyLabel(attacker)}'s own object reads differently`] : []),
      ];
      const confidence = cap(proofs.length >= 2 ? 'high' : 'medium', ctx, attacker);
      leaks.push({
        victim,
        attacker,
        confidence,
        proof: proofs.join('; '),
        attack,
        exchanges: [
          { label: `Baseline: ${keyLabel(victim)} reads its own object`, exchange: victimRead },
          { label: 'Baseline: the same request without credentials', exchange: anon },
          { label: `Attack: ${keyLabel(attacker)} sends ${keyLabel(victim)}'s request`, exchange: attack },
          ...(own ? [{ label: `${keyLabel(attacker)} reads its own object (for comparison)`, exchange: own }] : []),
        ],
      });
    }
    if (leaks.length) yield bolaFinding(ctx, leaks, param.name, 'replaying the victim\'s request');
  },
});

// ---------------------------------------------------------------- API1.3 id swap (user ids)

export const bolaIdSwap = defineCheck({
  id: 'api1-bola-id-swap',
  title: 'Another user\'s id accepted in the caller\'s request (id swap)',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  severity: 'high',
  confidence: 'medium',
  cvss: READ_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 8,
  needsKey2: true,
  techniques: ['API1.3'],
  description:
    'For reads whose path, query or body names a user (userId, account_id, username, email...): each key sends its own request with its own ' +
    'user id from /me, then the same request with the other user\'s id (both directions), and once without credentials. Finding: the swapped ' +
    'request answers 2xx with the other user\'s data (≥ 90 % of the values the owner gets), the two users\' own answers differ, and the ' +
    'anonymous request is refused; high confidence when the answer has the shape of the caller\'s own with different values.',
  coverage:
    'Needs a second key and a /me-like endpoint that tells each key\'s user id, username or email. Ids of other kinds of objects are swapped by the token-swap and create-then-steal checks.',
  remediation: REMEDIATION,
  references: REFS,
  appliesTo: (e) => e.flags.includes('BOLA') && readsObject(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const params = idParams(ep).filter((p) => isUserRef(p.name));
    const param = params[params.length - 1];
    if (!param) return;
    const base1 = await ctx.baselineRequest(ep, 'key1');
    const base2 = await ctx.prepare(ep, 2, 'read');
    if (!base1 || !base2) return;
    const ids: Partial<Record<KeyNumber, string | null>> = { 1: identityValueFor(ctx, 1, param.name), 2: identityValueFor(ctx, 2, param.name) };
    if (!ids[1] || !ids[2] || ids[1] === ids[2]) {
      ctx.note(`${describeEndpoint(ep)}: the id swap needs both users' ${param.name} from a /me-like endpoint; not tested.`);
      return;
    }
    const own: Partial<Record<KeyNumber, Exchange>> = {};
    const ownRead = async (k: KeyNumber): Promise<Exchange | null> => {
      if (own[k]) return own[k]!;
      const req = withValue(ctx, k === 1 ? base1 : base2, param, ids[k]!);
      const ex = k === 1 && sameRequest(req, base1) ? await ctx.baseline('key1') : await ctx.sendPrepared(req, asKey(k));
      if (ex) own[k] = ex;
      return ex;
    };
    const leaks: Leak[] = [];
    const privileged = await privilegedKey(ctx);
    for (const victim of [1, 2] as const) {
      const attacker = otherKey(victim);
      if (attacker === privileged) continue;
      if (ctx.budgetLeft() < 3) break;
      const victimRead = await ownRead(victim);
      const attackerRead = await ownRead(attacker);
      if (!victimRead?.ok || !attackerRead) continue;
      // Both users get the same answer for their own ids: the parameter does not select per-user data.
      if (attackerRead.ok && sameData(attackerRead, victimRead, 0.9)) continue;
      const swapped = withValue(ctx, attacker === 1 ? base1 : base2, param, ids[victim]!);
      const anon = await ctx.sendPrepared(swapped, { kind: 'none' });
      const attack = await ctx.sendPrepared(swapped, asKey(attacker));
      if (!(await compareTriple(ctx, victimRead, anon, attack))) continue;
      const shape = attackerRead.ok && !isEmptyBody(attackerRead) && sameShapeOtherData(attack, attackerRead);
      const leaked = marksIn(identityMarks(ctx, victim), attack.body);
      const proofs = [
        `${param.name}=${ids[victim]} is ${keyLabel(victim)}'s own id (${ctx.identities[victim === 1 ? 'key1' : 'key2']?.source ?? '/me'})`,
        ...(shape ? [`the answer has the shape of ${keyLabel(attacker)}'s own with different values`] : []),
        ...(leaked.length ? [`it carries ${keyLabel(victim)}'s identity (${leaked.slice(0, 3).join(', ')})`] : []),
      ];
      // The user record itself (/users/{id}) is a profile some APIs show to every member by design; sub-resources are not.
      const profile = param.in === 'path' && ep.path.endsWith(`{${param.name}}`);
      if (profile) proofs.push('note: this is the user record itself, which some APIs show to every signed-in user by design');
      leaks.push({
        victim,
        attacker,
        confidence: cap(proofs.length >= 2 && !profile ? 'high' : 'medium', ctx, attacker),
        proof: proofs.join('; '),
        attack,
        exchanges: [
          { label: `Baseline: ${keyLabel(victim)} with its own ${param.name}`, exchange: victimRead },
          { label: `Baseline: ${keyLabel(attacker)} with its own ${param.name}`, exchange: attackerRead },
          { label: 'Baseline: the swapped request without credentials', exchange: anon },
          { label: `Attack: ${keyLabel(attacker)} with ${keyLabel(victim)}'s ${param.name}`, exchange: attack },
        ],
      });
    }
    if (leaks.length) yield bolaFinding(ctx, leaks, param.name, `putting ${'the victim\'s'} ${param.name} in its own request`);
  },
});

// ---------------------------------------------------------------- API1.2 create then steal

function producedPath(ctx: CheckContext, e: Endpoint): boolean {
  const names = pathParamNames(e.path);
  return names.length > 0 && !!ctx.resources.producerFor(e);
}

/** A body for a write with a fresh marker in a free-text property; null when the body has none. */
function markedWrite(request: PreparedRequest, marker: string): { request: PreparedRequest; field: string; value: string } | null {
  const schema = request.endpoint?.request_body?.schema ?? null;
  const body = isObj(request.bodyValue) ? request.bodyValue : null;
  if (!body) return null;
  const field = markerField(schema, body);
  if (!field) return null;
  const value = fitMarker(marker, schemaShape(schema).props[field]);
  return { request: mutate(request, { bodyValue: { ...body, [field]: value } }), field, value };
}

/**
 * A listing (a GET without path parameters under the collection's path: /posts, /posts/recent) in
 * which `key` sees the object with its data (≥ 90 % of the values the owner reads): then other users
 * reading it is how the API is meant to work. A listing that shows the id but not the data (titles
 * listed, secrets only in the object) does not count.
 */
async function listedFor(ctx: CheckContext, ep: Endpoint, id: string, key: KeyNumber, ownerRead: Exchange): Promise<Endpoint | null> {
  const producer = ctx.resources.producerFor(ep);
  if (!producer || !id) return null;
  const prefix = producer.path.replace(/\/+$/, '');
  const lists = ctx.allEndpoints.filter((e) => e.method === 'GET' && pathParamNames(e.path).length === pathParamNames(producer.path).length && (e.path === prefix || e.path.startsWith(`${prefix}/`))).slice(0, 2);
  for (const list of lists) {
    if (ctx.budgetLeft() <= 0) break;
    const req = await ctx.prepare(list, key, 'read');
    if (!req) continue;
    const optional = Object.fromEntries(list.parameters.filter((p) => p.in === 'query' && !p.required).map((p) => [p.name, null]));
    const ex = await ctx.sendPrepared(mutate(req, { query: optional }), asKey(key));
    if (!ex.ok || !(ex.body.includes(`"${id}"`) || new RegExp(`[:\\[,]\\s*${id.replace(/[^\w-]/g, '')}\\s*[,}\\]]`).test(ex.body))) continue;
    // The listing's item for this object shows every property the owner reads (a post), not just some (a book's title, not its secret).
    const owned = resourceObject(ownerRead.json());
    const item = (listItems(ex.json()) ?? []).find((it) => isObj(it) && Object.values(it).some((v) => String(v) === id));
    if (owned && isObj(item)) {
      const missing = Object.keys(owned).filter((k) => !isVolatileKey(k) && owned[k] !== null && !(k in item));
      if (!missing.length) return list;
      continue;
    }
    const values = distinctiveValues(ownerRead.json() ?? ownerRead.body, 50);
    if (values.length && valuesFoundIn(values, ex.body).length >= 0.9 * values.length) return list;
  }
  return null;
}

export const bolaCreateSteal = defineCheck({
  id: 'api1-bola-create-steal',
  title: 'Another user can read, change or delete an object (create then steal)',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  severity: 'high',
  confidence: 'high',
  cvss: READ_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 8,
  needsKey2: true,
  techniques: ['API1.2'],
  description:
    'Where a POST creates what this endpoint addresses, one key creates the object (id from the response body or Location) and the other ' +
    'key reads, updates (with a unique marker in a text field) or deletes it; the owner then reads it again. Both directions. Finding: ' +
    'a read that returns 2xx with ≥ 90 % of the owner\'s values (the anonymous read refused); an update or delete answered 2xx whose effect ' +
    'the owner\'s re-read confirms (the marker is there; the object is gone with 404/410). Only objects the scan created are changed or deleted.',
  coverage:
    'Needs a second key, a POST that returns the new object\'s id (or is addressed by a key it sent), and for updates and deletes a GET on ' +
    'the same path to confirm the effect. A read is not reported when the attacker\'s own listing under the collection\'s path shows the ' +
    'object with all its properties (shared by design, like a public post); objects shared by design but listed nowhere are reported — review those.',
  remediation: REMEDIATION,
  references: REFS,
  appliesTo: (e) => e.flags.includes('BOLA') && ['GET', 'PUT', 'PATCH', 'DELETE'].includes(e.method) && pathParamNames(e.path).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    if (!producedPath(ctx, ep)) return;
    const param = pathParamNames(ep.path).slice(-1)[0]!;
    const leaks: Leak[] = [];
    let kind: 'read' | 'update' | 'delete' = 'read';
    const privileged = await privilegedKey(ctx);
    for (const victim of [1, 2] as const) {
      const attacker = otherKey(victim);
      if (attacker === privileged) continue;
      if (ctx.budgetLeft() < 2) break;
      if (ep.method === 'GET') {
        const request = victim === 1 ? await ctx.baselineRequest(ep, 'key1') : await ctx.prepare(ep, 2, 'read');
        if (!request || !createdBy(ctx, request, victim)) continue;
        const victimRead = victim === 1 ? await ctx.baseline('key1') : await ctx.sendPrepared(request, asKey(2));
        const anon = await ctx.baseline('anonymous');
        const attack = victim === 1 ? await ctx.baseline('key2') : await ctx.sendPrepared(request, asKey(1));
        if (!victimRead || !attack || !(await compareTriple(ctx, victimRead, anon, attack))) continue;
        // Shared by design (a post everyone may read): the attacker's own listing of the collection already shows it.
        const listed = await listedFor(ctx, ep, request.pathValues[param]?.value ?? '', attacker, victimRead);
        if (listed) {
          ctx.note(`${describeEndpoint(ep)}: ${keyLabel(attacker)} can read ${keyLabel(victim)}'s object, but its own listing ${describeEndpoint(listed)} shows it too (shared by design); not reported.`);
          continue;
        }
        const sent = ctx.resources.created.find((o) => o.id === request.pathValues[param]?.value);
        const marks = sent ? distinctiveValues(sent.sent, 20).filter((v) => /[a-z]/i.test(v) && /\d/.test(v)) : [];
        const echoed = marksIn(marks, attack.body);
        leaks.push({
          victim,
          attacker,
          confidence: cap('high', ctx, attacker),
          proof: `${keyLabel(victim)} created it in this scan (${requestLine(sent?.exchange ?? victimRead)})${echoed.length ? `, and the answer carries the values sent then (${echoed.slice(0, 2).join(', ')})` : ''}`,
          attack,
          exchanges: [
            ...(sent ? [{ label: `${keyLabel(victim)} creates the object`, exchange: sent.exchange }] : []),
            { label: `Baseline: ${keyLabel(victim)} reads it`, exchange: victimRead },
            ...(anon ? [{ label: 'Baseline: the same read without credentials', exchange: anon }] : []),
            { label: `Attack: ${keyLabel(attacker)} reads ${keyLabel(victim)}'s object`, exchange: attack },
          ],
        });
        continue;
      }
      const reader = readerOf(ctx, ep);
      if (!reader) return;
      const prepared = await ctx.prepare(ep, victim, ep.method === 'DELETE' ? 'destroy' : 'write');
      if (!prepared || !createdBy(ctx, prepared, victim)) continue;
      const before = await readAs(ctx, reader, prepared.url, victim);
      if (!before.ok || isEmptyBody(before)) continue;
      const created = ctx.resources.created.find((o) => o.id === prepared.pathValues[param]?.value);
      if (ep.method === 'DELETE') {
        kind = 'delete';
        const attack = await ctx.sendPrepared(prepared, asKey(attacker));
        if (!attack.ok) continue;
        const after = await readAs(ctx, reader, prepared.url, victim);
        if (after.status !== 404 && after.status !== 410) continue;
        leaks.push({
          victim,
          attacker,
          confidence: cap('high', ctx, attacker),
          proof: `${keyLabel(victim)} created it in this scan, could read it before, and gets ${after.status} after ${keyLabel(attacker)}'s DELETE`,
          attack,
          exchanges: [
            ...(created ? [{ label: `${keyLabel(victim)} creates the object`, exchange: created.exchange }] : []),
            { label: `Baseline: ${keyLabel(victim)} reads it`, exchange: before },
            { label: `Attack: ${keyLabel(attacker)} deletes ${keyLabel(victim)}'s object`, exchange: attack },
            { label: `${keyLabel(victim)} reads it again`, exchange: after },
          ],
        });
        continue;
      }
      kind = 'update';
      const marked = markedWrite(prepared, newMarker('pclbola'));
      if (!marked || before.body.includes(marked.value)) continue;
      const attack = await ctx.sendPrepared(marked.request, asKey(attacker));
      if (!attack.ok) continue;
      const after = await readAs(ctx, reader, prepared.url, victim);
      if (!after.ok || !after.body.includes(marked.value)) continue;
      leaks.push({
        victim,
        attacker,
        confidence: cap('high', ctx, attacker),
        proof: `${keyLabel(victim)} created it in this scan, and its re-read shows ${marked.field} = "${marked.value}" written by ${keyLabel(attacker)}`,
        attack,
        exchanges: [
          ...(created ? [{ label: `${keyLabel(victim)} creates the object`, exchange: created.exchange }] : []),
          { label: `Baseline: ${keyLabel(victim)} reads it`, exchange: before },
          { label: `Attack: ${keyLabel(attacker)} writes to ${keyLabel(victim)}'s object`, exchange: attack },
          { label: `${keyLabel(victim)} reads it again`, exchange: after },
        ],
      });
    }
    if (!leaks.length) return;
    const draft = bolaFinding(ctx, leaks, param, kind === 'read' ? 'reading an object the other key created' : `${kind === 'update' ? 'updating' : 'deleting'} an object the other key created`);
    if (kind === 'read') {
      yield draft;
      return;
    }
    const best = leaks[0]!;
    yield {
      ...draft,
      name: kind === 'update' ? 'Another user can change an object (create then steal)' : 'Another user can delete an object (create then steal)',
      cvss: kind === 'update' ? WRITE_CVSS : DELETE_CVSS,
      description:
        `${describeEndpoint(ctx.endpoint)} let ${keyLabel(best.attacker)} ${kind} an object that ${keyLabel(best.victim)} created: ${best.proof}. ` +
        `${leaks.length > 1 ? 'It works in both directions. ' : ''}Any signed-in user can ${kind === 'update' ? 'overwrite' : 'delete'} other users' objects.`,
    };
  },
});

// ---------------------------------------------------------------- use after delete

const SOFT_DELETED = /^(deleted|removed|archived|trashed|inactive|disabled|cancel+ed|revoked)$/i;

/** The re-read says the object is deleted (a deleted flag, a deletedAt, a status). */
function marksDeleted(before: unknown, after: unknown): boolean {
  const a = resourceObject(after);
  const b = resourceObject(before);
  if (!a) return false;
  for (const [k, v] of Object.entries(a)) {
    if (b && JSON.stringify(b[k]) === JSON.stringify(v)) continue;
    if (/^(is_?)?(deleted|removed|archived|trashed)$/i.test(k) && v === true) return true;
    if (/^(deleted|removed|archived|trashed)_?(at|on)$/i.test(k) && v) return true;
    if (/^(status|state)$/i.test(k) && typeof v === 'string' && SOFT_DELETED.test(v)) return true;
  }
  return false;
}

export const useAfterDelete = defineCheck({
  id: 'api1-use-after-delete',
  title: 'Object still readable after it was deleted',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-672',
  severity: 'medium',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:L/I:L/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 5,
  needsKey2: false,
  techniques: ['STATEFUL.1'],
  description:
    'On a DELETE of an object the scan created (a fresh one), with a GET on the same path: key 1 reads the object, deletes it, and reads it ' +
    'again. Finding: the DELETE answered 2xx and the re-read still answers 2xx with the same object (≥ 90 % of its values) and no sign of ' +
    'a soft delete (deleted flag, deletedAt, status "deleted"); high confidence when the collection\'s list no longer shows it (the API ' +
    'itself considers it gone).',
  coverage: 'Needs a POST that creates the object and a GET on the DELETE\'s path. Deletes that complete asynchronously may be reported; the evidence shows the timing.',
  remediation:
    'Make every read path honour the deletion: remove the row, or filter soft-deleted rows in the data-access layer that all handlers use ' +
    '(not only in the list query), and answer 404 (or 410) for a deleted object.',
  references: ['https://cwe.mitre.org/data/definitions/672.html', OWASP_API1, 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/10-Business_Logic_Testing/README'],
  appliesTo: (e) => e.method === 'DELETE' && e.flags.includes('BOLA') && pathParamNames(e.path).length > 0,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const reader = readerOf(ctx, ep);
    if (!reader) return;
    const prepared = await ctx.prepare(ep, 1, 'destroy');
    if (!prepared || !createdBy(ctx, prepared, 1)) return;
    const before = await readAs(ctx, reader, prepared.url, 1);
    if (!before.ok || isEmptyBody(before)) return;
    const del = await ctx.sendPrepared(prepared, asKey(1));
    // 202: accepted for later; the object may legitimately live on for a while.
    if (!del.ok || del.status === 202) return;
    const after = await readAs(ctx, reader, prepared.url, 1);
    if (!after.ok || isEmptyBody(after) || !sameData(after, before, 0.9) || marksDeleted(before.json(), after.json())) return;
    const param = pathParamNames(ep.path).slice(-1)[0]!;
    const id = prepared.pathValues[param]!.value;
    // The list: does the API itself consider the object gone?
    let list: Exchange | null = null;
    const listEp = ctx.resources.listFor(ep, param);
    if (listEp && ctx.budgetLeft() > 0) {
      const req = await ctx.prepare(listEp, 1, 'read');
      if (req) list = await ctx.sendPrepared(req, asKey(1), undefined);
    }
    const hidden = !!list?.ok && !list.body.includes(id);
    const created = ctx.resources.created.find((o) => o.id === id);
    yield {
      parameter: param,
      confidence: hidden ? 'high' : 'medium',
      description:
        `${describeEndpoint(ep)} answered ${del.status} for an object the scan created, but ${describeEndpoint(reader)} still returns it afterwards ` +
        `(HTTP ${after.status}, the same data as before)${hidden ? ', although the collection\'s list no longer shows it' : ''}. Deleted data stays ` +
        'readable by anyone who kept its id, and users are told it is gone when it is not.',
      notes: [`Similarity of the reads before and after the DELETE: ${JSON.stringify(compareBodies(after, before))}.`],
      exchanges: [
        ...(created ? [{ label: 'Key 1 creates the object', exchange: created.exchange }] : []),
        { label: 'Baseline: key 1 reads the object', exchange: before },
        { label: 'Key 1 deletes it', exchange: del },
        { label: 'Attack: key 1 reads it again', exchange: after },
        ...(list ? [{ label: 'Key 1 lists the collection', exchange: list }] : []),
      ],
      reproduce: after,
    };
  },
});

export const BOLA_CHECKS = [bolaTokenSwap, bolaIdSwap, bolaCreateSteal, useAfterDelete];
