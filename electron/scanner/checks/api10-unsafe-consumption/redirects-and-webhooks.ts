// API10:2023 Unsafe Consumption of APIs — partial in every tool. What is automated: open redirects
// (a redirect parameter sending the client to the scanner's listener), a server that follows a
// redirect from a URL it fetches to an internal address (the listener answers with one), and
// callback endpoints that accept unsigned payloads.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { wordsOf } from '../../../importer/default-flags';
import { toProbe } from '../../requests';
import { describeEndpoint, defineCheck } from '../common/helpers';
import { AS_KEY1, asPointValue, describePoint, freshRequest, injectionPoints, urlPoints } from '../common/input-points';
import { OWASP_API10 } from '../common/references';

const PARTIAL = 'Coverage of API10 is partial: only redirects and unsigned callbacks are tested, not how the API trusts the data of the services it calls.';

const REDIRECT_NAME = / (url|uri|redirect|redirect uri|redirect url|return|return to|return url|returnto|next|continue|dest|destination|goto|go|target|to|out|link|callback|forward|r|u) $/;

function isRedirectParam(name: string): boolean {
  const w = ` ${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim()} `;
  return REDIRECT_NAME.test(w) || REDIRECT_NAME.test(` ${w.trim().split(' ').pop()} `);
}

