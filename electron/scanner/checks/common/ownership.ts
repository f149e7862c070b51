// The ownership ledger: which ids belong to which identity of the scan, learnt from every answer the
// scan got as that identity (its login answer and token claims, its /me-like profile, the objects it
// created), so the object-level checks can pick the other identity's ids for a swap and prove that
// an answer is the other identity's object. Short numeric ids collide (user 7, basket 7, order 7): a
// value proves ownership only under an owner-named field (`UserId: 7`), never by appearing somewhere.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange, KeyNumber } from '../../http/exchange';
import type { ResourcePool } from '../../resources';
import { mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { describeEndpoint } from './helpers';
import { identityOf, identityValueFor, isObj, keyLabel, otherKey, resourceOf, schemaShape, type Json } from './objects';
import type { CheckContext } from '../types';

/** A value learnt about an identity, with the field that held it and where it was seen. */
export interface LearnedValue {
  field: string;
  value: string;
  /** "its login answer", "the claims of its token", "GET /me", "the object it created with POST /ads". */
  source: string;
}

export interface OwnershipLedger {
  key: KeyNumber;
  /** The identity's own user ids (id, sub, userId...). */
  self: LearnedValue[];
  /** Ids of objects that are its own (a basket id in its login answer, an object it created). */
  objects: LearnedValue[];
  /** Its own e-mail addresses and user names (from its login request and answer, its /me-like answer). */
  names: LearnedValue[];
}

/** Fields that hold the id of the user an answer is about (in a login answer, token claims or a profile). */
const SELF_ID = /^(id|sub|uid|user_?id|account_?id|customer_?id|member_?id)$/i;
/** Containers of a login answer or a profile that hold the user (or the session issued to it). */
const USER_WRAPPERS = /^(data|user|account|profile|me|customer|member|result|authentication|auth|session|identity|login)$/i;
/** Of those, the ones where a bare `id` is the user's (not the session's or the token's). */
const ID_IS_USER = /^(data|user|account|profile|me|customer|member|result|identity)$/i;
/**
 * Fields that name who owns an object: user, userId, UserId, owner_id, author, created_by, customer... A
 * recipient, a follower or a target is someone else by design and is not among them.
 */
const OWNER_FIELD = /^(user|owner|author|creator|customer|account|member|person|client|patient|employee|player|uploader|poster)[-_]?(id|uuid|guid|key|no|number)?$|^(uid|(created|owned|uploaded|posted|submitted)[-_]?by([-_]?id)?)$/i;
/** An abbreviated object id ("bid": the basket id, "oid"), read as an object of a resource starting with that letter. */
const ABBREVIATED_ID = /^[a-z]{1,2}id$/i;
const JWT = /^(?:bearer\s+)?([A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*)$/i;
const ID_NAME = /(^|[_\-.])(id|uuid|guid|pk|key|number|no|ref)$|[a-z0-9](Id|ID|Uuid|UUID|Guid|Key|Number|Ref)$/;
const NOT_AN_ID = /^(client_?id|grant_?id|jti|kid|sid|session_?id|request_?id|trace_?id|nonce|iss|aud|azp|tenant_?id|app_?id|device_?id)$/i;

export function isOwnerField(name: string): boolean {
  return OWNER_FIELD.test(name);
}

function scalar(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string' && v.length > 0 && v.length <= 64 && !/\s/.test(v)) return v;
  return null;
}

/** The claims of a JWT, or null. */
export function jwtClaims(token: string | null | undefined): Json | null {
  const m = token ? JWT.exec(token.trim()) : null;
  if (!m) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(m[1]!.split('.')[1]!, 'base64url').toString('utf8'));
    return isObj(payload) ? payload : null;
  } catch {
    return null;
  }
}

/**
 * The user ids and object ids of an answer about the identity itself: `id`/`sub`/`userId` at the top or
 * inside a user-like container are its own id; other id-named fields (basketId, bid) name objects it owns.
 * Tokens inside the answer are opened and read the same way.
 */
