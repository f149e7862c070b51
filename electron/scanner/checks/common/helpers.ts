// Small factories that keep each check a few lines: defineCheck (metadata + run), headerCheck
// (passive rules over the key-1 baselines, one finding per API listing the endpoints), probeCheck
// (fixed requests with a verdict each) and mutationCheck (record a baseline, change one thing,
// compare).

import type { Confidence } from '../../../../shared/constants';
import type { Endpoint } from '../../../../shared/contract';
import { graphqlOperationName } from '../../../../shared/display';
import { adjustCvss, cvssScore } from '../../cvss';
import type { BaselineMode } from '../../baselines';
import type { ProbeRequest } from '../../http/engine';
import type { Exchange, RequestAuth } from '../../http/exchange';
import type { PreparedRequest } from '../../requests';
import type { Check, CheckContext, CheckMeta, EndpointProtocol, FindingDraft } from '../types';

export type CheckDefinition = CheckMeta & {
  appliesTo?: (endpoint: Endpoint) => boolean;
  run(ctx: CheckContext): AsyncIterable<FindingDraft>;
};

/** The kind of an endpoint: a GraphQL operation or a REST endpoint. */
export function protocolOf(e: Pick<Endpoint, 'graphql'>): EndpointProtocol {
  return e.graphql ? 'graphql' : 'rest';
}

/**
 * A check from its metadata and behaviour; by default it applies to endpoints carrying its flag. Either
 * way it applies only to endpoints of its protocols (REST unless it says otherwise).
 */
export function defineCheck(def: CheckDefinition): Check {
  cvssScore(def.cvss); // a malformed vector fails at load, not mid-scan
  const protocols = def.protocols ?? ['rest'];
  const fits = def.appliesTo ?? ((e: Endpoint) => e.flags.includes(def.flag));
  const appliesTo = (e: Endpoint) => protocols.includes(protocolOf(e)) && fits(e);
  return Object.freeze({ ...def, protocols, appliesTo });
}

/** Runs fn over items with at most `limit` at a time (requests are bounded by the engine anyway). */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** "GET /pets/{id}"; a GraphQL operation adds its name: "POST /graphql Query.pastes". */
export function describeEndpoint(e: Pick<Endpoint, 'method' | 'path'> & Partial<Pick<Endpoint, 'graphql'>>): string {
  return e.graphql ? `${e.method} ${e.path} ${graphqlOperationName(e.graphql)}` : `${e.method} ${e.path}`;
}

