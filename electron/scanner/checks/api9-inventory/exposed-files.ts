// API9:2023 Improper Inventory Management: directory listings and files among the routes the scan
// discovered beyond the API description (robots.txt, links, scripts, listings). A listing is info on its
// own and medium when it names backups, logs or confidential files; such a file served with content unlike
// the API's not-found answer is high (backups, keys, databases) or medium (logs).

import type { Endpoint } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import type { Exchange, RequestAuth } from '../../http/exchange';
import { fileKind, type FileKind, isDirectoryListing, jsonListingNames, listedPaths, presenceOrListing } from '../../route-discovery/listing';
import { htmlLinks } from '../../route-discovery/sources';
import { isEmptyBody } from '../../similarity';
import { apiWideFinding, defineCheck, type Hit } from '../common/helpers';
import { AS_KEY1 } from '../common/input-points';
import { OWASP_API9 } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { NotFoundModel, presence, shapeOf } from './not-found';
import { ANON } from './paths';

const CVSS = {
  high: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N',
  medium: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  info: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N',
} as const;

type Group = 'listing' | 'listing-sensitive' | FileKind;

const GROUPS: Record<Group, { name: string; severity: keyof typeof CVSS; why: string }> = {
  listing: { name: 'Directory listing enabled', severity: 'info', why: 'The server lists the files of a folder: anyone can see what it holds.' },
  'listing-sensitive': {
    name: 'Directory listing exposes backup, log or confidential files',
    severity: 'medium',
    why: 'The server lists the files of a folder, and some are backups, logs or confidential by their type: their names tell an attacker what to fetch.',
  },
  backup: { name: 'Backup file served', severity: 'high', why: 'A backup or archive is served to anyone: it may hold source code, data or credentials.' },
  confidential: { name: 'Confidential file served', severity: 'high', why: 'A file of a confidential type (a key, a key store, a database, an environment file) is served to anyone.' },
  log: { name: 'Log file served', severity: 'medium', why: 'A log file is served to anyone: logs carry user data, tokens and internals.' },
};

const MAX_ROUTES = 40;

function fullPath(ctx: CheckContext, e: Endpoint): string {
  return `${ctx.url('/').pathname.replace(/\/+$/, '')}${e.path}`;
}