export function learnFrom(value: unknown, source: string, into: Pick<OwnershipLedger, 'self' | 'objects'>, claimsSource = `${source} (token claims)`): void {
  const visit = (v: unknown, wrapper: string | null, depth: number) => {
    if (!isObj(v) || depth > 3) return;
    for (const [k, x] of Object.entries(v)) {
      if (isObj(x)) {
        if (USER_WRAPPERS.test(k)) visit(x, k, depth + 1);
        continue;
      }
      if (typeof x === 'string' && JWT.test(x)) {
        const claims = jwtClaims(x);
        if (claims) learnFrom(claims, claimsSource, into);
        continue;
      }
      const s = scalar(x);
      if (s === null || NOT_AN_ID.test(k)) continue;
      const userLevel = wrapper === null || ID_IS_USER.test(wrapper);
      if (SELF_ID.test(k) && (k.toLowerCase() !== 'id' || userLevel)) add(into.self, { field: k, value: s, source });
      else if (ID_NAME.test(k) || ABBREVIATED_ID.test(k)) add(into.objects, { field: k, value: s, source });
    }
  };
  visit(value, null, 0);
}

function add(list: LearnedValue[], v: LearnedValue): void {
  if (!list.some((x) => x.field === v.field && x.value === v.value)) list.push(v);
}

/** The owner-named fields of an object (and of a data/result wrapper): `UserId: 7`, `user: {id: 7}`. */
export function ownerFields(value: unknown): { field: string; value: string }[] {
  const out: { field: string; value: string }[] = [];
  const visit = (v: unknown, depth: number) => {
    if (!isObj(v) || depth > 2) return;
    for (const [k, x] of Object.entries(v)) {
      if (isOwnerField(k)) {
        const s = scalar(x) ?? (isObj(x) ? scalar(x.id ?? x._id ?? x.uuid) : null);
        if (s !== null) out.push({ field: k, value: s });
        continue;
      }
      if (isObj(x) && /^(data|result|item|object|resource|record)$/i.test(k)) visit(x, depth + 1);
    }
  };
  visit(value, 0);
  return out;
}

// ---------------------------------------------------------------- learning by creating

interface Discovery {
  /** Per key: owner-field values of the objects it created, that the other key's objects do not share. */
  self: Map<KeyNumber, LearnedValue[]>;
  exchanges: Exchange[];
}

const discoveries = new WeakMap<ResourcePool, Promise<Discovery>>();
const AUTH_WORDS = /(^|[^a-z])(log-?in|log-?out|sign-?in|sign-?up|sign-?out|register|token|auth|oauth|password|passwd|reset|verify|otp|session|search|lookup|query|find|filter|graphql)([^a-z]|$)/i;
const MAX_PRODUCERS = 2;

function ownerValuesOfCreated(ctx: CheckContext): Map<KeyNumber, { producer: Endpoint; owners: { field: string; value: string }[] }[]> {
  const out = new Map<KeyNumber, { producer: Endpoint; owners: { field: string; value: string }[] }[]>();
  for (const o of ctx.resources.created) {
    const list = out.get(o.key) ?? [];
    list.push({ producer: o.producer, owners: ownerFields(o.exchange.json()) });
    out.set(o.key, list);
  }
  return out;
}

/**
 * Owner values of created objects, kept only where the two keys' objects of the same operation name
 * different owners (a constant or a default is no one's id).
 */
function distinctOwners(byKey: Map<KeyNumber, { producer: Endpoint; owners: { field: string; value: string }[] }[]>, key: KeyNumber): LearnedValue[] {
  const out: LearnedValue[] = [];
  for (const mine of byKey.get(key) ?? []) {
    const theirs = (byKey.get(otherKey(key)) ?? []).filter((x) => x.producer === mine.producer);
    if (!theirs.length) continue;
    for (const o of mine.owners) {
      const clash = theirs.some((t) => t.owners.some((x) => x.field === o.field && x.value === o.value));
      const seen = theirs.some((t) => t.owners.some((x) => x.field === o.field));
      if (!clash && seen) add(out, { field: o.field, value: o.value, source: `the object it created with ${describeEndpoint(mine.producer)}` });
    }
  }
  return out;
}

