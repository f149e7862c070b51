// API8:2023 Security Misconfiguration (injection): HTML and script payloads that come back unescaped
// in an answer a browser renders — reflected in the same answer, or stored and served by a later read.

import type { Endpoint } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import type { Exchange } from '../../http/exchange';
import { asAnswered } from '../../proof';
import { fillPath, pathParamNames, type PreparedRequest } from '../../requests';
import { createdId, endpointsAtTemplate, normalizeTemplate, type ResourcePool } from '../../resources';
import { defineCheck, describeEndpoint, withPrivileges } from '../common/helpers';
import { AS_KEY1, describePoint, injectionPoints, isCreate, type InjectionPoint } from '../common/input-points';
import { createdBy, isIdLike, newMarker, requestLine } from '../common/objects';
import { OWASP_API8 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';

const TEXT_POINTS = 6;
const READERS = 3;
/** Breaks out of an attribute value and opens an element with an event handler: runs wherever it lands unescaped. */
const payloadFor = (marker: string) => `${marker}"'><svg onload=alert(1)>`;
/** Sign-in names: a payload there makes accounts nobody can sign in with, for no extra coverage. */
const ACCOUNT_NAME = /^(user_?name|login|handle)$/i;
const NOT_TEXT = /e-?mail|url|uri|link|href|phone|password|passwd|secret|token|key|hash|date|time|zip|postal|currency|country|lang|locale|sort|order|format|type|status/i;

/** A free-text input: a string with no enum, format or pattern, room for the payload, not an id or credential. */
function textPoint(p: InjectionPoint, length: number): boolean {
  if (p.where === 'path' || (p.type !== 'string' && p.type !== 'unknown') || typeof p.value !== 'string') return false;
  const s = p.schema;
  if (s?.enum || s?.format || s?.pattern || 'const' in (s ?? {})) return false;
  if (typeof s?.maxLength === 'number' && s.maxLength < length) return false;
  return !isIdLike(p.key) && !NOT_TEXT.test(p.key) && !ACCOUNT_NAME.test(p.key) && !/^https?:|@/.test(p.value);
}

/** The request with each named input set to its value (inputs found again in each intermediate request). */
function withValues(ctx: CheckContext, ep: Endpoint, request: PreparedRequest, values: Map<string, string>): PreparedRequest {
  let out = request;
  for (const [name, value] of values) {
    const p = injectionPoints(ctx, ep, out).find((x) => x.name === name);
    if (p) out = p.with(value);
  }
  return out;
}

const HTML_SIGNATURE = /^\s*<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>]/i;

/** How a browser treats the answer: rendered as HTML (by its type, or sniffed as HTML without a type and without nosniff), or not. */
export function rendersAsHtml(ex: Exchange): string | null {
  const ct = ex.contentType.split(';')[0]!.trim();
  if (/^(text\/html|application\/xhtml\+xml|image\/svg\+xml)$/.test(ct)) return `served as ${ct}`;
  const nosniff = /nosniff/i.test(ex.header('x-content-type-options') ?? '');
  if ((ct === '' || /^(unknown\/unknown|application\/unknown|\*\/\*)$/.test(ct)) && !nosniff && HTML_SIGNATURE.test(ex.body.slice(0, 512))) {
    return `served ${ct ? `as ${ct}` : 'without a Content-Type'} and without nosniff, starting like an HTML page (browsers sniff it as HTML)`;
  }
  return null;
}

/** The Content-Security-Policy directive that stops an injected inline handler from running, or null. */
export function inlineScriptBlocked(ex: Exchange): string | null {
  const csp = ex.header('content-security-policy');
  if (!csp) return null;
  for (const policy of csp.split(',')) {
    const directives = new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map((d) => [d[0]!.toLowerCase(), d.slice(1)]));
    const sources = directives.get('script-src-attr') ?? directives.get('script-src') ?? directives.get('default-src');
    if (!sources) continue;
    const lower = sources.map((s) => s.toLowerCase());
    // 'unsafe-inline' is ignored where a nonce, a hash or 'strict-dynamic' is present.
    const inlineAllowed = lower.includes("'unsafe-inline'") && !lower.some((s) => /^'(nonce-|sha(256|384|512)-|strict-dynamic)/.test(s));
    if (!inlineAllowed) return policy.trim();
  }
  return null;
}

