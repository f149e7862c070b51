// API9:2023 Improper Inventory Management: routes the spec does not document that answer anyway —
// siblings of documented routes (collection <-> item, plural <-> singular) and a compact list of
// admin, log, backup, source, listing, metrics and health paths — each compared with the API's own
// not-found answer at the same place, so a catch-all 200 or an SPA index is never a finding.

import type { Severity } from '../../../../shared/constants';
import { adjustCvss } from '../../cvss';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { pathParamNames } from '../../requests';
import { isEmptyBody } from '../../similarity';
import { apiWideFinding, defineCheck, forEachLimit, type Hit } from '../common/helpers';
import { AS_KEY1 } from '../common/input-points';
import { looksLikeError } from '../common/objects';
import { OWASP_API9 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { pseudoEndpoint } from './debug-endpoints';
import { FAMILY, type Family, firstItemId, isLoginPage, otherNumber, SURFACES, type Surface } from './discovery-paths';
import { type Guess, NotFoundModel, presence, shapeOf } from './not-found';
import { ANON, documentedPaths, matchesDocumented, originUrl } from './paths';

/** Most sibling guesses per scan (each may cost a control too). */
const MAX_SIBLINGS = 36;

interface Candidate extends Guess {
  /** What kind of thing: a surface family, or a sibling of a documented route. */
  kind: Family | 'sibling';
  surface?: Surface;
  /** Why this path was guessed ("collection of GET /users/{id}"). */
  why: string;
}

interface Found {
  candidate: Candidate;
  exchange: Exchange;
  control: Exchange;
  severity: Severity;
  name: string;
  detail: string;
  group: string;
  proven: boolean;
}

/** A vector for each level, inside that level's CVSS band (a finding's severity is the band of its vector). */
const CVSS = {
  high: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  medium: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  low: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N',
  info: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N',
} as const;

function basePath(ctx: CheckContext): string {
  return ctx.url('/').pathname.replace(/\/+$/, '');
}

// ---------------------------------------------------------------- what to guess

/** The origin root and the API's base path: where surfaces are usually mounted. */
function surfaceGuesses(ctx: CheckContext): Candidate[] {
  const prefixes = [...new Set(['', basePath(ctx)])];
  return prefixes.flatMap((prefix) =>
    SURFACES.map((surface) => ({ path: `${prefix}${surface.path}`, shape: shapeOf(prefix, surface.path), kind: surface.family, surface, why: `well-known ${surface.family} path` })),
  );
}

/** Collection routes of item routes, item routes of collections, and the other grammatical number of each noun. */
async function siblingGuesses(ctx: CheckContext, documented: Set<string>): Promise<Candidate[]> {
  const base = basePath(ctx);
  const out = new Map<string, Candidate>();
  const add = (path: string, shape: string, why: string) => {
    if (out.size < MAX_SIBLINGS && !out.has(path) && !matchesDocumented(documented, path)) out.set(path, { path, shape, kind: 'sibling', why });
  };
  // Siblings of documented routes only: a route the scan discovered is a guess already, and its siblings would be guesses of guesses.
  const documentedEndpoints = ctx.endpoints.filter((e) => !e.discovered);
  const gets = documentedEndpoints.filter((e) => e.method === 'GET');
  for (const e of documentedEndpoints) {
    const segs = e.path.split('/').filter(Boolean);
    // /users/{id} -> /users (parents without parameters only: their address is known).
    if (pathParamNames(e.path).length === 1 && segs[segs.length - 1]!.startsWith('{') && segs.length >= 2) {
      const parent = `${base}/${segs.slice(0, -1).join('/')}`;
      add(parent, `${parent.slice(0, parent.lastIndexOf('/'))}/*`, `the collection of ${e.method} ${e.path}`);
    }
  }
  // /users -> /users/{the first listed id}, from the shared baseline.
  for (const e of gets.filter((x) => pathParamNames(x.path).length === 0 && ![...documented].some((d) => d.startsWith(`${base}${x.path}/{}`))).slice(0, 4)) {
    const id = firstItemId((await ctx.baseline('key1', e))?.json());
    if (id) add(`${base}${e.path}/${encodeURIComponent(id)}`, `${base}${e.path}/*`, `an item of GET ${e.path}`);
  }
  // /users/42 -> /user/42 and back, on the concrete path the baseline used.
  const baseSegs = base.split('/').filter(Boolean).length;
  for (const e of gets) {
    const request = await ctx.baselineRequest(e);
    if (!request) continue;
    const concrete = request.url.pathname.split('/');
    const template = `${base}${e.path}`.split('/');
    if (concrete.length !== template.length) continue;
    template.forEach((seg, i) => {
      const other = i > baseSegs && !seg.startsWith('{') ? otherNumber(seg) : null;
      if (!other) return;
      const swap = (s: string) => concrete.map((c, j) => (j === i ? s : c)).join('/');
      add(swap(other), swap('*'), `"${other}" for "${seg}" in ${e.method} ${e.path}`);
    });
  }
  return [...out.values()];
}

// ---------------------------------------------------------------- what an answer proves

/** The admin twins api5-admin-path-insertion asks for: their content is its finding, their refusal ours. */
function adminTwins(ctx: CheckContext): Set<string> {
  return new Set(['/admin', '/api/admin', `${basePath(ctx)}/admin`]);
}

function judge(ctx: CheckContext, c: Candidate, ex: Exchange, control: Exchange, anonymous: boolean): Found | null {
  const who = anonymous ? 'without credentials' : 'with key 1';
  const base = { candidate: c, exchange: ex, control };
  if (c.kind === 'sibling') {
    if (isEmptyBody(ex) || looksLikeError(ex)) return null;
    return { ...base, severity: 'medium', name: 'Undocumented route answers with data', group: 'sibling', proven: false, detail: `HTTP ${ex.status} ${who} (${c.why}); a random path there answered ${control.status}` };
  }
  const family = FAMILY[c.kind];
  const proof = c.surface?.proof ? c.surface.proof(ex) : null;
  if (c.surface?.proof && !proof) return null;
  if (c.kind === 'admin' && isLoginPage(ex)) {
    return { ...base, severity: 'info', name: 'Admin login page answers', group: 'admin-login', proven: false, detail: `a login page ${who}` };
  }
  if (c.kind === 'admin' && adminTwins(ctx).has(c.path)) return null;
  if (!proof && (isEmptyBody(ex) || looksLikeError(ex))) return null;
  const what = proof ?? `HTTP ${ex.status} ${ex.contentType || 'no type'}, ${ex.body.length} bytes`;
  return { ...base, severity: family.severity, name: family.name, group: c.kind, proven: !!proof, detail: `${what} ${who}; a random path there answered ${control.status}` };
}

function protectedHit(c: Candidate, ex: Exchange, control: Exchange): Found {
  return {
    candidate: c,
    exchange: ex,
    control,
    severity: 'info',
    name: 'Undocumented route exists but refuses',
    group: 'protected',
    proven: false,
    detail: `HTTP ${ex.status} where a random path answered ${control.status} (${c.why})`,
  };
}

// ---------------------------------------------------------------- the check

export const DISCOVERY_BUDGET = 200;

export const undocumentedEndpoints = defineCheck({
  id: 'api9-undocumented-endpoints',
  title: 'Undocumented endpoints answer',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-1059',
  confidence: 'medium',
  cvss: CVSS.medium,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: DISCOVERY_BUDGET,
  description:
    'GETs routes the spec does not document: the collection route of each item route (/users/{id} -> /users) and an item of each ' +
    'collection, the other grammatical number of each noun (/user/42 <-> /users/42), as key 1; and, at the origin root and the base ' +
    'path, a compact list of admin, debug, log, backup, repository/configuration, directory-listing, metrics and health paths, without ' +
    'credentials (key 1 where refused). Random paths at the same place are fetched first to learn the API\'s not-found answer (status, ' +
    'content type, body shape and length). Finding: an answer unlike it — a file with its format\'s content (SQL dump, archive, Git ' +
    'config, heap dump, log lines, directory index) is high or medium; an undocumented route with data is medium; a 401/403 where ' +
    'nothing-here is a 404 is info (it exists, and refuses).',
  coverage:
    'Only GET, only the listed spellings and the siblings of documented routes; collection routes whose parent has path parameters are not ' +
    'guessed. Older and newer versions of versioned paths are api9-old-version-alive\'s, actuator/metrics/.env/phpinfo are ' +
    'api9-debug-endpoints\', the content of /admin twins is api5-admin-path-insertion\'s, and framework debug consoles are ' +
    'api8-debug-console\'s. A server that answers every path alike (catch-all, SPA index) yields nothing here.',
  remediation:
    'Keep an inventory of every route the deployment serves and compare it with the published spec; remove backups, dumps, logs and ' +
    'repository files from the web root, disable directory listing, and route only what is documented (404 for anything else).',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/1059.html', 'https://owasp.org/www-project-web-security-testing-guide/latest/4-Web_Application_Security_Testing/02-Configuration_and_Deployment_Management_Testing/04-Review_Old_Backup_and_Unreferenced_Files_for_Sensitive_Information'],
  async *run(ctx) {
    const documented = documentedPaths(ctx);
    const get = (path: string, auth: RequestAuth) =>
      ctx.send({ method: 'GET', url: originUrl(ctx, path), auth, placements: ctx.authSpec().placements, followRedirects: false, headers: { accept: 'application/json, text/html;q=0.9, */*;q=0.5' } });
    const anon = new NotFoundModel((p) => get(p, ANON), ctx.random.fork('anonymous'));
    const key1 = new NotFoundModel((p) => get(p, AS_KEY1), ctx.random.fork('key 1'));
    const found: Found[] = [];

    const tryOne = async (c: Candidate, first: RequestAuth) => {
      if (ctx.budgetLeft() < 3 || matchesDocumented(documented, c.path) || ctx.skips('GET', originUrl(ctx, c.path))) return;
      const leaf = c.path.split('/').pop() ?? '';
      const model = first.kind === 'none' ? anon : key1;
      const controls = await model.controlsFor(c.shape, leaf);
      let ex = await get(c.path, first);
      let seen = presence(ex, controls);
      if (seen === 'protected' && first.kind === 'none' && ctx.budgetLeft() >= 3) {
        const withKey = await get(c.path, AS_KEY1);
        const keyControls = await key1.controlsFor(c.shape, leaf);
        if (presence(withKey, keyControls) === 'present') [ex, seen] = [withKey, 'present'];
      }
      const control = controls[0]!;
      if (seen === 'protected') found.push(protectedHit(c, ex, control));
      if (seen !== 'present') return;
      const hit = judge(ctx, c, ex, control, ex.request.auth.kind === 'none');
      if (hit) found.push(hit);
    };

    await forEachLimit(await siblingGuesses(ctx, documented), ctx.parallelism, (c) => tryOne(c, AS_KEY1));
    await forEachLimit(surfaceGuesses(ctx), ctx.parallelism, (c) => tryOne(c, ANON));
    for (const f of findingsFrom(ctx, found)) yield f;
  },
});

function findingsFrom(ctx: CheckContext, found: Found[]): FindingDraft[] {
  const groups = new Map<string, Found[]>();
  for (const f of found) groups.set(f.group, [...(groups.get(f.group) ?? []), f]);
  const out: FindingDraft[] = [];
  for (const [group, list] of groups) {
    list.sort((a, b) => a.candidate.path.length - b.candidate.path.length || a.candidate.path.localeCompare(b.candidate.path));
    const top = list[0]!;
    const hits: Hit[] = list.map((f) => ({ endpoint: pseudoEndpoint(f.candidate.path), exchange: f.exchange, detail: f.detail }));
    const anonymous = list.some((f) => f.exchange.request.auth.kind === 'none');
    const draft = apiWideFinding(
      {
        id: `undocumented ${group}`,
        name: top.name,
        confidence: list.some((f) => f.proven) ? 'high' : 'medium',
        cvss: adjustCvss(CVSS[top.severity], { PR: anonymous ? 'N' : 'L' }),
        description:
          `Paths the spec does not document answer unlike the API's own not-found answer (${list.length}: ${list.slice(0, 5).map((f) => f.candidate.path).join(', ')}${list.length > 5 ? ', ...' : ''}). ` +
          (group === 'protected'
            ? 'They refuse the request, so they exist and are protected: listed for the inventory.'
            : 'Undocumented routes and files are outside the inventory: nobody reviews, patches or protects them like the documented ones.'),
        recommendation: ctx.check.remediation,
      },
      hits,
    );
    out.push({
      ...draft,
      method: 'GET',
      path: top.candidate.path,
      exchanges: [...draft.exchanges, { label: 'Control: a random path at the same place (the API\'s not-found answer)', exchange: top.control }],
      reproduce: top.exchange,
    });
  }
  return out;
}
