// Verification before the scan: is each identity accepted, who does the API say it is, and are
// the identities different users? It probes GET endpoints without path parameters (a /me-like one
// first) as every identity slot and without credentials; those exchanges are the endpoints'
// baselines, so nothing is sent twice. It also gives each identity its canary.

import type { ApiSecurity, Endpoint } from '../../../shared/contract';
import { modeOf, type Baselines } from '../baselines';
import { describeEndpoint } from '../checks/common/helpers';
import { identityOf } from '../checks/common/objects';
import type { Identities, KeyIdentity } from '../checks/types';
import type { Budget, HttpEngine } from '../http/engine';
import type { Exchange, KeyNumber, RequestAuth } from '../http/exchange';
import { destructiveRead } from '../probe-safety';
import type { ResourcePool } from '../resources';
import { enumPathValue, pathParamNames, toProbe, type PreparedRequest } from '../requests';
import { sameData } from '../similarity';
import type { IdentityBook } from './book';
import { credentialAlternatives, describePlacement } from './placement';
import type { IdentitySession } from './session';

const ME_SEGMENT = /^(me|self|whoami|current|current[-_]?user|my[-_]?(profile|account)|profile|account|userinfo|user[-_]?info|user|session)$/i;
const IDENTITY_FIELDS = ['id', 'user_id', 'userId', 'uid', 'sub', 'username', 'login', 'email', 'account_id', 'accountId'];
const MAX_PROBES = 3;

export function isMeLike(endpoint: Pick<Endpoint, 'path'>): boolean {
  const segs = endpoint.path.split('/').filter((s) => s && !s.startsWith('{'));
  const last = segs[segs.length - 1];
  return !!last && ME_SEGMENT.test(last) && !endpoint.path.trim().endsWith('}');
}

function probeable(e: Endpoint): boolean {
  return e.method === 'GET' && !destructiveRead(e) && pathParamNames(e.path).every((n) => enumPathValue(e, n) !== null);
}

/** Identity values in a /me-like body (top level, or inside data/user/account/profile). */
export function identityValues(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (v: unknown, depth: number) => {
    if (!v || typeof v !== 'object' || Array.isArray(v) || depth > 2) return;
    const obj = v as Record<string, unknown>;
    for (const f of IDENTITY_FIELDS) {
      const x = obj[f];
      if (out[f] === undefined && (typeof x === 'string' || typeof x === 'number') && String(x).length > 0) out[f] = String(x);
    }
    for (const w of ['data', 'user', 'account', 'profile', 'me', 'result']) visit(obj[w], depth + 1);
  };
  visit(body, 0);
  return out;
}

export function primaryId(values: Record<string, string>): string | null {
  for (const f of IDENTITY_FIELDS) if (values[f]) return values[f]!;
  return null;
}