export interface Served {
  point: InjectionPoint;
  payload: string;
  how: string;
  blockedBy: string | null;
}

/**
 * The payload's markup is in the body as sent, or JSON-encoded with its angle brackets intact (a JSON
 * string served as HTML still opens the element: only \" differs).
 */
export function containsMarkup(body: string, payload: string): boolean {
  return body.includes(payload) || body.includes(JSON.stringify(payload).slice(1, -1));
}

/** The payloads that came back unescaped in an answer a browser renders as HTML. */
export function servedUnescaped(ex: Exchange, sent: readonly { point: InjectionPoint; payload: string }[]): Served[] {
  if (!ex.response) return [];
  const how = rendersAsHtml(ex);
  if (!how) return [];
  return sent.filter((s) => containsMarkup(ex.body, s.payload)).map((s) => ({ ...s, how, blockedBy: inlineScriptBlocked(ex) }));
}

/** Declared answers that are not JSON (an HTML view) are read first. */
const declaresMarkup = (e: Endpoint) => Object.values(e.responses).some((r) => /html|xml|svg/i.test(r.content_type ?? ''));
export const markupFirst = (a: Endpoint, b: Endpoint) => Number(declaresMarkup(b)) - Number(declaresMarkup(a));

/** GETs that read what this write stored: the object (and views under it) and the collection listing; declared HTML first. */
function readersOf(ctx: CheckContext, ep: Endpoint): Endpoint[] {
  const gets = ctx.allEndpoints.filter((e) => e.method === 'GET' && e !== ep);
  const base = normalizeTemplate(ep.path);
  if (isCreate(ep)) {
    const consumers = ctx.resources.consumersOf(ep).filter((e) => e.method === 'GET' && pathParamNames(e.path).length === pathParamNames(ep.path).length + 1);
    return [...consumers, ...gets.filter((e) => normalizeTemplate(e.path) === base)].sort(markupFirst).slice(0, READERS);
  }
  const params = pathParamNames(ep.path).length;
  const same = endpointsAtTemplate(ctx.allEndpoints, ep.path).filter((e) => e.method === 'GET');
  const views = gets.filter((e) => normalizeTemplate(e.path).startsWith(`${base}/`) && pathParamNames(e.path).length === params);
  return [...same, ...views].sort(markupFirst).slice(0, READERS);
}

/**
 * The URL of a reader for the object the write addressed (or created, with the id its answer gave),
 * with the query parameters the reader's own request carries (a `format=html` view, a required filter).
 */
async function readerUrl(ctx: CheckContext, ep: Endpoint, reader: Endpoint, request: PreparedRequest, answer: Exchange): Promise<URL | null> {
  const values: Record<string, string> = Object.fromEntries(Object.entries(request.pathValues).map(([k, v]) => [k, v.value]));
  const names = pathParamNames(reader.path);
  if (isCreate(ep) && names.length > pathParamNames(ep.path).length) {
    const param = names[names.length - 1]!;
    const collection = normalizeTemplate(ep.path).split('/').filter((s) => s && s !== '{}').pop() ?? null;
    const found = createdId(answer, param, collection);
    if (!found) return null;
    values[param] = found.id;
  }
  if (!names.every((n) => values[n] !== undefined)) return null;
  const url = ctx.url(fillPath(reader.path, values));
  const own = await ctx.baselineRequest(reader, 'key1');
  own?.url.searchParams.forEach((v, k) => url.searchParams.append(k, v));
  return url;
}

/** A payload a write stored, for the later sweep of every route (stored-content-sweep). */
export interface StoredPayload {
  write: Exchange;
  endpoint: Endpoint;
  point: InjectionPoint;
  payload: string;
}

