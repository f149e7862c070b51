// API1:2023 Broken Object Level Authorization, tested between the two users of a scan in both
// directions: the victim's request replayed with the attacker's key (token swap), and a user id
// from /me swapped into the attacker's own request (id swap). Every cross-user finding proves the
// object belongs to the victim: it is in the victim's own listing and not the attacker's, or the
// answer carries the victim's identity from /me.

import type { Endpoint } from '../../../../shared/contract';
import type { LabelledExchange } from '../../evidence';
import type { Exchange, KeyNumber } from '../../http/exchange';
import { fillPath, mutate, type PreparedRequest } from '../../requests';
import { distinctiveValues, isEmptyBody, sameData, sameShapeOtherData } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    asKey,
    carriesDataOf,
    identityMarks,
    identityValueFor,
    idParams,
    isObj,
    isUserRef,
    keyLabel,
    looksLikeError,
    marksIn,
    otherKey,
    ownedIds,
    privilegedKey,
    refused,
    schemaShape,
    type IdParam,
} from '../common/objects';
import { ledgerIdsFor, ledgers, ownerProof, userRefValue } from '../common/ownership';
import type { CheckContext, FindingDraft } from '../types';
import { OWASP_API1 } from '../common/references';

export const REFS = [OWASP_API1, 'https://cwe.mitre.org/data/definitions/639.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authorization_Cheat_Sheet.html'];
export const READ_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N';
export const WRITE_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:N';
export const DELETE_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H';
export const REMEDIATION =
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
export function objectParam(e: Endpoint): IdParam | null {
  const params = idParams(e);
  const path = params.filter((p) => p.in === 'path');
  return path[path.length - 1] ?? params.find((p) => p.in === 'query') ?? params.find((p) => p.in === 'body') ?? null;
}

export function valueIn(request: PreparedRequest, p: IdParam): string | null {
  if (p.in === 'path') return request.pathValues[p.name]?.value ?? null;
  if (p.in === 'query') return request.url.searchParams.get(p.name);
  const v = isObj(request.bodyValue) ? request.bodyValue[p.name] : undefined;
  return v === undefined || v === null ? null : String(v);
}