/** GET endpoints without free path parameters, a /me-like one first: where keys are checked. */
export function healthCandidates(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints
    .filter(probeable)
    .map((e, i) => ({ e, rank: isMeLike(e) ? 0 : e.security === null || (e.security?.length ?? 0) > 0 ? 1 : 2, i }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, MAX_PROBES)
    .map((c) => c.e);
}

/**
 * Where an endpoint accepts credentials in several ways (a bearer token or an X-API-Key, say), find
 * the one key 1 works with: refused without credentials, 2xx with key 1 placed that way. Returns the
 * scheme name, or null when there is no choice to make or none could be told.
 */
export async function discoverScheme(input: {
  endpoints: readonly Endpoint[];
  security: ApiSecurity;
  engine: HttpEngine;
  resources: ResourcePool;
  budgetsFor(e: Endpoint): Budget[];
}): Promise<string | null> {
  const endpoint = healthCandidates(input.endpoints).find((e) => credentialAlternatives(e, input.security).length > 1);
  if (!endpoint) return null;
  const prepared = await input.resources.prepare(endpoint, 1, 'read');
  if ('blocked' in prepared) return null;
  const budgets = input.budgetsFor(endpoint);
  const anon = await input.engine.send(toProbe(prepared.request, { kind: 'none' }), budgets);
  if (anon.status !== 401 && anon.status !== 403) return null;
  for (const alt of credentialAlternatives(endpoint, input.security)) {
    const ex = await input.engine.send({ ...toProbe(prepared.request, { kind: 'key', key: 1 }), placements: alt.placements }, budgets);
    if (ex.ok) return alt.scheme;
  }
  return null;
}

export type VerifyResult = { ok: true; identities: Identities; notes: string[] } | { ok: false; reason: string; identities: Identities };

interface ProbeResult {
  endpoint: Endpoint;
  request: PreparedRequest;
  bySlot: Map<KeyNumber, Exchange>;
  anon: Exchange;
}

interface Verdict {
  accepted: boolean | null;
  evidence: ProbeResult | null;
  /** Probes that refused this identity while another identity of the scan got a success: its role, not its credential. */
  roleRefusals: { result: ProbeResult; other: KeyNumber }[];
}

function verdict(results: ProbeResult[], slot: KeyNumber): Verdict {
  let rejected: ProbeResult | null = null;
  const roleRefusals: Verdict['roleRefusals'] = [];
  for (const r of results) {
    const ex = r.bySlot.get(slot);
    if (!ex?.response) continue;
    // Accepted: a success where a request without credentials is refused (or a /me-like answer).
    if (ex.ok && (r.anon.status === 401 || r.anon.status === 403 || isMeLike(r.endpoint))) return { accepted: true, evidence: r, roleRefusals: [] };
    // Refused: 401 with the credential, as without any (it made no difference). Unless another
    // identity got through: then the operation is for another role (a merchant's, not a
    // customer's), which the authorization checks evaluate. A /me-like answer is every user's own.
    if (ex.status === 401 && r.anon.status === 401) {
      const other = isMeLike(r.endpoint) ? undefined : [...r.bySlot.entries()].find(([k, x]) => k !== slot && x.ok)?.[0];
      if (other !== undefined) roleRefusals.push({ result: r, other });
      else rejected ??= r;
    }
  }
  return rejected ? { accepted: false, evidence: rejected, roleRefusals } : { accepted: null, evidence: null, roleRefusals };
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Who an identity is, in words: its username, e-mail or id. */
export function displayIdentity(values: Record<string, string>): string | null {
  return values.username ?? values.login ?? values.email ?? primaryId(values);
}

function notAccepted(s: IdentitySession, r: ProbeResult, ex: Exchange): string {
  const where = r.request.placements.map(describePlacement).join(' + ');
  const head = `${capitalized(s.name)} was not accepted by the API: ${describeEndpoint(r.endpoint)} answered ${ex.status} with ${s.name}.`;
  if (s.config.token === undefined) return `${head} Its login worked, so check where the credential goes (${s.placements ? s.placements.map(describePlacement).join(' + ') : where}).`;
  if (s.slot === 2 && s.name === 'key 2') return `${head} Check the key, or leave it empty to scan with key 1 only.`;
  return `${head} Check the key and how the API expects it (${s.placements ? s.placements.map(describePlacement).join(' + ') : where}).`;
}

/**
 * Logs nothing in by itself: the sessions have their credentials. Sends the health probes as every
 * slot, decides who is accepted, reads who each identity is, and refuses identities that are the
 * same user.
 */
export async function verifyIdentities(input: { endpoints: readonly Endpoint[]; baselines: Baselines; book: IdentityBook }): Promise<VerifyResult> {
  const slots = ([1, 2, 3, 4] as const).filter((k) => input.book.slot(k));
  const candidates = healthCandidates(input.endpoints);

  const results: ProbeResult[] = [];
  for (const endpoint of candidates) {
    const [anon, request, ...answers] = await Promise.all([
      input.baselines.get(endpoint, 'anonymous'),
      input.baselines.request(endpoint),
      ...slots.map((k) => input.baselines.get(endpoint, modeOf(k))),
    ]);
    const key1 = answers[0];
    if (!key1 || !anon || !request) continue;
    const bySlot = new Map<KeyNumber, Exchange>();
    slots.forEach((k, n) => answers[n] && bySlot.set(k, answers[n]!));
    results.push({ endpoint, request, bySlot, anon });
    // A /me-like endpoint that refuses key 1 exactly as it refuses no credentials settles it.
    if (isMeLike(endpoint) && key1.status === 401 && anon.status === 401) break;
    // One endpoint that proves every identity works is enough.
    if ((anon.status === 401 || anon.status === 403) && slots.every((k) => bySlot.get(k)?.ok)) break;
  }

  const meProbe = results.find((r) => isMeLike(r.endpoint) && r.bySlot.get(1)?.ok);
  const verdicts = new Map(slots.map((k) => [k, verdict(results, k)]));
  const ident = (k: KeyNumber): KeyIdentity | null => {
    const s = input.book.slot(k);
    if (!s) return null;
    const v = verdicts.get(k)!;
    const ex = meProbe?.bySlot.get(k) ?? v.evidence?.bySlot.get(k) ?? null;
    const values = ex?.ok && meProbe ? identityValues(ex.json()) : {};
    const source = meProbe && ex?.ok ? describeEndpoint(meProbe.endpoint) : null;
    s.values = values;
    const who = displayIdentity(values);
    s.verifiedAs = who && source ? `${who} (${source})` : v.accepted && v.evidence ? `accepted by ${describeEndpoint(v.evidence.endpoint)}; no /me-like answer says who` : null;
    return { key: k, name: s.name, accepted: v.accepted, id: primaryId(values), values, source, exchange: ex, renewable: s.renewable };
  };
  const hasKey2 = slots.includes(2);
  const identities: Identities = {
    key1: ident(1)!,
    key2: ident(2),
    privileged: ident(3),
    lower: ident(4),
    distinct: null,
    how: hasKey2 ? 'no /me-like endpoint answered both keys, so the two identities could not be compared' : 'only one key was given',
  };

  for (const k of slots) {
    const v = verdicts.get(k)!;
    if (v.accepted === false) return { ok: false, identities, reason: notAccepted(input.book.slot(k)!, v.evidence!, v.evidence!.bySlot.get(k)!) };
  }

  // The same user twice: the same static value, or the same id from the /me-like answer.
  const known = slots.map((k) => ({ k, s: input.book.slot(k)!, ident: identityOf({ identities }, k) }));
  for (const [n, a] of known.entries()) {
    for (const b of known.slice(n + 1)) {
      const sameValue = a.s.config.token !== undefined && a.s.config.token === b.s.config.token;
      const sameId = !!a.ident?.id && a.ident.id === b.ident?.id;
      if (!sameValue && !sameId) continue;
      if (a.k === 1 && b.k === 2) identities.distinct = false;
      const why = sameValue ? 'the same key value' : `${a.ident!.source} returned ${a.ident!.id} for both`;
      return {
        ok: false,
        identities,
        reason: `${capitalized(a.s.name)} and ${b.s.name} are the same user (${why}). Each identity needs its own account: give ${b.s.name} another user's credential${b.s.config.token !== undefined && b.k === 2 ? ', or leave it empty' : ''}.`,
      };
    }
  }
  if (hasKey2 && identities.key1.id && identities.key2?.id) {
    identities.distinct = true;
    identities.how = `${identities.key1.source} returned different identities (${identities.key1.id} / ${identities.key2.id})`;
  } else if (hasKey2 && meProbe?.bySlot.get(2)?.ok && sameData(meProbe.bySlot.get(1)!, meProbe.bySlot.get(2)!, 0.999)) {
    identities.how = `${describeEndpoint(meProbe.endpoint)} returned identical bodies for both keys; no identity field to compare`;
  }

  const notes: string[] = [];
  for (const k of slots) {
    for (const { result, other } of verdicts.get(k)!.roleRefusals) {
      const s = input.book.slot(k)!;
      notes.push(
        `${capitalized(s.name)} was refused by ${describeEndpoint(result.endpoint)} (${result.bySlot.get(k)!.status}), which ${input.book.slot(other)!.name} may use: taken for a difference of roles, which the authorization checks test.`,
      );
    }
  }
  if (!results.length) notes.push('No GET endpoint without path parameters to check the identities on; they are watched during the scan instead.');
  else if (verdicts.get(1)!.accepted === null) notes.push('Whether key 1 is accepted could not be told before the scan (no endpoint refused a request without credentials).');

  // Each identity's canary: a request that worked as it, where no credentials are refused if possible.
  for (const k of slots) {
    const best = results.find((r) => r.bySlot.get(k)?.ok && (r.anon.status === 401 || r.anon.status === 403)) ?? results.find((r) => r.bySlot.get(k)?.ok);
    const s = input.book.slot(k)!;
    if (best) {
      const auth: RequestAuth = { kind: 'key', key: k };
      s.canary = { label: describeEndpoint(best.endpoint), probe: { ...toProbe(best.request, auth), noRenew: true }, status: best.bySlot.get(k)!.status };
    }
  }
  return { ok: true, identities, notes };
}
