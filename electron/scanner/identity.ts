// The auth health check before a scan: is each key accepted, and are key 1 and key 2 different
// users? It probes GET endpoints without path parameters (a /me-like one first) as key 1, key 2
// and without credentials; those exchanges are the endpoints' baselines, so nothing is sent twice.
// It also picks the "canary" request the key watch re-sends if key 1 starts getting 401s.

import type { ApiSecurity, Endpoint } from '../../shared/contract';
import { credentialAlternatives, describePlacement } from './auth';
import type { BaselineMode, Baselines } from './baselines';
import { describeEndpoint } from './checks/helpers';
import type { Identities, KeyIdentity } from './checks/types';
import type { Exchange, KeyNumber } from './http/exchange';
import type { Budget, HttpEngine, ProbeRequest } from './http/engine';
import type { ResourcePool } from './resources';
import { enumPathValue, pathParamNames, toProbe, type PreparedRequest } from './requests';
import { sameData } from './similarity';

const ME_SEGMENT = /^(me|self|whoami|current|current[-_]?user|my[-_]?(profile|account)|profile|account|userinfo|user[-_]?info|user|session)$/i;
const IDENTITY_FIELDS = ['id', 'user_id', 'userId', 'uid', 'sub', 'username', 'login', 'email', 'account_id', 'accountId'];
const MAX_PROBES = 3;

export function isMeLike(endpoint: Pick<Endpoint, 'path'>): boolean {
  const segs = endpoint.path.split('/').filter((s) => s && !s.startsWith('{'));
  const last = segs[segs.length - 1];
  return !!last && ME_SEGMENT.test(last) && !endpoint.path.trim().endsWith('}');
}

function probeable(e: Endpoint): boolean {
  return e.method === 'GET' && pathParamNames(e.path).every((n) => enumPathValue(e, n) !== null);
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

function primaryId(values: Record<string, string>): string | null {
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

export interface Canary {
  /** "GET /me". */
  label: string;
  probe: ProbeRequest;
  /** Key 1's status when it was chosen. */
  status: number;
}

export type HealthResult =
  | { ok: true; identities: Identities; canary: Canary | null; notes: string[] }
  | { ok: false; reason: string; identities: Identities };

interface ProbeResult {
  endpoint: Endpoint;
  request: PreparedRequest;
  key1: Exchange;
  key2: Exchange | null;
  anon: Exchange;
}

function verdict(results: ProbeResult[], pick: (r: ProbeResult) => Exchange | null): { accepted: boolean | null; evidence: ProbeResult | null } {
  let rejected: ProbeResult | null = null;
  for (const r of results) {
    const ex = pick(r);
    if (!ex?.response) continue;
    // Accepted: a success where a request without credentials is refused (or a /me-like answer).
    if (ex.ok && (r.anon.status === 401 || r.anon.status === 403 || isMeLike(r.endpoint))) return { accepted: true, evidence: r };
    // Refused: 401 with the key, as without any (the key made no difference).
    if (ex.status === 401 && r.anon.status === 401 && !rejected) rejected = r;
  }
  return rejected ? { accepted: false, evidence: rejected } : { accepted: null, evidence: null };
}

export async function checkKeys(input: {
  endpoints: readonly Endpoint[];
  baselines: Baselines;
  keys: { 1: string; 2?: string | null };
}): Promise<HealthResult> {
  const hasKey2 = !!input.keys[2];
  const candidates = healthCandidates(input.endpoints);

  const results: ProbeResult[] = [];
  for (const endpoint of candidates) {
    const get = (m: BaselineMode) => input.baselines.get(endpoint, m);
    const [key1, key2, anon, request] = await Promise.all([get('key1'), hasKey2 ? get('key2') : null, get('anonymous'), input.baselines.request(endpoint)]);
    if (!key1 || !anon || !request) continue;
    results.push({ endpoint, request, key1, key2, anon });
    // A /me-like endpoint that refuses key 1 exactly as it refuses no key settles it.
    if (isMeLike(endpoint) && key1.status === 401 && anon.status === 401) break;
    // One endpoint that proves key 1 (and key 2) works is enough.
    if (key1.ok && (anon.status === 401 || anon.status === 403) && (!hasKey2 || key2?.ok)) break;
  }

  const k1 = verdict(results, (r) => r.key1);
  const k2 = hasKey2 ? verdict(results, (r) => r.key2) : null;
  const meProbe = results.find((r) => isMeLike(r.endpoint) && r.key1.ok);
  const ident = (key: KeyNumber, ex: Exchange | null | undefined, accepted: boolean | null): KeyIdentity => {
    const values = ex?.ok && meProbe ? identityValues(ex.json()) : {};
    return { key, accepted, id: primaryId(values), values, source: meProbe && ex?.ok ? describeEndpoint(meProbe.endpoint) : null, exchange: ex ?? null };
  };
  const identities: Identities = {
    key1: ident(1, meProbe?.key1 ?? k1.evidence?.key1, k1.accepted),
    key2: hasKey2 ? ident(2, meProbe?.key2 ?? k2?.evidence?.key2, k2?.accepted ?? null) : null,
    distinct: null,
    how: hasKey2 ? 'no /me-like endpoint answered both keys, so the two identities could not be compared' : 'only one key was given',
  };

  if (k1.accepted === false) {
    const r = k1.evidence!;
    return {
      ok: false,
      identities,
      reason: `Key 1 was not accepted by the API: ${describeEndpoint(r.endpoint)} answered ${r.key1.status} with key 1. Check the key and how the API expects it (${describePlacements(r.request)}).`,
    };
  }
  if (k2?.accepted === false) {
    const r = k2.evidence!;
    return {
      ok: false,
      identities,
      reason: `Key 2 was not accepted by the API: ${describeEndpoint(r.endpoint)} answered ${r.key2?.status} with key 2. Check the key, or leave it empty to scan with key 1 only.`,
    };
  }

  if (hasKey2 && input.keys[1] === input.keys[2]) {
    identities.distinct = false;
    identities.how = 'key 1 and key 2 are the same value';
  } else if (hasKey2 && identities.key1.id && identities.key2?.id) {
    identities.distinct = identities.key1.id !== identities.key2.id;
    identities.how = `${identities.key1.source} returned ${identities.distinct ? 'different identities' : 'the same identity'} (${identities.key1.id} / ${identities.key2.id})`;
  } else if (hasKey2 && meProbe?.key2?.ok && sameData(meProbe.key1, meProbe.key2, 0.999)) {
    identities.how = `${describeEndpoint(meProbe.endpoint)} returned identical bodies for both keys; no identity field to compare`;
  }

  const notes: string[] = [];
  if (!results.length) notes.push('No GET endpoint without path parameters to check the keys on; key 1 is watched during the scan instead.');
  else if (k1.accepted === null) notes.push('Whether key 1 is accepted could not be told before the scan (no endpoint refused a request without credentials).');
  if (identities.distinct === false) notes.push(`Key 1 and key 2 are the same user (${identities.how}): cross-user checks are skipped.`);

  const best = results.find((r) => r.key1.ok && (r.anon.status === 401 || r.anon.status === 403)) ?? results.find((r) => r.key1.ok);
  const canary = best ? { label: describeEndpoint(best.endpoint), probe: toProbe(best.request, { kind: 'key', key: 1 }), status: best.key1.status } : null;
  return { ok: true, identities, canary, notes };
}

function describePlacements(r: PreparedRequest): string {
  return r.placements.map(describePlacement).join(' + ');
}
