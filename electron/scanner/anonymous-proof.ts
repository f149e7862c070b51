// A flaw reachable without credentials is scored PR:N (issue 31), whichever check found it: a finding a
// safe check proved with a read (GET or HEAD) sent as an identity is sent once more with no credential,
// and when the API answers it the same way (the same 2xx status, the same data) that answer becomes the
// finding's proof. `buildFinding` then scores the vector with PR:N and the curl command carries no key.

import type { Check, FindingDraft } from './checks/types';
import type { ProbeRequest } from './http/engine';
import { ANONYMOUS, type Exchange } from './http/exchange';
import type { Redactor } from './redact';
import { isEmptyBody, sameData } from './similarity';

export const ANONYMOUS_PROOF_NOTE = 'The same request without credentials got the same answer: the flaw needs no credential (CVSS PR:N).';

/** The exchange a finding's curl command reproduces: its stated proof, else its last exchange. */
export function proofOf(draft: FindingDraft): Exchange | undefined {
  return draft.reproduce ?? draft.exchanges[draft.exchanges.length - 1]?.exchange;
}

/**
 * Whether the proof may be sent again without credentials: a read (GET, HEAD, not a GraphQL mutation) that spoke as one of the
 * scan's identities, from a check that sends only safe requests and measures nothing a second request
 * would disturb (bursts, rate limits), and not a forged token (what the token carries is the finding).
 */
export function replayableProof(check: Pick<Check, 'safety' | 'destructive' | 'measuresThrottling'>, draft: FindingDraft, proof: Exchange | undefined): proof is Exchange {
  if (!proof?.response || draft.forge) return false;
  if (check.safety !== 'safe' || check.destructive || check.measuresThrottling) return false;
  const method = proof.request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return false;
  // A GraphQL mutation sent over GET is a write all the same: never sent again.
  if (/^[\s,]*mutation\b/.test(new URL(proof.request.url).searchParams.get('query') ?? '')) return false;
  return proof.request.auth.kind === 'key' || proof.request.auth.kind === 'identity';
}

/**
 * The proof's request with every credential taken out: no Authorization or Cookie header, nothing where
 * the request placed a credential, and no header or query value that holds one of the scan's secrets.
 */
export function withoutCredentials(proof: Exchange, redactor: Pick<Redactor, 'leaks'>): ProbeRequest {
  const placed = proof.request.placements;
  const headerNames = new Set(['authorization', 'cookie', ...placed.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase())]);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(proof.request.headers)) {
    if (!headerNames.has(name.toLowerCase()) && !redactor.leaks(value)) headers[name] = value;
  }
  const url = new URL(proof.request.url);
  for (const p of placed) if (p.in === 'query') url.searchParams.delete(p.name);
  for (const [name, value] of [...url.searchParams]) if (redactor.leaks(value)) url.searchParams.delete(name);
  return {
    method: proof.request.method,
    url,
    headers,
    body: proof.request.body,
    auth: ANONYMOUS,
    placements: [],
    ...(proof.request.operation ? { operation: proof.request.operation } : {}),
  };
}

/** The API answered without credentials as it answered the identity: the same 2xx status and the same data. */
export function sameAnswer(proof: Exchange, anonymous: Exchange): boolean {
  const a = proof.response;
  const b = anonymous.response;
  if (!a || !b || a.status !== b.status || a.status < 200 || a.status >= 300) return false;
  if (a.body === b.body) return true;
  if (isEmptyBody(proof) || isEmptyBody(anonymous)) return false;
  return sameData(proof, anonymous);
}

/** The draft proven by the anonymous answer (its curl command keyless), when that answer is the same. */
export function provenWithoutCredentials(draft: FindingDraft, anonymous: Exchange): FindingDraft {
  return { ...draft, reproduce: anonymous, notes: [...(draft.notes ?? []), ANONYMOUS_PROOF_NOTE] };
}