/** "GET /a, POST /b and 3 more". */
export function endpointList(endpoints: readonly Pick<Endpoint, 'method' | 'path'>[], max = 10): string {
  const shown = endpoints.slice(0, max).map(describeEndpoint);
  const more = endpoints.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

// ---------------------------------------------------------------- API-wide findings

export interface Hit {
  endpoint: Endpoint;
  exchange: Exchange;
  /** What was seen on this endpoint, in a few words. */
  detail: string;
}

export interface ApiWideIssue {
  /** Becomes the finding's parameter and part of its fingerprint: keep it stable. */
  id: string;
  name: string;
  confidence: Confidence;
  /** Default: the check's vector; it sets the severity (its CVSS band). */
  cvss?: string;
  description: string;
  recommendation: string;
}

/** One finding for the whole API, listing every affected endpoint; shown at the first of them (its key stays "*"). */
export function apiWideFinding(issue: ApiWideIssue, hits: Hit[], examples = 2): FindingDraft {
  const list = [...hits].sort((a, b) => a.endpoint.path.localeCompare(b.endpoint.path) || a.endpoint.method.localeCompare(b.endpoint.method));
  const affected = list.map((h) => h.endpoint);
  const details = [...new Set(list.map((h) => h.detail))].slice(0, 5);
  return {
    endpoint: null,
    method: '*',
    path: '*',
    seenAt: affected[0] ? { method: affected[0].method, path: affected[0].path } : undefined,
    parameter: issue.id,
    name: issue.name,
    confidence: issue.confidence,
    cvss: issue.cvss,
    description: `${issue.description} Affected endpoints (${affected.length}): ${endpointList(affected, 20)}.`,
    recommendation: issue.recommendation,
    notes: [
      `Affected endpoints (${affected.length}):`,
      ...list.slice(0, 200).map((h) => `  ${describeEndpoint(h.endpoint)}: ${h.detail}`),
      ...(list.length > 200 ? [`  ... and ${list.length - 200} more`] : []),
      `Observed: ${details.join('; ')}`,
    ],
    exchanges: list.slice(0, examples).map((h) => ({ label: `Response of ${describeEndpoint(h.endpoint)}`, exchange: h.exchange })),
  };
}

// ---------------------------------------------------------------- headerCheck

export interface HeaderRule extends ApiWideIssue {
  /** Whether the rule looks at this response at all (https only, authenticated only...). */
  applies?(exchange: Exchange, endpoint: Endpoint, ctx: CheckContext): boolean | Promise<boolean>;
  /** The problem in this response, in a few words, or null when it is fine. */
  inspect(exchange: Exchange, endpoint: Endpoint): string | null;
}

/**
 * Passive rules over each endpoint's key-1 baseline (successful responses only). Each rule that
 * fails somewhere gives one API-wide finding listing the endpoints, with two example exchanges.
 */
export function headerCheck(meta: Omit<CheckMeta, 'kind' | 'scope'> & { rules: HeaderRule[]; appliesTo?: (e: Endpoint) => boolean }): Check {
  return defineCheck({
    ...meta,
    kind: 'passive',
    scope: 'api',
    async *run(ctx) {
      const hits = new Map<string, Hit[]>();
      await forEachLimit(ctx.endpoints, ctx.parallelism, async (endpoint) => {
        const ex = await ctx.baseline('key1', endpoint);
        if (!ex?.ok) return;
        for (const rule of meta.rules) {
          if (rule.applies && !(await rule.applies(ex, endpoint, ctx))) continue;
          const detail = rule.inspect(ex, endpoint);
          if (detail === null) continue;
          const list = hits.get(rule.id) ?? [];
          list.push({ endpoint, exchange: ex, detail });
          hits.set(rule.id, list);
        }
      });
      for (const rule of meta.rules) {
        const list = hits.get(rule.id);
        if (list?.length) yield apiWideFinding(rule, list);
      }
    },
  });
}

// ---------------------------------------------------------------- probeCheck

export interface Probe {
  label: string;
  request: ProbeRequest;
  /** The endpoint it is charged to, if any. */
  endpoint?: Endpoint;
}

/** Sends the probes the check lists and asks the verdict about each answer. */
export function probeCheck(
  meta: Omit<CheckMeta, 'kind'> & {
    appliesTo?: (e: Endpoint) => boolean;
    probes(ctx: CheckContext): Probe[] | Promise<Probe[]>;
    verdict(ctx: CheckContext, probe: Probe, exchange: Exchange): FindingDraft | null | Promise<FindingDraft | null>;
  },
): Check {
  return defineCheck({
    ...meta,
    kind: 'active',
    async *run(ctx) {
      for (const probe of await meta.probes(ctx)) {
        if (ctx.budgetLeft(probe.endpoint) <= 0) break;
        const ex = await ctx.send(probe.request, probe.endpoint);
        const finding = await meta.verdict(ctx, probe, ex);
        if (finding) yield finding;
      }
    },
  });
}

// ---------------------------------------------------------------- mutationCheck

export interface Mutation {
  label: string;
  request: PreparedRequest;
  auth: RequestAuth;
  parameter?: string | null;
}

/**
 * "Record a baseline, change one thing, compare": for each endpoint, take the baseline of `mode`,
 * derive mutations from its request, send each, and ask the verdict. Stops at the first finding
 * unless told otherwise.
 */
export function mutationCheck(
  meta: Omit<CheckMeta, 'kind' | 'scope'> & {
    appliesTo?: (e: Endpoint) => boolean;
    baselineMode?: BaselineMode;
    /** Skip the endpoint unless the baseline qualifies (e.g. a 2xx). */
    guard?(ctx: CheckContext, baseline: Exchange): boolean | Promise<boolean>;
    mutations(ctx: CheckContext, request: PreparedRequest, baseline: Exchange): Mutation[] | Promise<Mutation[]>;
    verdict(
      ctx: CheckContext,
      result: { baseline: Exchange; attack: Exchange; mutation: Mutation },
    ): FindingDraft | null | Promise<FindingDraft | null>;
    findAll?: boolean;
  },
): Check {
  return defineCheck({
    ...meta,
    kind: 'active',
    scope: 'endpoint',
    async *run(ctx) {
      const mode = meta.baselineMode ?? 'key1';
      const baseline = await ctx.baseline(mode);
      const request = await ctx.baselineRequest(ctx.endpoint, mode);
      if (!baseline || !request) return;
      if (meta.guard && !(await meta.guard(ctx, baseline))) return;
      for (const mutation of await meta.mutations(ctx, request, baseline)) {
        if (ctx.budgetLeft() <= 0) break;
        const attack = await ctx.sendPrepared(mutation.request, mutation.auth);
        const finding = await meta.verdict(ctx, { baseline, attack, mutation });
        if (finding) {
          yield finding;
          if (!meta.findAll) return;
        }
      }
    },
  });
}

/** Public endpoints score PR:N, the others PR:L. */
export function withPrivileges(ctx: CheckContext, vector: string, endpoint: Endpoint = ctx.endpoint): string {
  return adjustCvss(vector, { PR: ctx.authSpec(endpoint).declaredSecured ? 'L' : 'N' });
}