/**
 * Where no answer told a key's user id (no id in the login answer, its token or a /me-like answer):
 * each of the two users creates one object with up to two create operations of the API (POST on a
 * collection; never a login, a sign-up or a search), and the owner-named fields the two objects
 * answer with differently are their owners' ids. Once per scan; at most four requests.
 */
export function discoverOwners(ctx: CheckContext): Promise<Discovery> {
  let p = discoveries.get(ctx.resources);
  if (!p) {
    p = (async (): Promise<Discovery> => {
      const found: Discovery = { self: new Map(), exchanges: [] };
      if (!ctx.hasKey2) return found;
      // Operations that say they create (201) first, then those whose answer is described with an owner field.
      const rank = (e: Endpoint) => (Object.keys(e.responses).includes('201') ? 0 : ownerFieldsInSchema(e) ? 1 : 2);
      const producers = ctx.allEndpoints
        .filter((e) => e.method === 'POST' && pathParamNames(e.path).length === 0 && !AUTH_WORDS.test(`${e.path} ${e.operation_id ?? ''}`) && !e.graphql)
        .map((e, i) => ({ e, i, r: rank(e) }))
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .slice(0, MAX_PRODUCERS)
        .map((x) => x.e);
      const byKey = new Map<KeyNumber, { producer: Endpoint; owners: { field: string; value: string }[] }[]>();
      for (const producer of producers) {
        for (const key of [1, 2] as const) {
          if (ctx.budgetLeft() < 1) return found;
          const request = await ctx.prepare(producer, key, 'write');
          if (!request) break;
          const ex = await ctx.sendPrepared(request, { kind: 'key', key });
          found.exchanges.push(ex);
          if (!ex.ok) break;
          const list = byKey.get(key) ?? [];
          list.push({ producer, owners: ownerFields(ex.json()) });
          byKey.set(key, list);
        }
      }
      for (const key of [1, 2] as const) found.self.set(key, distinctOwners(byKey, key));
      return found;
    })();
    discoveries.set(ctx.resources, p);
  }
  return p;
}

/** The 2xx answer of an operation is described with an owner-named property. */
function ownerFieldsInSchema(e: Endpoint): boolean {
  return Object.entries(e.responses).some(([status, r]) => status.startsWith('2') && Object.keys(schemaShape(r.schema ?? null).props).some(isOwnerField));
}

function settledDiscovery(ctx: CheckContext): Discovery | null {
  return discovered.get(ctx.resources) ?? null;
}
const discovered = new WeakMap<ResourcePool, Discovery>();

// ---------------------------------------------------------------- names

/** Fields that say who a user is by name: its e-mail address or user name. */
const NAME_FIELD = /^(e-?mail|email_?address|user_?name|login)$/i;

/** The value of a name field (an e-mail address where the field says mail), or null. */
function nameValue(field: string, v: unknown): string | null {
  if (!NAME_FIELD.test(field) || typeof v !== 'string' || v.length < 3 || v.length > 254 || /\s/.test(v)) return null;
  return /mail/i.test(field) ? (/^[^@]+@[^@]+\.[^@]+$/.test(v) ? v : null) : v;
}

/** E-mail addresses and user names in a login request or answer, at the top or inside a user-like container. */
export function learnNames(value: unknown, source: string, into: LearnedValue[]): void {
  const visit = (v: unknown, depth: number) => {
    if (!isObj(v) || depth > 3) return;
    for (const [k, x] of Object.entries(v)) {
      if (isObj(x)) {
        if (ID_IS_USER.test(k)) visit(x, depth + 1);
        continue;
      }
      const name = nameValue(k, x);
      if (name) add(into, { field: k, value: name, source });
    }
  };
  visit(value, 0);
}