/** The request with the parameter set to `value` (typed as the schema wants it in a body). */
export function withValue(ctx: CheckContext, request: PreparedRequest, p: IdParam, value: string): PreparedRequest {
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

export const cap = (c: 'high' | 'medium', ctx: CheckContext, attacker: KeyNumber): 'high' | 'medium' => (attackerMayBePrivileged(ctx, attacker) ? 'medium' : c);

export interface Leak {
  victim: KeyNumber;
  attacker: KeyNumber;
  confidence: 'high' | 'medium';
  proof: string;
  exchanges: LabelledExchange[];
  attack: Exchange;
}

export function bolaFinding(ctx: CheckContext, leaks: Leak[], param: string, technique: string): FindingDraft {
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
export async function compareTriple(
  ctx: CheckContext,
  victimRead: Exchange,
  anon: Exchange | null,
  attack: Exchange,
  opts: { ownerProven?: boolean } = {},
): Promise<boolean> {
  if (!victimRead.ok || isEmptyBody(victimRead) || looksLikeError(victimRead)) return false;
  if (anon && !refused(anon)) return false;
  // Something worth leaking: at least two distinctive values (not `{"ok": true}`), unless an owner field
  // says whose object it is (an empty basket is still someone's basket).
  const json = victimRead.json();
  if (json !== undefined && !opts.ownerProven && distinctiveValues(json, 4).length < 2) return false;
  return carriesDataOf(attack, victimRead) && !looksLikeError(attack);
}

// ---------------------------------------------------------------- API1.1 token swap

export const bolaTokenSwap = defineCheck({
  id: 'api1-bola-token-swap',
  title: 'Object readable with another user\'s key (token swap)',
  flag: 'BOLA',
  owasp: 'API1:2023',
  cwe: 'CWE-639',
  confidence: 'medium',
  cvss: READ_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 12,
  needsKey2: true,
  techniques: ['API1.1'],
  description:
    'For reads (GET, and POST lookups) that name an existing object by an id in the path, query or body: the victim\'s request, with an id ' +
    'from the victim\'s own listing of that collection, else from its ownership ledger (an id of that resource its login answer, token or ' +
    'profile named: `basketId`, `bid` for /basket/{id}), else the spec\'s example, is sent by the victim, without credentials and with the other ' +
    'key; then the other way round. Finding: the other key gets a 2xx whose body carries ≥ 90 % of the victim\'s values, the anonymous request is ' +
    'refused, and the object is proven to be the victim\'s — its id is in the victim\'s listing and not the attacker\'s, an owner-named field of ' +
    'the answer (`UserId: 7`) holds the victim\'s learnt id and not the attacker\'s, the body carries the victim\'s identity from /me, or the id ' +
    'came from the victim\'s answers under the resource\'s own name and the attacker\'s own id reads differently. Objects the scan created are ' +
    'left to the create-then-steal check, user ids to the id-swap check.',
  coverage:
    'Needs a second key. Ownership can only be proven where the API lists the caller\'s objects (a GET on the collection), answers with the ' +
    'owner\'s identity or an owner id the scan learnt, the scan configuration lists each identity\'s ids (`objects:`), or named the id to ' +
    'the victim; other ids are not reported (an id of a third user is never guessed). A short numeric owner id counts only when both ' +
    'users\' ids are known. A key with an administrator role legitimately ' +
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
    const both = await ledgers(ctx);
    const ledger = (k: KeyNumber) => both[k === 1 ? 0 : 1];
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
      // The victim's own id of this resource from its answers (a basket id in its login answer), when no listing tells.
      const attackerLedgerIds = ledgerIdsFor(ledger(attacker), ep, param.name).map((x) => x.value);
      const fromLedger = victimIds?.length ? null : (ledgerIdsFor(ledger(victim), ep, param.name).find((x) => !attackerLedgerIds.includes(x.value)) ?? null);
      if (victimIds?.length && (value === null || !victimIds.includes(value))) {
        value = victimIds.find((id) => !attackerIds?.includes(id)) ?? null;
        if (value === null) continue;
        request = withValue(ctx, base, param, value);
      } else if (fromLedger && value !== fromLedger.value) {
        value = fromLedger.value;
        request = withValue(ctx, base, param, value);
      }
      if (value === null) continue;
      // Listed by both users: shared by design (public files, a team's common objects).
      if (attackerIds?.includes(value)) continue;
      const owned = !!victimIds?.includes(value);
      if (victim === 2 && !owned && !fromLedger) continue; // key 2's request has only the spec's examples to offer otherwise
      if (ctx.budgetLeft() < 3) break;
      const isBaseline = victim === 1 && sameRequest(request, base1);
      const victimRead = isBaseline ? await ctx.baseline('key1') : await ctx.sendPrepared(request, asKey(victim));
      if (!victimRead?.ok) continue;
      const anon = isBaseline ? await ctx.baseline('anonymous') : await ctx.sendPrepared(request, { kind: 'none' });
      if (!anon?.response || !refused(anon)) continue;
      const attack = isBaseline ? await ctx.baseline('key2') : await ctx.sendPrepared(request, asKey(attacker));
      const victimOwned = !!ownerProof(ctx, victimRead.json(), ledger(victim), ledger(attacker));
      if (!attack || !(await compareTriple(ctx, victimRead, anon, attack, { ownerProven: victimOwned }))) continue;
      const leaked = marksIn(identityMarks(ctx, victim), attack.body);
      // Short numeric owner ids prove ownership only under an owner-named field (`UserId: 7`), never by appearing somewhere.
      const ownerField = ownerProof(ctx, attack.json(), ledger(victim), ledger(attacker));
      const ledgerNamed = fromLedger?.value === value && fromLedger.named;
      if (!owned && !leaked.length && !ownerField && !ledgerNamed) continue;
      // With the identity as the only proof, an object that also names the attacker (a message between the two) may be theirs to read.
      if (!owned && !ownerField && marksIn(identityMarks(ctx, attacker), attack.body).length) continue;
      // The attacker's own object reads differently: the data depends on the id, so this is the victim's.
      let own: Exchange | null = null;
      const attackerOwn = attackerIds?.[0] ?? attackerLedgerIds[0];
      if (attackerOwn !== undefined && attackerOwn !== value && ctx.budgetLeft() > 0) {
        const mine = withValue(ctx, attacker === 1 ? (base1 ?? base) : ((await ctx.prepare(ep, 2, 'read')) ?? base), param, attackerOwn);
        own = await ctx.sendPrepared(mine, asKey(attacker));
        // The id makes no difference: nothing per-user here. Unless the owner field says otherwise: two empty baskets read alike, yet each names its owner.
        if (own.ok && sameData(own, victimRead, 0.9) && !ownerField) continue;
      }
      // An id the victim's answers named, with nothing else to prove it: the attacker's own must read differently.
      if (!owned && !leaked.length && !ownerField && !own?.ok) continue;
      const proofs = [
        ...(owned
          ? [
              ctx.resources.declaredIds(victim, ep.path, param).includes(value)
                ? `${param.name}=${value} is ${keyLabel(victim)}'s by the scan configuration (objects:) and not in ${keyLabel(attacker)}'s`
                : `${param.name}=${value} is in ${keyLabel(victim)}'s own listing of the collection and not in ${keyLabel(attacker)}'s`,
            ]
          : []),
        ...(fromLedger?.value === value ? [`${param.name}=${value} is ${keyLabel(victim)}'s own (${fromLedger.learnt.field} in ${fromLedger.learnt.source})`] : []),
        ...(ownerField ? [`the answer is ${keyLabel(victim)}'s object: ${ownerField}`] : []),
        ...(leaked.length ? [`the answer carries ${keyLabel(victim)}'s identity (${leaked.slice(0, 3).join(', ')})`] : []),
        ...(own?.ok && !sameData(own, victimRead, 0.9) ? [`${keyLabel(attacker)}'s own object reads differently`] : []),
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
    'Needs a second key and each key\'s user id, username or email: from a /me-like endpoint, else (ids only) from the ownership ledger — the ' +
    'login answer, the token\'s claims, or the owner fields of objects each user created. Ids of other kinds of objects are swapped by the token-swap and create-then-steal checks.',
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
    // From /me, else the user ids learnt from the login answers, the tokens or the users' objects.
    if (!identityValueFor(ctx, 1, param.name) || !identityValueFor(ctx, 2, param.name)) await ledgers(ctx);
    const refs = { 1: userRefValue(ctx, 1, param.name), 2: userRefValue(ctx, 2, param.name) };
    const ids: Partial<Record<KeyNumber, string | null>> = { 1: refs[1]?.value ?? null, 2: refs[2]?.value ?? null };
    if (!ids[1] || !ids[2] || ids[1] === ids[2]) {
      ctx.note(`${describeEndpoint(ep)}: the id swap needs both users' ${param.name}, which neither a /me-like endpoint nor their login answers, tokens or objects told; not tested.`);
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
        `${param.name}=${ids[victim]} is ${keyLabel(victim)}'s own id (${refs[victim]?.source ?? '/me'})`,
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
// ---------------------------------------------------------------- use after delete
