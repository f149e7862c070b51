// API7:2023 Server Side Request Forgery. Two techniques: the out-of-band callback (the scanner's own
// listener, a unique token per injection: a hit is proof the target fetched the URL), and internal
// targets (loopback, file://, cloud metadata) whose content shows up in the answer.

import { adjustCvss } from '../../cvss';
import type { Exchange } from '../../http/exchange';
import { oobPage } from '../../oob';
import type { PreparedRequest } from '../../requests';
import { distinctiveValues } from '../../similarity';
import { describeEndpoint, defineCheck } from '../common/helpers';
import { AS_KEY1, describePoint, freshRequest, injectionPoints, scanMemo, urlPoints } from '../common/input-points';
import type { CheckContext } from '../types';
import { OWASP_API7 } from '../common/references';
import {
  answerText,
  describeHit,
  FILE_AND_METADATA_TARGETS,
  listenerHits,
  listenerPageIn,
  MAX_URL_POINTS,
  targetContentIn,
  type InternalTarget,
  type UrlPoint,
} from './ssrf-probes';

export const SSRF_REFS = [OWASP_API7, 'https://cwe.mitre.org/data/definitions/918.html', 'https://cheatsheetseries.owasp.org/cheatsheets/Server_Side_Request_Forgery_Prevention_Cheat_Sheet.html'];
export const SSRF_REMEDIATION =
  'Do not fetch URLs taken from requests; where the feature needs it, allow only an explicit list of hosts and schemes, resolve the host and ' +
  'refuse loopback, private, link-local and metadata addresses (re-checking every redirect hop, or not following redirects), fetch from an ' +
  'isolated egress proxy, and never return raw fetched content.';

/** The URL-like inputs of the endpoint's request as key 1 sends it (fresh per use for creates). */
async function urlInputs(ctx: CheckContext): Promise<{ request: PreparedRequest; points: UrlPoint[] } | null> {
  const request = await freshRequest(ctx);
  if (!request) return null;
  return { request, points: urlPoints(injectionPoints(ctx, ctx.endpoint, request)).slice(0, MAX_URL_POINTS) };
}