const storedPayloads = new WeakMap<ResourcePool, StoredPayload[]>();
/** The payloads this scan's writes stored (answered 2xx), oldest first. */
export function payloadsStored(ctx: CheckContext): readonly StoredPayload[] {
  return storedPayloads.get(ctx.resources) ?? [];
}
function remember(ctx: CheckContext, entries: StoredPayload[]): void {
  let list = storedPayloads.get(ctx.resources);
  if (!list) storedPayloads.set(ctx.resources, (list = []));
  list.push(...entries);
}

/** The payloads a JSON answer carries as sent: angle brackets neither escaped (\u003c) nor encoded. */
function verbatimInJson(ex: Exchange, sent: readonly { point: InjectionPoint; payload: string }[]): { point: InjectionPoint; payload: string }[] {
  if (!ex.response || !ex.ok || !/json/i.test(ex.contentType)) return [];
  return sent.filter((s) => containsMarkup(ex.body, s.payload));
}

/** The request to send: reads as the baselines do; writes only as fresh creates or on objects the scan created. */
async function requestFor(ctx: CheckContext, ep: Endpoint): Promise<PreparedRequest | null> {
  if (ep.method === 'GET') return ctx.baselineRequest(ep, 'key1');
  const request = await ctx.prepare(ep, 1, 'write');
  if (!request) return null;
  if (!isCreate(ep) && pathParamNames(ep.path).length && !createdBy(ctx, request, 1)) return null;
  return request;
}

// Stored payloads show on every write that reaches the same reader: one finding per reader and field.
const reportedReaders = new WeakMap<ResourcePool, Set<string>>();
export function firstReport(ctx: CheckContext, key: string): boolean {
  let seen = reportedReaders.get(ctx.resources);
  if (!seen) reportedReaders.set(ctx.resources, (seen = new Set()));
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
}

const STORED_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:H/I:L/A:N';
const REFLECTED_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N';
const MITIGATED_CVSS = 'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:U/C:N/I:L/A:N';

function mitigation(s: Served): string {
  return s.blockedBy
    ? ` The answer's Content-Security-Policy (${s.blockedBy}) stops inline handlers in current browsers, so this is HTML injection ` +
        '(forged forms, links and content) rather than script execution — until the policy is relaxed.'
    : ' No Content-Security-Policy stops inline scripts in the answer: the script runs in the reader\'s browser with the API origin\'s rights.';
}

