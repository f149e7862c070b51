// API5:2023 Broken Function Level Authorization: request headers that assert a privilege the caller
// does not have (a loopback client address, a rewritten URL, an admin flag) and turn a refusal into
// the real answer.

import type { Endpoint } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import { MODE_AUTH, MODE_LABEL, type BaselineMode } from '../../baselines';
import type { Exchange } from '../../http/exchange';
import { mutate, pathParamNames, type PreparedRequest } from '../../requests';
import { distinctiveValues, isEmptyBody, sameData } from '../../similarity';
import { defineCheck, describeEndpoint, endpointList } from '../common/helpers';
import { authRefused, carriesDataOf, looksLikeError, requestLine } from '../common/objects';
import type { CheckContext, FindingDraft } from '../types';
import { adminSignal, REFS } from './privileged-operations';

type Header = readonly [name: string, value: string];

interface Family {
  id: 'client-ip' | 'url-rewrite' | 'role-flag';
  label: string;
  /** The headers that assert the privilege, for a refused request (the rewrite family names its path). */
  headers(path: string): Header[];
  /** The same headers with values that assert nothing: the answer must stay refused. */
  control(path: string): Header[];
}

const IP_HEADERS = ['X-Forwarded-For', 'X-Real-IP', 'X-Client-IP', 'X-Originating-IP', 'True-Client-IP', 'X-Remote-IP', 'X-Remote-Addr'];
const ROLE_HEADERS: Header[] = [
  ['X-Admin', 'true'],
  ['X-Is-Admin', '1'],
  ['X-Role', 'admin'],
  ['X-User-Role', 'admin'],
  ['X-Roles', 'admin'],
  ['X-Privileged', 'true'],
  ['X-Internal', 'true'],
];

export const FAMILIES: readonly Family[] = [
  {
    id: 'client-ip',
    label: 'a loopback client address',
    headers: () => [...IP_HEADERS.map((h) => [h, '127.0.0.1'] as const), ['Forwarded', 'for=127.0.0.1']],
    // TEST-NET-3: an outside address, asserting nothing.
    control: () => [...IP_HEADERS.map((h) => [h, '203.0.113.7'] as const), ['Forwarded', 'for=203.0.113.7']],
  },
  {
    id: 'url-rewrite',
    label: 'a rewritten URL (sent to / with the refused path in the header)',
    headers: (path) => [
      ['X-Original-URL', path],
      ['X-Rewrite-URL', path],
    ],
    control: () => [],
  },
  {
    id: 'role-flag',
    label: 'an admin or role flag',
    headers: () => ROLE_HEADERS,
    control: () => ROLE_HEADERS.map(([h, v]) => [h, v === 'admin' ? 'user' : v === '1' ? '0' : 'false'] as const),
  },
];