function requestJson(ex: Exchange): unknown {
  try {
    return ex.request.body ? (JSON.parse(ex.request.body) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** E-mail-shaped names of the scan's identities other than `key` (an address key 1 also holds excepted). */
export function otherIdentityEmails(ctx: CheckContext, key: KeyNumber): { key: KeyNumber; value: string; source: string }[] {
  const own = new Set(ledgerOf(ctx, key).names.map((n) => n.value.toLowerCase()));
  const out: { key: KeyNumber; value: string; source: string }[] = [];
  for (const k of [1, 2, 3, 4] as const) {
    if (k === key || (k === 2 && !ctx.hasKey2) || (k !== 1 && !identityOf(ctx, k))) continue;
    for (const n of ledgerOf(ctx, k).names) {
      if (n.value.includes('@') && !own.has(n.value.toLowerCase()) && !out.some((o) => o.value === n.value)) out.push({ key: k, value: n.value, source: n.source });
    }
  }
  return out;
}

// ---------------------------------------------------------------- the ledger

/** What the scan knows, now, about the ids a key owns (no request sent). */
export function ledgerOf(ctx: CheckContext, key: KeyNumber): OwnershipLedger {
  const ledger: OwnershipLedger = { key, self: [], objects: [], names: [] };
  const ident = identityOf(ctx, key);
  if (!ident && key !== 1) return ledger;
  for (const ex of ctx.loginExchanges(key)) {
    if (!ex.ok) continue;
    learnFrom(ex.json(), 'its login answer', ledger, 'the claims of the token its login issued');
    // Who logged in: the e-mail or user name it sent, and the one its login answer names.
    learnNames(requestJson(ex), 'its login request', ledger.names);
    learnNames(ex.json(), 'its login answer', ledger.names);
  }
  for (const [field, value] of Object.entries(ident?.values ?? {})) {
    const name = nameValue(field, value);
    if (name) add(ledger.names, { field, value: name, source: ident?.source ?? 'its profile' });
  }
  const claims = jwtClaims(ctx.credential(key));
  if (claims) learnFrom(claims, 'the claims of its token', ledger);
  if (ident?.source && ident.exchange?.ok) learnFrom(ident.exchange.json(), ident.source, ledger);
  for (const [field, value] of Object.entries(ident?.values ?? {})) if (SELF_ID.test(field)) add(ledger.self, { field, value, source: ident?.source ?? 'its profile' });
  for (const o of ctx.resources.created) {
    if (o.key !== key) continue;
    const collection = o.producer.path.split('/').filter((s) => s && !s.startsWith('{')).pop() ?? 'object';
    add(ledger.objects, { field: `${collection}:id`, value: o.id, source: `the object it created with ${describeEndpoint(o.producer)}` });
  }
  for (const v of distinctOwners(ownerValuesOfCreated(ctx), key)) add(ledger.self, v);
  for (const v of settledDiscovery(ctx)?.self.get(key) ?? []) add(ledger.self, v);
  return ledger;
}

/** The ledgers of both users, first creating objects to learn their owner ids where nothing else told them. */
export async function ledgers(ctx: CheckContext): Promise<[OwnershipLedger, OwnershipLedger]> {
  let one = ledgerOf(ctx, 1);
  let two = ledgerOf(ctx, 2);
  if (ctx.hasKey2 && (!one.self.length || !two.self.length) && !discovered.has(ctx.resources)) {
    discovered.set(ctx.resources, await discoverOwners(ctx));
    one = ledgerOf(ctx, 1);
    two = ledgerOf(ctx, 2);
  }
  return [one, two];
}

/**
 * The key's own value for a user-reference parameter: from its /me-like answer, else (for an id, not a
 * name or an e-mail) the user id learnt from its login answer, its token or its objects.
 */
export function userRefValue(ctx: CheckContext, key: KeyNumber, name: string): { value: string; source: string } | null {
  const fromProfile = identityValueFor(ctx, key, name);
  if (fromProfile) return { value: fromProfile, source: identityOf(ctx, key)?.source ?? '/me' };
  if (/e-?mail|name|login/i.test(name)) return null;
  const learnt = ledgerOf(ctx, key).self[0];
  return learnt ? { value: learnt.value, source: `${learnt.field} in ${learnt.source}` } : null;
}

// ---------------------------------------------------------------- picking and proving

const VERSION_SEGMENT = /^(v\d+(\.\d+)*|api|rest|latest)$/i;

/** The resource a parameter addresses: from its name (basketId), else the path segment before it (/baskets/{id}). */
export function resourceOfParam(endpoint: Pick<Endpoint, 'path'>, name: string): string | null {
  const fromName = resourceOf(name);
  if (fromName) return fromName;
  const segs = endpoint.path.split('/').filter(Boolean);
  const i = segs.indexOf(`{${name}}`);
  for (let j = i - 1; j >= 0; j -= 1) {
    const s = segs[j]!;
    if (s.startsWith('{')) return null;
    if (!VERSION_SEGMENT.test(s)) return resourceOf(`${s}Id`);
  }
  return null;
}

export interface LedgerId {
  value: string;
  learnt: LearnedValue;
  /** The field's name says which resource (basketId for /baskets); false for an abbreviation (bid). */
  named: boolean;
}

/** The key's own ids of the resource a parameter addresses, best named first. */
export function ledgerIdsFor(ledger: OwnershipLedger, endpoint: Pick<Endpoint, 'path'>, param: string): LedgerId[] {
  const resource = resourceOfParam(endpoint, param);
  if (!resource) return [];
  const out: LedgerId[] = [];
  for (const o of ledger.objects) {
    const field = o.field.includes(':') ? `${o.field.split(':')[0]}Id` : o.field;
    const res = resourceOf(field) ?? (ABBREVIATED_ID.test(field) ? field.slice(0, -2).toLowerCase() : null);
    if (!res) continue;
    if (res === resource) out.push({ value: o.value, learnt: o, named: true });
    else if (ABBREVIATED_ID.test(field) && resource.startsWith(res)) out.push({ value: o.value, learnt: o, named: false });
  }
  return out.sort((a, b) => Number(b.named) - Number(a.named));
}

/**
 * Proof that an answer is the victim's object: an owner-named field holds the victim's own id (or its
 * username or e-mail) and not the attacker's. Short numeric ids count only when both users' ids are
 * known (so a collision would show) and differ.
 */
export function ownerProof(ctx: CheckContext, body: unknown, victim: OwnershipLedger, attacker: OwnershipLedger): string | null {
  const names = (k: KeyNumber) => Object.entries(identityOf(ctx, k)?.values ?? {}).filter(([f]) => /^(username|login|email)$/i.test(f)).map(([, v]) => v);
  const attackerValues = new Set([...attacker.self.map((v) => v.value), ...names(attacker.key)]);
  const owners = ownerFields(body);
  if (owners.some((o) => attackerValues.has(o.value))) return null;
  for (const o of owners) {
    const self = victim.self.find((v) => v.value === o.value);
    if (self) {
      const short = o.value.length < 6 || /^\d+$/.test(o.value);
      if (short && !attacker.self.length) continue;
      return `its ${o.field} is ${o.value}, ${keyLabel(victim.key)}'s own id (${self.field} in ${self.source})`;
    }
    if (names(victim.key).includes(o.value)) return `its ${o.field} is ${o.value}, ${keyLabel(victim.key)}'s own name`;
  }
  return null;
}

/**
 * A create's request with the body fields that name a parent object (BasketId, cartId) set to the key's
 * own object of that resource, as the ledger knows it (its login answer's basket id, say), where the
 * prepared value is not already one of its own: the description's example names someone else's parent,
 * and the create is refused before any other rule is tested. Owner fields (UserId) are left as they are.
 * An abbreviated id (bid) is used only for the one id field of the body that starts with its letter.
 */
export function withOwnParents(ctx: CheckContext, ep: Pick<Endpoint, 'path'>, request: PreparedRequest, key: KeyNumber): PreparedRequest {
  const value = request.bodyValue;
  if (!isObj(value)) return request;
  const ledger = ledgerOf(ctx, key);
  const idFields = Object.keys(value).filter((f) => ID_NAME.test(f) && !isOwnerField(f));
  let body: Json | null = null;
  for (const field of idFields) {
    const current = scalar(value[field]);
    const own = ledgerIdsFor(ledger, ep, field).filter((x) => x.named || idFields.filter((f) => f[0]!.toLowerCase() === field[0]!.toLowerCase()).length === 1)[0];
    if (!own || current === null || own.value === current || ctx.resources.created.some((o) => o.key === key && o.id === current)) continue;
    body ??= { ...value };
    body[field] = typeof value[field] === 'number' && /^\d+$/.test(own.value) ? Number(own.value) : own.value;
  }
  return body ? mutate(request, { bodyValue: body }) : request;
}
