// From a check's finding draft to the stored finding: CVSS vector and score, severity (the score's band), confidence,
// the fingerprint that follows it across scans, evidence text and a curl command, all with the
// scan's keys redacted. And the security score of a scan (DESIGN.md section 6).

import { createHash } from 'node:crypto';
import { CRITICAL_CVSS } from '../../shared/constants';
import { graphqlOperationName } from '../../shared/display';
import { severityOfCvss } from '../../shared/severity';
import type { Finding } from '../../shared/contract';
import type { Check, FindingDraft } from './checks/types';
import { adjustCvss, cvssScore } from './cvss';
import { findingGraphql } from './graphql-finding';
import { curlFor, curlSequence, renderEvidence } from './evidence';
import { listenerCurl, LISTENER_VAR } from './evidence-listener';
import { stepsWithOrigins, type FindingOrigins } from './evidence-origins';
import type { Exchange } from './http/exchange';
import { forgedCurl, forgedTokenNote } from './jwt-forge';
import { findingProof } from './proof';
import type { Redactor } from './redact';
import type { Endpoint } from '../../shared/contract';

/** "key 1" / "Key 1" -> the name of slot 1's identity ("alice"), for the slots whose identities have names. */
export function slotRelabeler(names: ReadonlyMap<number, string>): (text: string) => string {
  if (!names.size) return (t) => t;
  return (text) => text.replace(/\b[Kk]ey ([1-4])\b(?!\])/g, (whole, n: string) => names.get(Number(n)) ?? whole);
}

/** check + method + path template + parameter: the same weakness in two scans has the same fingerprint. */
export function fingerprintOf(checkId: string, method: string, path: string, parameter: string | null): string {
  return createHash('sha256').update(`${checkId}\n${method.toUpperCase()}\n${path}\n${parameter ?? ''}`).digest('hex').slice(0, 32);
}

export const SCORE_WEIGHTS = { critical: 25, high: 15, medium: 7, low: 2, info: 0 } as const;

/** 100 minus a weighted sum of the (unique) findings, floored at 0; CVSS >= 9.0 weighs as critical. */
export function securityScore(findings: readonly { severity: string; cvss_score: number }[]): number {
  let penalty = 0;
  for (const f of findings) {
    if (f.severity === 'info') continue;
    if (f.cvss_score >= CRITICAL_CVSS) penalty += SCORE_WEIGHTS.critical;
    else penalty += SCORE_WEIGHTS[f.severity as 'high' | 'medium' | 'low'] ?? 0;
  }
  return Math.max(0, 100 - penalty);
}

export type BuiltFinding = Omit<Finding, 'id' | 'trend' | 'triage'>;

/**
 * The stored finding. `relabel` turns the slot words of check texts ("key 1", "Key 2") into the
 * names of the scan's identities ("alice"); texts of a scan started with keys stay as they are.
 * `origins` (what the scan created before) make the curl text start with the creates of the objects
 * and users its requests name, so it replays on a fresh instance.
 */
