// API2:2023 Broken Authentication: endpoints that answer without credentials although the spec says
// they need them, or that accept made-up credentials.

import { adjustCvss } from '../../cvss';
import type { SeededRandom } from '../../random';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { compareBodies, containedIn, isEmptyBody, valuesFoundIn } from '../../similarity';
import { endpointsAtTemplate } from '../../resources';
import { defineCheck, describeEndpoint } from '../common/helpers';
import type { CheckContext } from '../types';
import type { Endpoint } from '../../../../shared/contract';
import { readsObject } from '../api1-object-authorization/id-swaps';
import { OWASP_API2 } from '../common/references';


const JWT = /^[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*$/;
function randomLike(random: SeededRandom, template: string): string {
  return random.alnum(Math.max(16, Math.min(template.length, 256)));
}

/** A credential of the same shape as the real key, that no server issued. */
export function garbageCredential(random: SeededRandom, real: string): string {
  const bare = real.replace(/^(bearer|basic|token)\s+/i, '');
  if (JWT.test(bare)) {
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: `portcullis-invalid-${random.alnum(8)}`, iat: 1767225600 })).toString('base64url');
    return `${header}.${payload}.${random.base64url(32)}`;
  }
  if (bare.includes(':')) return `portcullis-invalid:${randomLike(random, bare)}`;
  return randomLike(random, bare);
}

/** Does the attack's answer carry what key 1's did? Reads: the same data. Writes: the same kind of answer. */
function matchesKey1(method: string, attack: Exchange, key1: Exchange): boolean {
  if (!attack.ok || isEmptyBody(attack) || isEmptyBody(key1)) return false;
  if (method === 'GET' || method === 'HEAD') return containedIn(attack, key1, 0.9);
  const s = compareBodies(attack, key1);
  return s.json && s.structure >= 0.9;
}

/** For a DELETE that answered 2xx: does key 1's read of the same URL now find nothing? */
async function confirmDeleted(ctx: CheckContext, attack: Exchange): Promise<Exchange | null> {
  const reader = endpointsAtTemplate(ctx.allEndpoints, ctx.endpoint.path).find((e) => e.method === 'GET');
  if (!reader || ctx.budgetLeft() <= 0) return null;
  const readable = await ctx.baseline('key1', reader);
  if (!readable?.ok) return null;
  const reread = await ctx.send(
    { method: 'GET', url: attack.request.url, auth: { kind: 'key', key: 1 }, placements: ctx.authSpec(reader).placements },
    reader,
  );
  return reread.status === 404 || reread.status === 410 ? reread : null;
}

const WRITE_CVSS = { C: 'N', I: 'H' } as const;
const DELETE_CVSS = { C: 'N', I: 'H', A: 'H' } as const;

/** What an unauthenticated call of this method does, for the finding's name, text and score. */
function operationKind(endpoint: Endpoint): { name: string; says: string; cvss: Partial<Record<'C' | 'I' | 'A', 'N' | 'L' | 'H'>> | null } {
  const method = endpoint.method;
  // A POST that looks an object up (POST /invoices/lookup) reads.
  if (method === 'POST' && readsObject(endpoint)) return { name: 'Endpoint accepts requests without credentials', says: '', cvss: null };
  if (method === 'DELETE') return { name: 'Delete operation accepts requests without credentials', says: 'It is a destructive operation (DELETE): anyone can delete data, not only read it.', cvss: DELETE_CVSS };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') return { name: 'Write operation accepts requests without credentials', says: `It is a write operation (${method}): anyone can create or change data, not only read it.`, cvss: WRITE_CVSS };
  return { name: 'Endpoint accepts requests without credentials', says: '', cvss: null };
}
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const BASE_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N';