export const openRedirect = defineCheck({
  id: 'api10-open-redirect',
  title: 'Open redirect',
  flag: 'UCAPI',
  owasp: 'API10:2023',
  cwe: 'CWE-601',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 4,
  description:
    'On GET endpoints with a redirect-like query parameter (url, redirect, next, return_to, dest...), puts the URL of the scanner\'s listener ' +
    '(absolute, then protocol-relative) in it. Finding when the answer is a redirect (3xx Location or Refresh) to that listener: the API ' +
    'sends its clients wherever a link says. ' + PARTIAL,
  remediation:
    'Redirect only to relative paths or to an allow-list of your own origins, compared after parsing the URL; reject protocol-relative ' +
    '(//host) and backslash tricks; prefer redirect targets chosen by id.',
  references: [OWASP_API10, 'https://cwe.mitre.org/data/definitions/601.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('UCAPI') && e.method === 'GET' && e.parameters.some((p) => p.in === 'query' && isRedirectParam(p.name)),
  async *run(ctx) {
    const oob = ctx.oob;
    if (!oob) return ctx.skip('The out-of-band listener is not available in this scan.');
    const ep = ctx.endpoint;
    const request = await ctx.baselineRequest();
    const baseline = await ctx.baseline('key1');
    if (!request) return;
    const points = injectionPoints(ctx, ep, request).filter((p) => p.where === 'query' && isRedirectParam(p.name)).slice(0, 2);
    for (const p of points) {
      for (const form of ['absolute', 'protocol-relative'] as const) {
        if (ctx.budgetLeft() <= 0) return;
        const token = oob.token();
        const url = oob.urlFor(token);
        const value = form === 'absolute' ? url : url.replace(/^https?:/, '');
        const ex = await ctx.send({ ...toProbe(p.with(value), AS_KEY1), followRedirects: false });
        const target = redirectTarget(ex);
        if (!target) continue;
        let resolved: URL;
        try {
          resolved = new URL(target, ex.request.url);
        } catch {
          continue;
        }
        if (resolved.host !== new URL(url).host || !resolved.pathname.includes(token)) continue;
        yield {
          parameter: p.name,
          description:
            `${describeEndpoint(ep)} redirects to any address given in ${describePoint(p)}: with the scanner's listener URL (${form}) it answered ` +
            `HTTP ${ex.status} to ${resolved.href}. A link to this trusted API can send users (and clients that follow redirects, with their ` +
            `tokens) to an attacker's site. ${PARTIAL}`,
          notes: [`${describePoint(p)} = ${value} -> ${ex.status} ${target}.`],
          exchanges: [...(baseline ? [{ label: 'Baseline', exchange: baseline }] : []), { label: `Attack: listener URL in ${p.name}`, exchange: ex }],
          reproduce: ex,
        };
        return;
      }
    }
  },
});

function redirectTarget(ex: Exchange): string | null {
  if (ex.status >= 300 && ex.status < 400) return ex.header('location') ?? null;
  const refresh = ex.header('refresh');
  const m = refresh ? /url\s*=\s*['"]?([^'";]+)/i.exec(refresh) : null;
  return m?.[1]?.trim() ?? null;
}

// ---------------------------------------------------------------- redirects followed by the server

const FOLLOW_WAIT_MS = 2000;

export const followsRedirects = defineCheck({
  id: 'api10-follows-redirects',
  title: 'Server follows redirects to internal addresses',
  flag: 'UCAPI',
  owasp: 'API10:2023',
  cwe: 'CWE-918',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 3,
  description:
    'Puts a URL of the scanner\'s listener into URL-like inputs of key 1\'s request; that URL answers with a redirect to an internal ' +
    'address (http://localhost:<listener port>/..., a unique token per injection). Finding when the server fetches the first URL and then ' +
    'follows the redirect to the internal address: it validates only the URL it was given, not where it ends up. ' + PARTIAL,
  remediation:
    'Validate every hop of a server-side fetch like the first URL (scheme, resolved address not loopback, private or link-local), or do ' +
    'not follow redirects; fetch through an egress proxy that enforces the policy.',
  references: [OWASP_API10, 'https://cwe.mitre.org/data/definitions/918.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Server_Side_Request_Forgery_Prevention_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('UCAPI') && e.method !== 'DELETE' && e.method !== 'GET',
  async *run(ctx) {
    const oob = ctx.oob;
    if (!oob) return ctx.skip('The out-of-band listener is not available in this scan.');
    const ep = ctx.endpoint;
    const first = await freshRequest(ctx);
    if (!first) return;
    const points = urlPoints(injectionPoints(ctx, ep, first)).filter((p) => p.urlKind === 'url').slice(0, 3);
    const sent: { name: string; token: string; ex: Exchange }[] = [];
    for (const [i, p0] of points.entries()) {
      if (ctx.budgetLeft() <= 0) break;
      const request = i === 0 ? first : await freshRequest(ctx);
      const p = request ? urlPoints(injectionPoints(ctx, ep, request)).find((x) => x.name === p0.name) : undefined;
      if (!p) continue;
      const token = oob.token();
      const ex = await ctx.sendPrepared(p.with(asPointValue(oob.urlFor(token, 'redirect'), p.urlKind)), AS_KEY1);
      sent.push({ name: p.name, token, ex });
    }
    const deadline = performance.now() + FOLLOW_WAIT_MS;
    for (const s of sent) {
      const internal = await oob.waitForHit(s.token, Math.max(0, deadline - performance.now()), 'internal');
      const redirect = oob.hits(s.token).find((h) => h.kind === 'redirect');
      if (!internal || !redirect) continue;
      yield {
        parameter: s.name,
        description:
          `${describeEndpoint(ep)} fetched the URL given in ${s.name} and followed its redirect to an internal address: the listener's ` +
          `redirecting URL was requested (${redirect.method} ${redirect.url}), then the internal address it pointed to ` +
          `(http://localhost:${oob.port}${internal.url}). A URL that passes the server's checks can lead its fetcher anywhere, loopback and ` +
          `internal services included. ${PARTIAL}`,
        notes: [
          `First hop: ${redirect.method} ${redirect.url} (User-Agent "${redirect.headers['user-agent'] ?? ''}").`,
          `Second hop, after the 302: ${internal.method} ${internal.url} on localhost:${oob.port}.`,
        ],
        exchanges: [{ label: `Attack: redirecting listener URL in ${s.name}`, exchange: s.ex }],
        reproduce: s.ex,
        // A fetcher that takes a loopback URL given directly (the SSRF callback) has no check a redirect gets around: the same flaw twice.
        deferTo: 'api7-ssrf-callback',
      };
      return;
    }
  },
});

// ---------------------------------------------------------------- unsigned callbacks

const CALLBACK = / (webhooks?|callbacks?|hooks?|notifications?|notify|events?|ipn) /;
const SIGNATURE_HEADER = /(signature|sign|hmac|digest|webhook|hub|svix|stripe|token|secret)/i;

function isCallback(e: Endpoint): boolean {
  return CALLBACK.test(wordsOf(e.path.replace(/\{[^}]*\}/g, ' '), e.operation_id, e.summary, ...e.tags));
}

export const unsignedWebhook = defineCheck({
  id: 'api10-unsigned-webhook',
  title: 'Callback accepts unsigned payloads',
  flag: 'UCAPI',
  owasp: 'API10:2023',
  cwe: 'CWE-345',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N',
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 2,
  description:
    'On callback endpoints (webhook, callback, notification, event in the path, id, summary or tags), sends the documented payload without ' +
    'credentials and without any signature header. Finding when it is accepted (2xx) while the same payload with a made-up signature is ' +
    'refused (the signature is checked only when present); lower confidence when no signature is declared and the unsigned payload is ' +
    'simply accepted. ' + PARTIAL,
  remediation:
    'Require and verify a signature on every callback (an HMAC of the raw body with a shared secret, compared in constant time, plus a ' +
    'timestamp against replays); refuse requests without one. Treat callback data as untrusted input.',
  references: [OWASP_API10, 'https://cwe.mitre.org/data/definitions/345.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Web_Service_Security_Cheat_Sheet.html'],
  appliesTo: (e) => e.flags.includes('UCAPI') && (e.method === 'POST' || e.method === 'PUT') && isCallback(e),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const request = await freshRequest(ctx);
    if (!request?.body) return;
    const declared = ep.parameters.filter((p) => p.in === 'header' && SIGNATURE_HEADER.test(p.name)).map((p) => p.name.toLowerCase());
    const strip: Record<string, null> = {};
    for (const name of Object.keys(request.headers)) if (SIGNATURE_HEADER.test(name)) strip[name] = null;
    const unsignedRequest = { ...request, headers: Object.fromEntries(Object.entries(request.headers).filter(([k]) => !(k in strip))) };
    // Made-up signature first: the declared header with a wrong value (as the prepared request carries it) or a common one.
    let signed: Exchange | null = null;
    const signedHeaders = declared.length ? request.headers : { ...unsignedRequest.headers, 'x-signature': `sha256=${'0'.repeat(64)}` };
    if (declared.length || ctx.budgetLeft() > 1) signed = await ctx.sendPrepared({ ...request, headers: signedHeaders }, { kind: 'none' });
    const unsigned = await ctx.sendPrepared(unsignedRequest, { kind: 'none' });
    if (!unsigned.ok) return;
    const refusedSigned = !!signed?.response && [400, 401, 403].includes(signed.status);
    const wrongAccepted = !!signed?.ok && declared.length > 0;
    // No declared signature and nothing refused: all we know is that anonymous callers are accepted.
    const weak = !refusedSigned && !wrongAccepted;
    if (weak && (declared.length || (signed && !signed.ok))) return;
    yield {
      name: wrongAccepted ? 'Callback signature not verified' : undefined,
      parameter: declared[0] ?? 'signature',
      // Weak proof (only that anonymous callers are accepted): forged events, medium.
      cvss: weak ? 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:L/A:N' : undefined,
      confidence: weak ? 'low' : 'high',
      description:
        `The callback ${describeEndpoint(ep)} accepted a payload with no signature and no credentials (HTTP ${unsigned.status})` +
        (wrongAccepted
          ? `, and the same payload with a made-up value in ${declared.join(', ')} (HTTP ${signed!.status}): the signature is not verified. `
          : refusedSigned
            ? `, while the same payload with a made-up signature${declared.length ? ` in ${declared.join(', ')}` : ''} was refused (HTTP ${signed!.status}): the signature is only checked when one is sent. `
            : '; nothing in the spec declares how callers are authenticated. ') +
        `Anyone can forge events (payments, status changes) the API acts on. ${PARTIAL}`,
      notes: [`With a made-up signature: HTTP ${signed?.status ?? 'not sent'}. Without any: HTTP ${unsigned.status}.`],
      exchanges: [...(signed ? [{ label: 'Baseline: a made-up signature', exchange: signed }] : []), { label: 'Attack: no signature at all', exchange: unsigned }],
      reproduce: unsigned,
    };
  },
});