export function buildFinding(
  check: Check,
  draft: FindingDraft,
  taskEndpoint: Endpoint | null,
  redactor: Redactor,
  relabel: (text: string) => string = (t) => t,
  origins: FindingOrigins | null = null,
): BuiltFinding {
  const endpoint = draft.endpoint === undefined ? taskEndpoint : draft.endpoint;
  const keyMethod = (draft.method ?? endpoint?.method ?? '*').toUpperCase();
  const keyPath = draft.path ?? endpoint?.path ?? '*';
  const parameter = draft.parameter ?? null;
  const last = draft.reproduce ?? draft.exchanges[draft.exchanges.length - 1]?.exchange;
  const { method, path } = shownLocation(keyMethod, keyPath, draft, last);
  const vector = unauthenticated(last) ? adjustCvss(draft.cvss ?? check.cvss, { PR: 'N' }) : (draft.cvss ?? check.cvss);
  // A forged token is rebuilt by its own step (jwt-forge.ts), which a sequence would replace by the literal token.
  const { steps, setup } = last ? stepsWithOrigins(draft.exchanges, draft.setup ?? [], last, draft.forge ? null : origins) : { steps: null, setup: [] };
  const score = cvssScore(vector);
  // An out-of-band proof reads the listener's address from a variable: the scan's listener is gone after the scan.
  const listener = last && !steps && draft.listener ? listenerCurl(last, draft.listener, redactor) : null;
  const curl = !last ? '' : steps ? curlSequence(steps, last, redactor, relabel, setup, draft.chosen) : (listener ?? forgedStep(last, draft, redactor, relabel) ?? curlFor(last, redactor));
  // A step list numbers its requests as they were sent; the proof is the one marked "<- the proof".
  const step = steps && last ? Math.max(steps.findIndex((x) => x.exchange.seq === last.seq) + 1, 1) : 1;
  const proof = last ? findingProof(last, step, draft.proof, curl, keyPath, redactor) : null;
  return {
    check_id: check.id,
    vulnerability_name: redactor.redact(relabel(draft.name ?? check.title)),
    severity: severityOfCvss(score),
    confidence: draft.confidence ?? check.confidence,
    owasp: check.owasp,
    cwe: check.cwe,
    description: redactor.redact(relabel(draft.description)),
    recommendation: redactor.redact(draft.recommendation ?? check.remediation),
    cvss_vector: vector,
    cvss_score: score,
    method,
    path,
    parameter: parameter === null ? null : redactor.redact(parameter),
    evidence: relabel(renderEvidence({ method, path, parameter, notes: [...(draft.notes ?? []), ...(draft.forge && last ? forgedTokenNote(last) : [])], exchanges: draft.exchanges }, redactor)),
    curl,
    references: check.references,
    graphql: findingGraphql(endpoint ?? null, last, redactor),
    // An out-of-band proof names the variable whose listener must receive the API's request.
    proof: proof && listener ? { ...proof, listener: LISTENER_VAR } : proof,
    // An API-wide finding keeps its "*" key, so it is followed across scans whichever endpoint it was first seen on.
    // GraphQL operations share one method and path: the operation's name tells them apart.
    fingerprint: fingerprintOf(check.id, keyMethod, endpoint?.graphql && draft.path === undefined ? `${keyPath} ${graphqlOperationName(endpoint.graphql)}` : keyPath, parameter),
  };
}

/** A forged token's curl text; its comment lines name key 1 as the scan does ("alice"), the commands stay as they are. */
function forgedStep(last: Exchange, draft: FindingDraft, redactor: Redactor, relabel: (text: string) => string): string | null {
  const text = draft.forge ? forgedCurl(last, draft.forge, redactor) : null;
  return text && text.split('\n').map((l) => (l.startsWith('#') ? relabel(l) : l)).join('\n');
}

/**
 * Where a finding is shown: never "* *". An API-wide finding takes the first endpoint where it
 * was seen (`seenAt`), else the request that proves it.
 */
function shownLocation(method: string, path: string, draft: FindingDraft, proof: Exchange | undefined): { method: string; path: string } {
  if (method !== '*' && path !== '*') return { method, path };
  const at = draft.seenAt ?? (proof ? { method: proof.request.method, path: new URL(proof.request.url).pathname } : null);
  if (!at) return { method, path };
  return { method: method === '*' ? at.method.toUpperCase() : method, path: path === '*' ? at.path : path };
}

/** The proving request was sent with no credential: the flaw needs none (CVSS PR:N, a curl command without a key). */
function unauthenticated(proof: Exchange | undefined): boolean {
  if (!proof || proof.request.auth.kind !== 'none') return false;
  const credentialHeaders = ['authorization', 'cookie', ...proof.request.placements.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase())];
  return !credentialHeaders.some((h) => h in proof.request.headers);
}

/**
 * Findings a check leaves to another one (`deferTo`): held until every check has run, then reported
 * only where that check reported nothing on the same method and path. A deferral never ends with
 * neither check reporting.
 */
export class Deferrals {
  private readonly reported = new Set<string>();
  private readonly held: { deferTo: string; built: BuiltFinding }[] = [];

  /** Remembers a reported finding. */
  record(f: Pick<BuiltFinding, 'check_id' | 'method' | 'path'>): void {
    this.reported.add(`${f.check_id} ${f.method} ${f.path}`);
  }

  /** Holds a deferred finding (true), or says it is not one (false). */
  hold(draft: FindingDraft, built: BuiltFinding): boolean {
    if (!draft.deferTo) return false;
    this.held.push({ deferTo: draft.deferTo, built });
    return true;
  }

  /** The held findings the other check did not report. */
  release(): BuiltFinding[] {
    return this.held.filter(({ deferTo, built }) => !this.reported.has(`${deferTo} ${built.method} ${built.path}`)).map((h) => h.built);
  }
}
