// API5:2023 Broken Function Level Authorization: admin segments inserted into documented paths.


import type { Endpoint } from '../../../../shared/contract';
import { modeOf } from '../../baselines';
import { type Exchange, type KeyNumber } from '../../http/exchange';
import { isMeLike } from '../../identities/verify';
import { pathParamNames } from '../../requests';
import { normalizeTemplate } from '../../resources';
import { compareBodies, distinctiveValues, isEmptyBody, sameData } from '../../similarity';
import { defineCheck, describeEndpoint } from '../common/helpers';
import {
    asKey,
    identityMarks,
    keyLabel,
    looksLikeError,
    marksIn,
    refused,
    responseSchema,
} from '../common/objects';
import type { CheckContext } from '../types';
import { adminSignal, lowerKey, REFS } from './privileged-operations';

// ---------------------------------------------------------------- API5.3 admin path insertion

const CONSOLE_TEXT = /type=["']?password|log ?in|sign ?in|forgot (your )?password/i;

interface Variant {
  path: string;
  collection: string | null;
  original: Endpoint | null;
}

function listsThings(e: Endpoint): boolean {
  const schema = responseSchema(e, 200);
  if (!schema) return true;
  if (schema.type === 'array' || schema.items) return true;
  const props = (schema.properties ?? {}) as Record<string, { type?: unknown; items?: unknown }>;
  return Object.values(props).some((p) => p && (p.type === 'array' || !!p.items));
}

/** Where an API keeps an admin twin: /admin, /api/admin, {base}/admin, and per collection /admin/{c}, {base}/admin/{c}, {base}/{c}/admin. */
function variants(ctx: CheckContext): Variant[] {
  const base = new URL(ctx.api.baseUrl).pathname.replace(/\/+$/, '');
  const declared = new Set(ctx.allEndpoints.map((e) => normalizeTemplate(`${base}${e.path}`)));
  // A variant a declared route already matches is that route with "admin" as its parameter (/users/{username} -> /users/admin).
  const routes = ctx.allEndpoints.map((e) => new RegExp(`^${`${base}${e.path}`.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`));
  // Collections: GETs without parameters that list things (an array, or a page of them), shallow paths first.
  const lists = ctx.allEndpoints
    .filter((e) => e.method === 'GET' && pathParamNames(e.path).length === 0 && !adminSignal(e) && !isMeLike(e) && listsThings(e))
    .sort((a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path));
  const seen = new Set<string>();
  const out: Variant[] = [];
  const add = (path: string, collection: string | null, original: Endpoint | null) => {
    const p = path.replace(/\/{2,}/g, '/');
    if (seen.has(p) || declared.has(normalizeTemplate(p)) || routes.some((r) => r.test(p))) return;
    seen.add(p);
    out.push({ path: p, collection, original });
  };
  const roots = [...new Set(['', '/api', base])];
  for (const r of roots) add(`${r}/admin`, null, null);
  const collections = new Map<string, Endpoint>();
  for (const e of lists) {
    const c = e.path.split('/').filter(Boolean).pop();
    if (c && !collections.has(c) && collections.size < 6) collections.set(c, e);
  }
  for (const [c, e] of collections) {
    add(`${base}/admin${e.path}`, c, e);
    add(`/admin${base}${e.path}`, c, e);
    add(`/admin/${c}`, c, e);
    add(`${base}${e.path}/admin`, c, e);
  }
  return out;
}

export const adminPathInsertion = defineCheck({
  id: 'api5-admin-path-insertion',
  title: 'Hidden admin path answers with content',
  flag: 'BFLA',
  owasp: 'API5:2023',
  cwe: 'CWE-285',
  confidence: 'medium',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 60,
  needsKey2: false,
  techniques: ['API5.3'],
  description:
    'GETs undeclared admin twins of the API: /admin, /api/admin and {base}/admin, and for up to six collections the API lists, ' +
    '{base}/admin/{collection}, /admin{base}/{collection}, /admin/{collection} and {base}/{collection}/admin — without credentials first, then ' +
    'with the lower-privileged key if refused. Two random paths (one under /admin) are fetched first to learn what "nothing here" looks like. ' +
    'Finding: a 2xx with content that differs from those controls and from the ordinary collection, that is not a login page; high ' +
    'confidence when it lists other users\' data or answers without credentials.',
  coverage:
    'Runs once per scan when any scanned endpoint carries the BFLA flag. Only the common spellings of admin paths are tried, on collections ' +
    'the spec lists; consoles behind their own login page are not reported. A catch-all route that serves the same page everywhere is ' +
    'recognised by the controls.',
  remediation:
    'Do not deploy internal or admin routes on the public API host; where they must exist, protect them with the same authentication and an ' +
    'admin-role check as any administrative endpoint, and answer 404 for anything not routed.',
  references: REFS,
  async *run(ctx) {
    const low = lowerKey(ctx) ?? 1;
    const get = (path: string, key: KeyNumber | null) =>
      ctx.send({ method: 'GET', url: new URL(ctx.api.baseUrl).origin + path, auth: key ? asKey(key) : { kind: 'none' }, placements: ctx.authSpec().placements, headers: { accept: 'application/json, text/html;q=0.9, */*;q=0.5' } });
    const base = new URL(ctx.api.baseUrl).pathname.replace(/\/+$/, '');
    const controls: Exchange[] = [];
    for (const p of [`${base}/admin-${ctx.random.hex(4)}/${ctx.random.hex(4)}`, `/admin/${ctx.random.hex(5)}`]) {
      const anon = await get(p, null);
      controls.push(anon);
      if (refused(anon)) controls.push(await get(p, low));
    }
    const isControl = (ex: Exchange) => controls.some((c) => c.ok && c.status === ex.status && compareBodies(ex, c).values >= 0.8);
    const hits: { v: Variant; ex: Exchange; anonymous: boolean; reference: Exchange | null; others: string[] }[] = [];
    for (const v of variants(ctx)) {
      if (ctx.budgetLeft() < 2) break;
      if (ctx.skips('GET', new URL(ctx.api.baseUrl).origin + v.path)) continue;
      let ex = await get(v.path, null);
      let anonymous = true;
      if (refused(ex) && (ex.status === 401 || ex.status === 403)) {
        ex = await get(v.path, low);
        anonymous = false;
      }
      if (!ex.ok || isEmptyBody(ex) || looksLikeError(ex) || isControl(ex)) continue;
      if (ex.redirects.length && /log ?in|sign ?in|auth/i.test(ex.redirects[ex.redirects.length - 1]!.to)) continue;
      if (!ex.contentType.includes('json') && CONSOLE_TEXT.test(ex.body.slice(0, 5000))) continue;
      const json = ex.json();
      if (json !== undefined && distinctiveValues(json, 4).length < 2) continue;
      // The ordinary collection under another URL (the router ignored the extra segment) is not an admin surface.
      const reference = v.original ? await ctx.baseline(modeOf(low), v.original) : null;
      if (reference?.ok && sameData(ex, reference, 0.95)) continue;
      const others = [...marksIn(identityMarks(ctx, 1), ex.body), ...(ctx.hasKey2 ? marksIn(identityMarks(ctx, 2), ex.body) : [])];
      hits.push({ v, ex, anonymous, reference, others });
    }
    // One finding per collection (and one for the consoles): each is its own surface.
    const groups = new Map<string, typeof hits>();
    for (const h of hits) groups.set(h.v.collection ?? '(console)', [...(groups.get(h.v.collection ?? '(console)') ?? []), h]);
    for (const [collection, list] of groups) {
      const first = list.find((h) => h.anonymous) ?? list[0]!;
      const strong = list.some((h) => h.others.length > 0 || h.anonymous);
      const paths = list.map((h) => h.v.path);
      yield {
        endpoint: null,
        method: 'GET',
        path: first.v.path,
        parameter: collection,
        confidence: strong ? 'high' : 'medium',
        description:
          `Undeclared admin ${collection === '(console)' ? 'console' : `view of ${collection}`} answers with content: ${paths.join(', ')} ` +
          `(HTTP ${first.ex.status}${first.anonymous ? ', without any credentials' : `, with the lower-privileged ${keyLabel(low)}`})` +
          `${first.others.length ? `, listing users' data (${first.others.slice(0, 3).join(', ')})` : ''}. Random paths next to it answer ` +
          `${[...new Set(controls.map((c) => c.status))].join('/')}, so this is a real route that is neither documented nor protected.`,
        notes: [`Paths found: ${paths.join(', ')}.`, ...(first.v.original ? [`Derived from ${describeEndpoint(first.v.original)}.`] : [])],
        exchanges: [
          { label: 'Control: a random path', exchange: controls[0]! },
          ...(first.reference ? [{ label: `Baseline: the documented ${describeEndpoint(first.v.original!)}`, exchange: first.reference }] : []),
          { label: `Attack: ${first.v.path}`, exchange: first.ex },
        ],
        reproduce: first.ex,
      };
    }
  },
});