const LOGIN_PAGE = /type=["']?password|log ?in|sign ?in|forgot (your )?password/i;

interface Refusal {
  endpoint: Endpoint;
  mode: BaselineMode;
  request: PreparedRequest;
  refusal: Exchange;
  /** What an identity allowed to use the operation gets, when one is. */
  reference: Exchange | null;
  referenceMode: BaselineMode | null;
}

const hasContent = (ex: Exchange | null | undefined): ex is Exchange => !!ex?.ok && !isEmptyBody(ex) && !looksLikeError(ex);

/** Refused reads to try: refused to a scan identity first (an admin read refused to a user), then refused without credentials. */
async function refusals(ctx: CheckContext, limits: { identity: number; anonymous: number }): Promise<Refusal[]> {
  const reads = ctx.endpoints
    .filter((e) => e.method === 'GET' && pathParamNames(e.path).length === 0)
    .sort((a, b) => Number(adminSignal(b) !== null) - Number(adminSignal(a) !== null));
  const identityModes: BaselineMode[] = [...(ctx.identities.lower ? (['lower'] as const) : []), 'key1', ...(ctx.hasKey2 ? (['key2'] as const) : [])];
  const out: Refusal[] = [];
  let [identity, anonymous] = [0, 0];
  for (const endpoint of reads) {
    if (identity >= limits.identity && anonymous >= limits.anonymous) break;
    const answers = new Map<BaselineMode, Exchange | null>();
    for (const mode of ['privileged', ...identityModes, 'anonymous'] as BaselineMode[]) {
      if (mode === 'privileged' && !ctx.identities.privileged) continue;
      answers.set(mode, await ctx.baseline(mode, endpoint));
    }
    const referenceMode = [...answers.keys()].find((m) => m !== 'anonymous' && hasContent(answers.get(m))) ?? null;
    const reference = referenceMode ? answers.get(referenceMode)! : null;
    const refusedMode = identity < limits.identity ? identityModes.find((m) => authRefused(answers.get(m))) : undefined;
    const mode = refusedMode ?? (anonymous < limits.anonymous && reference && authRefused(answers.get('anonymous')) ? 'anonymous' : null);
    if (!mode) continue;
    const request = await ctx.baselineRequest(endpoint, mode);
    if (!request) continue;
    out.push({ endpoint, mode, request, refusal: answers.get(mode)!, reference, referenceMode });
    if (mode === 'anonymous') anonymous += 1;
    else identity += 1;
  }
  return out;
}

function withHeaders(r: Refusal, family: Family, headers: readonly Header[]): PreparedRequest {
  const set = Object.fromEntries(headers.map(([h, v]) => [h, v]));
  if (family.id !== 'url-rewrite') return mutate(r.request, { headers: set });
  // The front end sees "/", the application routes by the header.
  const moved = mutate(r.request, { headers: set, path: '/' });
  moved.url.search = '';
  return moved;
}

const pathOf = (r: Refusal) => `${r.request.url.pathname}${r.request.url.search}`;

/**
 * The answer looks like the operation itself: content, no error or login page, not the refusal, like
 * the allowed identity's answer where there is one. Without one, a JSON answer with data — unless the
 * header is already proven on another read (`proven`), when content is enough.
 */
function looksGranted(ex: Exchange, r: Refusal, proven = false): boolean {
  if (!hasContent(ex) || sameData(ex, r.refusal, 0.8)) return false;
  if (!/json/.test(ex.contentType) && LOGIN_PAGE.test(ex.body.slice(0, 5000))) return false;
  if (r.reference) return carriesDataOf(ex, r.reference) || sameData(ex, r.reference, 0.8);
  if (proven) return true;
  const json = ex.json();
  return json !== undefined && distinctiveValues(json, 4).length >= 2;
}

interface Hit {
  refusal: Refusal;
  header: Header[];
  attack: Exchange;
  control: Exchange | null;
}

export const privilegeHeaders = defineCheck({
  id: 'api5-privilege-headers',
  title: 'Request headers grant a privilege (client IP, URL rewrite, role flag)',
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-290',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 50,
  needsKey2: false,
  description:
    'Takes up to four reads (GETs without path parameters, administrative ones first) that a scan identity is refused with 401/403, and ' +
    'two that are refused without credentials while an identity gets them, and re-sends each with one family of headers at a time: ' +
    `client IP (${IP_HEADERS.join(', ')}, Forwarded: for=127.0.0.1), URL rewrite (GET / with X-Original-URL and X-Rewrite-URL naming the ` +
    `refused path), role flags (${ROLE_HEADERS.map(([h, v]) => `${h}: ${v}`).join(', ')}). Finding: a 2xx with content that is not an error ` +
    'or login page and not the refusal — the allowed identity\'s data where one gets it (high confidence), else a JSON answer with data ' +
    '(medium) — while the same headers with values that assert nothing (203.0.113.7, user, false) stay refused, and / without the header ' +
    'answers something else. The family is then narrowed to the one header that does it, and tried on the other refused reads.',
  coverage:
    'Reads only (writes that were refused are never re-sent with privilege headers), and only GETs without path parameters. Only the listed ' +
    'header names and values; a proxy that trusts another header, or a private-range address instead of loopback, is missed.',
  remediation:
    'Never base authorization on client-supplied headers: take the client address from the connection or from a proxy you control that ' +
    'overwrites forwarding headers, disable X-Original-URL/X-Rewrite-URL handling unless the front end sets them itself, and derive roles ' +
    'only from the authenticated identity on the server.',
  references: [...REFS, 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/05-Authorization_Testing/02-Testing_for_Bypassing_Authorization_Schema'],
  appliesTo: (e) => e.method === 'GET' && (e.flags.includes('BFLA') || e.flags.includes('BKEN_AUTH')),
  async *run(ctx) {
    const candidates = await refusals(ctx, { identity: 4, anonymous: 2 });
    if (!candidates.length) return;
    const send = (r: Refusal, family: Family, headers: readonly Header[]) => ctx.sendPrepared(withHeaders(r, family, headers), MODE_AUTH[r.mode]);
    const rootAnswers = new Map<BaselineMode, Exchange>();
    for (const family of FAMILIES) {
      const hits: Hit[] = [];
      for (const r of candidates) {
        if (ctx.budgetLeft() < 3) break;
        const path = pathOf(r);
        // Once a header is known, the other refused reads get just that one.
        const headers = hits.length ? hits[0]!.header : family.headers(path);
        const attack = await send(r, family, headers.map(([h, v]) => (family.id === 'url-rewrite' ? [h, path] : [h, v]) as Header));
        if (!looksGranted(attack, r, hits.length > 0)) continue;
        const control = await controlAnswer(ctx, r, family, rootAnswers, (hs) => send(r, family, hs));
        if (control?.ok && (sameData(control, attack, 0.8) || (family.id !== 'url-rewrite' && looksGranted(control, r)))) continue;
        const narrowed = hits.length ? { header: headers, attack } : await narrow(ctx, family.headers(path), (h) => send(r, family, [h]), r, attack);
        hits.push({ refusal: r, ...narrowed, control });
      }
      if (hits.length) yield finding(ctx, family, hits);
    }
  },
});

/** The answer without the privilege: the same headers asserting nothing, or for the rewrite family "/" itself (once per identity). */
async function controlAnswer(
  ctx: CheckContext,
  r: Refusal,
  family: Family,
  roots: Map<BaselineMode, Exchange>,
  send: (headers: readonly Header[]) => Promise<Exchange>,
): Promise<Exchange | null> {
  if (ctx.budgetLeft() <= 0) return null;
  if (family.id !== 'url-rewrite') return send(family.control(pathOf(r)));
  let root = roots.get(r.mode);
  if (!root) roots.set(r.mode, (root = await send([])));
  return root;
}

/** The single header of the family that grants the privilege on its own, with its answer (the whole family when none does alone). */
async function narrow(
  ctx: CheckContext,
  family: Header[],
  sendOne: (h: Header) => Promise<Exchange>,
  r: Refusal,
  first: Exchange,
): Promise<{ header: Header[]; attack: Exchange }> {
  for (const h of family.length > 1 ? family : []) {
    if (ctx.budgetLeft() < 2) break;
    const ex = await sendOne(h);
    if (looksGranted(ex, r) && sameData(ex, first, 0.8)) return { header: [h], attack: ex };
  }
  return { header: family, attack: first };
}

const who = (mode: BaselineMode) => (mode === 'anonymous' ? 'a request without credentials' : MODE_LABEL[mode]);

function finding(ctx: CheckContext, family: Family, hits: Hit[]): FindingDraft {
  const first = hits[0]!;
  const r = first.refusal;
  const headerText = first.header.map(([h, v]) => `${h}: ${family.id === 'url-rewrite' ? pathOf(r) : v}`).join(', ');
  const anonymous = r.mode === 'anonymous';
  const proven = hits.some((h) => h.refusal.reference !== null);
  const others = hits.slice(1).map((h) => h.refusal.endpoint);
  return {
    endpoint: r.endpoint,
    parameter: family.id,
    confidence: proven ? 'high' : 'medium',
    cvss: adjustCvss(ctx.check.cvss, { PR: anonymous ? 'N' : 'L' }),
    description:
      `${describeEndpoint(r.endpoint)} refuses ${who(r.mode)} (HTTP ${r.refusal.status}), yet with ${headerText} — ${family.label} — ` +
      `it answers ${first.attack.status} with the operation's content` +
      (r.reference ? `, the same data ${MODE_LABEL[r.referenceMode!]} gets` : '') +
      `. ${first.control ? `The same request ${family.id === 'url-rewrite' ? 'to / without the header' : 'with values that assert nothing'} gets ${first.control.status}. ` : ''}` +
      'The API (or a proxy in front of it) trusts a header any client can set.' +
      (others.length ? ` The same header also opens: ${endpointList(others)}.` : ''),
    notes: [
      `Header: ${headerText}.`,
      `Identity: ${who(r.mode)}.`,
      ...hits.map((h) => `  ${requestLine(h.attack)} -> HTTP ${h.attack.status} (refused with ${h.refusal.refusal.status} without the header)`),
    ],
    exchanges: [
      ...(r.reference ? [{ label: `Baseline (${MODE_LABEL[r.referenceMode!]})`, exchange: r.reference }] : []),
      { label: `Baseline (${who(r.mode)})`, exchange: r.refusal },
      ...(first.control ? [{ label: 'Control: no privilege asserted', exchange: first.control }] : []),
      { label: `Attack: ${headerText}`, exchange: first.attack },
    ],
    reproduce: first.attack,
  };
}