export const exposedFiles = defineCheck({
  id: 'api9-exposed-files',
  title: 'Directory listings and backup, log or confidential files served',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-538',
  confidence: 'high',
  cvss: CVSS.high,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 80,
  discoveredOnly: true,
  appliesTo: (e) => !!e.discovered && e.method === 'GET' && !e.parameters.some((p) => p.in === 'path'),
  description:
    'GETs the routes the scan discovered beyond the API description (robots.txt, sitemaps, links, scripts, directory listings) without ' +
    'credentials (key 1 where refused), each compared with a random path in the same folder. Finding: a directory listing (info; medium ' +
    'when it names backups, logs or confidential files by their type), or a file whose name says it is a backup or archive, a key, key ' +
    'store, database or environment file (high), or a log (medium), served with content unlike the not-found answer.',
  coverage:
    'Only routes the discovery phase found (a route in the spec is the API\'s own); a file is judged by its name and by differing from ' +
    'not-found, not by parsing it. Backups guessed from a compact list are api9-undocumented-endpoints\'.',
  remediation:
    'Turn directory listing off, and keep backups, logs, key stores and other confidential files out of every folder the server serves; ' +
    'serve only what the API documents.',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/538.html', 'https://cwe.mitre.org/data/definitions/548.html'],
  async *run(ctx) {
    const origin = ctx.url('/').origin;
    const get = (path: string, auth: RequestAuth, e?: Endpoint) =>
      ctx.send({ method: 'GET', url: `${origin}${path}`, auth, placements: ctx.authSpec().placements, followRedirects: false, headers: { accept: 'application/json, text/html;q=0.9, */*;q=0.5' } }, e);
    const models = { none: new NotFoundModel((p) => get(p, ANON), ctx.random.fork('anonymous')), key: new NotFoundModel((p) => get(p, AS_KEY1), ctx.random.fork('key 1')) };
    const groups = new Map<Group, { hit: Hit; control: Exchange; path: string }[]>();
    const put = (g: Group, e: Endpoint, ex: Exchange, control: Exchange, detail: string) => {
      const list = groups.get(g) ?? [];
      list.push({ hit: { endpoint: e, exchange: ex, detail }, control, path: fullPath(ctx, e) });
      groups.set(g, list);
    };
    for (const e of ctx.endpoints.slice(0, MAX_ROUTES)) {
      const path = fullPath(ctx, e);
      const kind = fileKind(path);
      if (ctx.budgetLeft() < 4) break;
      const cut = path.replace(/\/+$/, '').lastIndexOf('/');
      const leaf = path.slice(cut + 1);
      const shape = shapeOf(path.slice(0, cut), `/${leaf}`);
      let controls = await models.none.controlsFor(shape, leaf);
      let ex = await get(path, ANON, e);
      // Folders and files answer slowly under the load of the scan's other API-wide checks: one more try before giving up.
      if (!ex.response && ctx.budgetLeft() >= 4) ex = await get(path, ANON, e);
      let seen = presenceOrListing(ex, controls);
      if (seen === 'protected' && ctx.budgetLeft() >= 3) {
        const withKey = await get(path, AS_KEY1, e);
        const keyControls = await models.key.controlsFor(shape, leaf);
        if (presence(withKey, keyControls) === 'present') [ex, seen, controls] = [withKey, 'present', keyControls];
      }
      if (seen !== 'present' || isEmptyBody(ex)) continue;
      const who = ex.request.auth.kind === 'none' ? 'without credentials' : 'with key 1';
      const listed = isDirectoryListing(ex) || jsonListingNames(ex) ? listedPaths(ex, path, origin, (html, base) => htmlLinks(html, origin, base).links) : null;
      if (listed) {
        const dir = path.replace(/\/*$/, '/');
        const sensitive = listed.filter((n) => fileKind(n));
        const shown = (sensitive.length ? sensitive : listed).slice(0, 6).map((n) => decodeURIComponent(n.slice(dir.length)));
        put(
          sensitive.length ? 'listing-sensitive' : 'listing',
          e,
          ex,
          controls[0]!,
          `a directory listing ${who} naming ${listed.length} entr${listed.length === 1 ? 'y' : 'ies'}${shown.length ? ` (${shown.join(', ')}${listed.length > shown.length ? ', ...' : ''})` : ''}; a random path there answered ${controls[0]!.status}`,
        );
        continue;
      }
      if (kind && !/html/i.test(ex.contentType)) put(kind, e, ex, controls[0]!, `HTTP ${ex.status} ${ex.contentType || 'no type'}, ${ex.body.length} bytes ${who}; a random path there answered ${controls[0]!.status}`);
    }
    for (const f of findingsFrom(ctx, groups)) yield f;
  },
});

function findingsFrom(ctx: CheckContext, groups: Map<Group, { hit: Hit; control: Exchange; path: string }[]>): FindingDraft[] {
  const out: FindingDraft[] = [];
  for (const [group, list] of groups) {
    list.sort((a, b) => a.path.length - b.path.length || a.path.localeCompare(b.path));
    const top = list[0]!;
    const meta = GROUPS[group];
    const anonymous = list.some((x) => x.hit.exchange.request.auth.kind === 'none');
    const draft = apiWideFinding(
      {
        id: `exposed ${group}`,
        name: meta.name,
        confidence: 'high',
        cvss: adjustCvss(CVSS[meta.severity], { PR: anonymous ? 'N' : 'L' }),
        description: `${meta.why} Found beyond the API description (${list.length}: ${list.slice(0, 5).map((x) => `${x.path} (${x.hit.endpoint.discovered})`).join(', ')}${list.length > 5 ? ', ...' : ''}).`,
        recommendation: ctx.check.remediation,
      },
      list.map((x) => x.hit),
    );
    out.push({
      ...draft,
      method: 'GET',
      path: top.path,
      exchanges: [...draft.exchanges, { label: "Control: a random path in the same folder (the API's not-found answer)", exchange: top.control }],
      reproduce: top.hit.exchange,
    });
  }
  return out;
}