export const scriptContent = defineCheck({
  id: 'api8-script-content',
  title: 'Script content served back unescaped (XSS)',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-79',
  confidence: 'high',
  cvss: STORED_CVSS,
  kind: 'active',
  safety: 'intrusive',
  scope: 'endpoint',
  budget: 2 + READERS,
  description:
    `Puts an HTML payload with a unique marker ("'><svg onload=...>) into up to ${TEXT_POINTS} free-text inputs at once (query parameters and ` +
    'string body fields without enum, format or pattern; not ids, e-mails, URLs or credentials), each with its own marker. Reflected: the ' +
    'same answer contains a payload unescaped. Stored: after a create (or an update of an object the scan created) answered 2xx, the GETs ' +
    `that read the object (up to ${READERS}: the object, views under it, the collection; with the query parameters of their own requests, ` +
    'such as a format=html view) contain it unescaped. Reported when that answer is rendered as HTML: text/html, XHTML or SVG, or no ' +
    'Content-Type without nosniff and a body that starts like an HTML page. A Content-Security-Policy that blocks inline scripts lowers the ' +
    'severity to low (HTML injection). When no reader renders it but one returns the payload verbatim in JSON (angle brackets neither ' +
    'rejected nor escaped), one informational finding per write and field says so: stored XSS in any client that inserts the field as HTML. ' +
    'Every stored payload is looked for again on every route at the end of the scan (api8-stored-content-sweep).',
  coverage:
    'JSON answers are never reported as XSS, with or without nosniff: current browsers do not render application/json as HTML (a ' +
    'missing nosniff header is the api8-security-headers finding); a payload stored verbatim in JSON is informational only. Payloads shown ' +
    'only by an e-mail or another user\'s page are not seen; neither are DOM-based XSS in a front end, inputs with a format or pattern, nor ' +
    'payloads a sanitiser reshapes but does not neutralise. Writes go only to fresh creates and objects the scan created.',
  remediation:
    'Encode output for its context where HTML is produced (templates with auto-escaping), serve API data as application/json with ' +
    '`X-Content-Type-Options: nosniff`, validate free-text input, and add a Content-Security-Policy without \'unsafe-inline\' as a second line ' +
    'of defence.',
  references: [
    OWASP_API8,
    'https://cwe.mitre.org/data/definitions/79.html',
    'https://cheatsheetseries.owasp.org/cheatsheets/Cross_Site_Scripting_Prevention_Cheat_Sheet.html',
  ],
  appliesTo: (e) => e.flags.includes('SEC_MISC') && ['GET', 'POST', 'PUT', 'PATCH'].includes(e.method),
  async *run(ctx) {
    const ep = ctx.endpoint;
    const request = await requestFor(ctx, ep);
    if (!request) return;
    const points = injectionPoints(ctx, ep, request)
      .filter((p) => textPoint(p, payloadFor(newMarker('pcx')).length))
      .slice(0, TEXT_POINTS);
    if (!points.length) return;
    let sent = points.map((point) => ({ point, payload: payloadFor(newMarker('pcx')) }));
    let attack = await ctx.sendPrepared(withValues(ctx, ep, request, new Map(sent.map((s) => [s.point.name, s.payload]))), AS_KEY1);
    // Some field rejected the payload: the first one alone (a create needs fresh values).
    if (attack.response && !attack.ok && sent.length > 1 && ctx.budgetLeft() > 0) {
      const again = isCreate(ep) ? await requestFor(ctx, ep) : request;
      if (again) {
        sent = sent.slice(0, 1);
        attack = await ctx.sendPrepared(withValues(ctx, ep, again, new Map(sent.map((s) => [s.point.name, s.payload]))), AS_KEY1);
      }
    }
    const reflected = servedUnescaped(attack, sent);
    if (reflected.length) {
      yield reflectedFinding(ctx, reflected[0]!, attack);
      return;
    }
    if (ep.method === 'GET' || !attack.ok) return;
    remember(ctx, sent.map((s) => ({ ...s, write: attack, endpoint: ep })));
    let inJson: { reader: Endpoint; read: Exchange; stored: { point: InjectionPoint; payload: string } } | null = null;
    for (const reader of readersOf(ctx, ep)) {
      if (ctx.budgetLeft() <= 0) break;
      const url = await readerUrl(ctx, ep, reader, request, attack);
      if (!url) continue;
      const read = await ctx.send({ method: 'GET', url, auth: AS_KEY1, placements: ctx.authSpec(reader).placements, headers: { accept: 'text/html, application/json;q=0.9, */*;q=0.5' } });
      const served = servedUnescaped(read, sent);
      if (!served.length) {
        const verbatim = verbatimInJson(read, sent)[0];
        if (verbatim && !inJson) inJson = { reader, read, stored: verbatim };
        continue;
      }
      // Already reported through another write: the same flaw, and no reason for the informational note.
      if (!firstReport(ctx, `${reader.id} ${served[0]!.point.name}`)) return;
      yield storedFinding(ctx, ep, reader, served[0]!, attack, read);
      return;
    }
    if (inJson && firstReport(ctx, `json ${inJson.reader.id} ${inJson.stored.point.key}`)) yield storedInJsonFinding(ctx, inJson.reader, inJson.stored, attack, inJson.read);
  },
});