/** The same point in a fresh request for creates (unique values each time), else the given one. */
async function pointFor(ctx: CheckContext, first: UrlPoint, used: boolean): Promise<UrlPoint | null> {
  const ep = ctx.endpoint;
  if (!used || !(ep.method === 'POST' && !/\{/.test(ep.path))) return first;
  const again = await freshRequest(ctx);
  const p = again ? urlPoints(injectionPoints(ctx, ep, again)).find((x) => x.name === first.name) : undefined;
  return p ?? null;
}

export const ssrfCallback = defineCheck({
  id: 'api7-ssrf-callback',
  title: 'Server-side request forgery (out-of-band callback)',
  flag: 'SSRF',
  owasp: 'API7:2023',
  cwe: 'CWE-918',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: MAX_URL_POINTS,
  description:
    'Puts a URL of the scanner\'s own listener (on 127.0.0.1, a unique token per injection) into each URL-like parameter or body field (url, ' +
    'callback, image, webhook, host...; format uri) of key 1\'s request, one at a time, and waits briefly for the target to call it. Finding when ' +
    'the listener receives a request carrying that token: proof the server fetches addresses a client chooses, loopback included. Higher ' +
    'impact when the answer also shows the listener\'s page.',
  remediation: SSRF_REMEDIATION,
  references: SSRF_REFS,
  async *run(ctx) {
    const oob = ctx.oob;
    if (!oob) return ctx.skip('The out-of-band listener is not available in this scan.');
    const ep = ctx.endpoint;
    const inputs = await urlInputs(ctx);
    if (!inputs?.points.length) return;
    const baseline = await ctx.baseline('key1');
    const hits = await listenerHits(ctx, oob, inputs.points, (p0, i) => pointFor(ctx, p0, i > 0));
    if (!hits.length) return;
    const h = hits[0]!;
    const reflected = listenerPageIn(h.ex, h.token);
    yield {
      name: reflected ? 'Server-side request forgery (fetched content returned)' : undefined,
      parameter: hits.map((x) => x.point.name).join(', '),
      cvss: reflected ? adjustCvss(ctx.check.cvss, { C: 'H' }) : undefined,
      description:
        `${describeEndpoint(ep)} fetched a URL put into ${hits.map((x) => describePoint(x.point)).join(' and ')}: the scanner's listener on ` +
        `127.0.0.1 received ${describeHit(h.hit, h.at)}, carrying the token of that injection. Any client can make the server send requests ` +
        'to addresses of their choosing, including loopback and internal services.' +
        (reflected ? ' The answer also contains the page the listener served, so fetched content is returned to the client.' : ''),
      notes: [
        ...hits.map((x) => `Listener hit for ${describePoint(x.point)} (token ${x.token}): ${describeHit(x.hit, x.at)}.`),
        ...(reflected ? [`The answer contains the listener's page ("${oobPage(h.token).slice(0, 60)}...")${reflected === 'plain' ? '' : ', base64- or hex-encoded'}.`] : []),
      ],
      exchanges: [...(baseline ? [{ label: 'Baseline', exchange: baseline }] : []), { label: `Attack: listener URL in ${h.point.name}`, exchange: h.ex }],
      reproduce: h.ex,
      listener: h.url,
    };
  },
});

// ---------------------------------------------------------------- internal targets

const DEFAULT_PAGE = /(Welcome to nginx!|Apache2 (Ubuntu|Debian) Default Page|IIS Windows Server|<title>It works!<\/title>|Test Page for the Apache HTTP Server)/i;

const referenceMemo = new WeakMap<object, Promise<{ url: string; values: string[]; exchange: Exchange } | null>>();

/** What the API's own origin answers at "/" (its distinctive strings), to recognise it in a fetched answer. */
function originReference(ctx: CheckContext): Promise<{ url: string; values: string[]; exchange: Exchange } | null> {
  return scanMemo(referenceMemo, ctx, async () => {
    if (ctx.budgetLeft() <= 0) return null;
    const base = ctx.url('/');
    const url = `${base.origin}/`;
    const ex = await ctx.send({ method: 'GET', url });
    if (!ex.ok || !ex.body.trim()) return null;
    let values: string[];
    const json = ex.json();
    if (json !== undefined) values = distinctiveValues(json, 20);
    else {
      const title = /<title[^>]*>([^<]{6,})<\/title>/i.exec(ex.body)?.[1]?.trim();
      values = title ? [title] : [ex.body.trim().split('\n')[0]!.slice(0, 80)];
    }
    values = values.filter((v) => v.length >= 6 && /[a-z]/i.test(v));
    return values.length ? { url, values, exchange: ex } : null;
  });
}

function internalTargets(ctx: CheckContext, reference: { values: string[] } | null): InternalTarget[] {
  const base = ctx.url('/');
  const port = base.port || (base.protocol === 'https:' ? '443' : '80');
  const self = (host: string): InternalTarget => ({
    id: `loopback-${host}`,
    label: `the API's own port on ${host}`,
    url: `${base.protocol}//${host}:${port}/`,
    marker: (text) => {
      const found = reference?.values.filter((v) => text.includes(v)) ?? [];
      return found.length ? `content of ${base.origin}/ (${found.slice(0, 3).map((v) => JSON.stringify(v)).join(', ')})` : null;
    },
  });
  return [
    ...(reference ? [self('127.0.0.1'), self('localhost')] : []),
    ...FILE_AND_METADATA_TARGETS,
    { id: 'loopback-web', label: 'a web server on localhost', url: 'http://localhost/', marker: (t) => DEFAULT_PAGE.exec(t)?.[0] ?? null },
  ];
}

const INTERNAL_POINTS = 2;
const INTERNAL_TARGETS = 6;

export const ssrfInternal = defineCheck({
  id: 'api7-ssrf-internal-targets',
  title: 'Server-side request forgery (internal content returned)',
  flag: 'SSRF',
  owasp: 'API7:2023',
  cwe: 'CWE-918',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'endpoint',
  budget: 1 + INTERNAL_POINTS * INTERNAL_TARGETS,
  description:
    'Puts internal addresses into URL-like inputs of key 1\'s request: the API\'s own port on 127.0.0.1 and localhost (its root page, fetched ' +
    'by the scanner first, is the reference), file:///etc/passwd, file:///c:/windows/win.ini, the cloud metadata address ' +
    '(169.254.169.254) and http://localhost/. Finding when the answer contains what that address returns (passwd lines, the API\'s own root ' +
    'content, metadata keys, a default server page) and the baseline answer does not. Content the API returns base64- or hex-encoded (in the ' +
    'body or a JSON field, as `{"content": "<base64>"}`) is decoded before the markers are sought.',
  remediation: SSRF_REMEDIATION,
  references: SSRF_REFS,
  async *run(ctx) {
    const ep = ctx.endpoint;
    const inputs = await urlInputs(ctx);
    if (!inputs?.points.length) return;
    const baseline = await ctx.baseline('key1');
    const beforeAnswer = baseline ? answerText(baseline) : null;
    const before = beforeAnswer ? `${beforeAnswer.text}\n${beforeAnswer.decoded}` : '';
    const reference = await originReference(ctx);
    const targets = internalTargets(ctx, reference);
    let used = false;
    for (const p0 of inputs.points.filter((p) => p.urlKind === 'url').slice(0, INTERNAL_POINTS)) {
      for (const target of targets) {
        if (ctx.budgetLeft() <= 0) return;
        const point = await pointFor(ctx, p0, used);
        used = true;
        if (!point) break;
        // Not followed: content reached through a redirect the scanner followed would not be the server's fetch.
        const ex = await ctx.sendPrepared(point.with(target.url), AS_KEY1, { followRedirects: false });
        if (!ex.response || (ex.status >= 300 && ex.status < 400)) continue;
        const found = targetContentIn(target, ex);
        if (!found || target.marker(before)) continue;
        const { marker, encoded } = found;
        yield {
          name: target.id.startsWith('file') ? 'Server-side request forgery (local file read)' : undefined,
          parameter: point.name,
          cvss: target.id.startsWith('file') ? adjustCvss(ctx.check.cvss, { S: 'U' }) : undefined,
          description:
            `${describeEndpoint(ep)} fetched ${target.label} (${target.url}) put into ${describePoint(point)} and returned its content: the ` +
            `answer (HTTP ${ex.status}) contains ${marker}${encoded}, which the baseline answer does not. Clients can read internal services and files ` +
            'through the API.',
          notes: [`Injected ${target.url} into ${describePoint(point)}; found ${marker}${encoded}.`, ...(reference && target.id.startsWith('loopback-1') ? [`Reference: GET ${reference.url} answered with ${reference.values.slice(0, 3).map((v) => JSON.stringify(v)).join(', ')}.`] : [])],
          exchanges: [
            ...(baseline ? [{ label: 'Baseline', exchange: baseline }] : []),
            ...(reference && target.id.startsWith('loopback') ? [{ label: 'Reference: the API origin\'s own answer', exchange: reference.exchange }] : []),
            { label: `Attack: ${target.url} in ${point.name}`, exchange: ex },
          ],
          reproduce: ex,
        };
        return;
      }
    }
  },
});