export const noOrInvalidCredentials = defineCheck({
  id: 'api2-credentials-not-enforced',
  title: 'Endpoint accepts missing or invalid credentials',
  flag: 'BKEN_AUTH',
  owasp: 'API2:2023',
  cwe: 'CWE-287',
  confidence: 'medium',
  cvss: BASE_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 5,
  needsKey2: false,
  techniques: ['API2.1'],
  coverage:
    'Made-up credentials copy the key\'s shape (a JWT-looking token for JWT keys); an API that accepts only some malformed values ' +
    '(an empty bearer, a specific test token) is not found. Deletes are confirmed through a GET on the same path, so a DELETE without one is not tested that way.',
  description:
    'Replays key 1\'s request without credentials (the anonymous baseline) and with made-up credentials of the same shape. ' +
    'Finding when an endpoint the spec marks as secured answers without credentials with the same data key 1 gets (2xx and matching body), ' +
    'or when an endpoint that refuses a request without credentials (401/403) accepts two different made-up credentials and returns key 1\'s data. ' +
    'Public endpoints (no security in the spec and an anonymous request that succeeds) are never reported, nor is a write that an anonymous ' +
    'request passes only with the answer to a human-verification challenge (CAPTCHA) the API hands to anyone: that is a form meant for clients without an account.',
  remediation:
    'Authenticate every request to a protected endpoint in one shared middleware that rejects missing, malformed, expired and unknown ' +
    'credentials with 401 before any handler runs; verify token signatures and look API keys up server-side. Keep the OpenAPI security ' +
    'requirements in step with the code, and mark intentionally public endpoints with `security: []`.',
  references: [OWASP_API2, 'https://cwe.mitre.org/data/definitions/287.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Authentication_Cheat_Sheet.html'],
  async *run(ctx) {
    const ep = ctx.endpoint;
    const spec = ctx.authSpec();
    const key1 = await ctx.baseline('key1');
    if (!key1?.ok) return;
    let anon = await ctx.baseline('anonymous');
    if (!anon?.response) return;
    const placement = spec.placements[0];
    const parameter = placement ? placement.name : 'Authorization';
    const identityValues = Object.values(ctx.identities.key1.values).filter((v) => v.length >= 3);
    // Baselines are snapshots: a list may have grown since key 1's was taken. When an attack does
    // not match it, compare with a fresh key-1 read as well (once).
    let fresh: Exchange | null | undefined;
    const freshReference = async (attack: Exchange): Promise<Exchange> => {
      if (!attack.ok || matchesKey1(ep.method, attack, key1) || !SAFE_METHODS.has(ep.method)) return key1;
      if (fresh === undefined) {
        fresh = null;
        const request = await ctx.baselineRequest(ep, 'key1');
        if (request && ctx.budgetLeft() > 0) {
          const again = await ctx.sendPrepared(request, { kind: 'key', key: 1 });
          if (again.ok) fresh = again;
        }
      }
      return fresh ?? key1;
    };

    // 1. No credentials, on an endpoint the spec says needs them. A write that went through only with the answer to a
    // challenge the API hands to anyone is a form for clients without an account: the challenge, not a credential, is its gate.
    let reference = key1;
    if (spec.declaredSecured && anon.ok && !anon.request.challenge) {
      let proof: string | null = null;
      let confidence: 'high' | 'medium' = 'medium';
      const extra: { label: string; exchange: Exchange }[] = [];
      reference = await freshReference(anon);
      if (!matchesKey1(ep.method, anon, reference) && reference !== key1 && SAFE_METHODS.has(ep.method) && ctx.budgetLeft() > 2) {
        // The data changed between the snapshots (other checks create and delete objects): the same pair again, back to back,
        // the anonymous read first so key 1's read right after holds at least what it got.
        const request = await ctx.baselineRequest(ep, 'anonymous');
        const again = request ? await ctx.sendPrepared(request, { kind: 'none' }) : null;
        const key1Request = await ctx.baselineRequest(ep, 'key1');
        const after = again?.ok && key1Request ? await ctx.sendPrepared(key1Request, { kind: 'key', key: 1 }) : null;
        if (again && after?.ok && matchesKey1(ep.method, again, after)) {
          anon = again;
          reference = after;
        }
      }
      if (matchesKey1(ep.method, anon, reference)) {
        if (reference !== key1) extra.push({ label: 'Key 1 again, right after', exchange: reference });
        proof = ep.method === 'GET' || ep.method === 'HEAD' ? 'the same data key 1 receives' : 'the same kind of response key 1 receives';
        const leaked = valuesFoundIn(identityValues, anon.body);
        if (leaked.length) {
          confidence = 'high';
          proof += ` (including key 1's own identity: ${leaked.slice(0, 3).join(', ')})`;
        }
      } else if (ep.method === 'DELETE') {
        const reread = await confirmDeleted(ctx, anon);
        if (reread) {
          proof = 'a 2xx, and key 1 can no longer read the object afterwards (it was deleted)';
          confidence = 'high';
          extra.push({ label: 'Key 1 reads the object after the anonymous DELETE', exchange: reread });
        }
      }
      if (proof) {
        const kind = operationKind(ep);
        yield {
          name: kind.name,
          confidence,
          // No parameter: nothing was sent, so which credential header the scan uses must not change the finding's fingerprint.
          cvss: kind.cvss ? adjustCvss(BASE_CVSS, kind.cvss) : undefined,
          description:
            `${describeEndpoint(ep)} is documented as requiring credentials (${spec.schemes.join(', ') || 'security requirement'}), ` +
            `but a request without any answered ${anon.status} with ${proof}. Anyone on the network can use it as if they were a signed-in user.` +
            (kind.says ? ` ${kind.says}` : ''),
          notes: [
            `Key 1: HTTP ${key1.status}. Without credentials: HTTP ${anon.status}.`,
            `Similarity of the two bodies: ${JSON.stringify(compareBodies(anon, reference))}.`,
          ],
          exchanges: [
            { label: 'Baseline', exchange: key1 },
            { label: 'Attack: no credentials', exchange: anon },
            ...extra,
          ],
          reproduce: anon,
        };
        return;
      }
    }

    // 2. Made-up credentials, on an endpoint that refuses requests without any.
    if (anon.status !== 401 && anon.status !== 403) return;
    const real = ctx.credential(1);
    if (!real) return;
    const request = await ctx.baselineRequest(ep, 'anonymous');
    if (!request) return;
    const attempts: Exchange[] = [];
    let gone: Exchange | null = null;
    for (let i = 0; i < 2; i += 1) {
      if (ctx.budgetLeft() <= 0) return;
      const auth: RequestAuth = { kind: 'credential', value: garbageCredential(ctx.random, real), label: `made-up credential #${i + 1}` };
      const ex = await ctx.sendPrepared(request, auth);
      if (ep.method === 'DELETE') {
        // A delete answers with nothing to compare: the proof is that key 1 cannot read the object any more.
        gone = ex.ok ? await confirmDeleted(ctx, ex) : null;
        if (!gone) return;
        attempts.push(ex);
        break;
      }
      if (!matchesKey1(ep.method, ex, await freshReference(ex))) return;
      attempts.push(ex);
    }
    const kind = operationKind(ep);
    yield {
      name: 'Endpoint accepts invalid credentials',
      confidence: 'high',
      // The header is named in the description; the fingerprint stays the endpoint's whichever scheme the scan preferred.
      // Any made-up credential works: everything the endpoint offers is open, reads included.
      cvss: adjustCvss(BASE_CVSS, { I: 'H', ...(ep.method === 'DELETE' ? { A: 'H' } : {}) }),
      description:
        `${describeEndpoint(ep)} refuses a request without credentials (HTTP ${anon.status}) but accepted ` +
        (gone
          ? `a made-up credential in ${parameter} and deleted the object (key 1 gets ${gone.status} reading it afterwards). `
          : `two different made-up credentials in ${parameter} and answered with key 1's data. `) +
        'The server checks that a credential is present, not that it is valid: anyone can authenticate with any value.' +
        (kind.says ? ` ${kind.says}` : ''),
      notes: [
        `Without credentials: HTTP ${anon.status}. Made-up credentials: HTTP ${attempts.map((a) => a.status).join(', ')}. Key 1: HTTP ${key1.status}.`,
      ],
      exchanges: [
        { label: 'Baseline', exchange: key1 },
        ...(fresh ? [{ label: 'Key 1 again, right after', exchange: fresh }] : []),
        { label: 'Baseline', exchange: anon },
        { label: 'Attack: made-up credential', exchange: attempts[0]! },
        ...(attempts[1] ? [{ label: 'Confirmation: another made-up credential', exchange: attempts[1] }] : []),
        ...(gone ? [{ label: 'Key 1 reads the object after the DELETE', exchange: gone }] : []),
      ],
      reproduce: attempts[0],
    };
  },
});