function reflectedFinding(ctx: CheckContext, s: Served, attack: Exchange): FindingDraft {
  const ep = ctx.endpoint;
  const viaLink = s.point.where === 'query' && ep.method === 'GET';
  return {
    parameter: s.point.name,
    name: 'Reflected script content served as HTML (XSS)',
    cvss: s.blockedBy ? MITIGATED_CVSS : adjustCvss(REFLECTED_CVSS, viaLink ? {} : { AC: 'H' }),
    description:
      `${describeEndpoint(ep)} returns ${describePoint(s.point)} unescaped in an answer browsers render as HTML (${s.how}): the payload ` +
      `${JSON.stringify(s.payload)} comes back as markup (HTTP ${attack.status}).` +
      (viaLink ? ' A link to this URL runs the script for whoever opens it.' : ' An attacker needs a cross-site request carrying the body (a form post), which lowers the risk.') +
      mitigation(s),
    notes: [`${describePoint(s.point)} = ${JSON.stringify(s.payload)}; the answer contains it verbatim, ${s.how}.`],
    exchanges: [{ label: `Attack: payload in ${s.point.name}`, exchange: attack }],
    reproduce: attack,
    proof: { marker: asAnswered(attack, s.payload) ?? undefined },
  };
}

/** Browsers do not render JSON: the risk is a client (a web front end, an admin tool) that inserts the field as HTML. */
const STORED_IN_JSON_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:L/UI:R/S:U/C:N/I:N/A:N';

function storedInJsonFinding(ctx: CheckContext, reader: Endpoint, s: { point: InjectionPoint; payload: string }, write: Exchange, read: Exchange): FindingDraft {
  const ep = ctx.endpoint;
  return {
    endpoint: ep,
    parameter: s.point.name,
    name: 'Stored HTML markup returned verbatim (HTML injection in clients)',
    cvss: STORED_IN_JSON_CVSS,
    description:
      `${describeEndpoint(ep)} accepts markup in ${describePoint(s.point)} and stores it as sent: ${describeEndpoint(reader)} returns the payload ` +
      `${JSON.stringify(s.payload)} verbatim in a JSON answer (${read.contentType || 'no Content-Type'}), neither rejected nor encoded. Browsers do ` +
      'not render JSON, so this is not exploitable through the API alone; it becomes stored XSS in any client (a web front end, an admin tool, ' +
      'an e-mail) that inserts the field into a page without encoding it. Informational: no route of the scan served it as HTML.',
    ...storeAndReadBack(s, write, read),
  };
}

/** The two steps of a stored payload's proof: the write that stores it, the read that returns it. */
function storeAndReadBack(s: Pick<Served, 'point' | 'payload'>, write: Exchange, read: Exchange): Pick<FindingDraft, 'notes' | 'exchanges' | 'reproduce' | 'proof'> {
  return {
      notes: [
        'Steps:',
        `  1. ${requestLine(write)} with ${s.point.name} = ${JSON.stringify(s.payload)} (HTTP ${write.status}): stores the payload.`,
        `  2. ${requestLine(read)} (HTTP ${read.status}, ${read.contentType || 'no Content-Type'}): returns it verbatim.`,
      ],
      exchanges: [
        { label: `Attack: store the payload in ${s.point.name}`, exchange: write },
        { label: 'Read back', exchange: read },
      ],
      reproduce: read,
      // The payload with its markup, as the read returns it (verbatim, or JSON-escaped in a JSON answer).
      proof: { marker: asAnswered(read, s.payload) ?? undefined },
  };
}

export function storedFinding(ctx: CheckContext, ep: Endpoint, reader: Endpoint, s: Served, write: Exchange, read: Exchange): FindingDraft {
  return {
    endpoint: reader,
    method: reader.method,
    path: reader.path,
    parameter: s.point.name,
    name: 'Stored script content served as HTML (XSS)',
    cvss: s.blockedBy ? withPrivileges(ctx, MITIGATED_CVSS, ep) : withPrivileges(ctx, STORED_CVSS, ep),
    description:
      `${describeEndpoint(ep)} stores ${describePoint(s.point)} as sent, and ${describeEndpoint(reader)} serves it back unescaped in an answer ` +
      `browsers render as HTML (${s.how}): the payload ${JSON.stringify(s.payload)} comes back as markup.` +
      mitigation(s) +
      ' Everyone who opens the page (other users, support staff) is affected, without clicking anything but the page itself.',
    ...storeAndReadBack(s, write, read),
  };
}
