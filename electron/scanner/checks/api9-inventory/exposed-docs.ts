// API9:2023 Improper Inventory Management: API descriptions and documentation UIs served.


import type { Exchange } from '../../http/exchange';
import { normalizeTemplate } from '../../resources';
import { apiWideFinding, defineCheck, type Hit } from '../common/helpers';
import type { CheckContext } from '../types';
import { pseudoEndpoint } from './debug-endpoints';
import { ANON, originUrl, prefixes } from './paths';
import { OWASP_API9 } from '../common/references';

const SPEC_PATHS = ['/openapi.json', '/swagger.json', '/v3/api-docs', '/v2/api-docs', '/api-docs', '/swagger/v1/swagger.json', '/openapi.yaml', '/swagger.yaml'];
const UI_PATHS = ['/swagger-ui.html', '/swagger-ui/', '/swagger/', '/docs', '/redoc', '/api-docs/'];

function isSpec(ex: Exchange): boolean {
  if (!ex.ok) return false;
  const v = ex.json() as Record<string, unknown> | undefined;
  if (v && typeof v === 'object' && !Array.isArray(v)) return (typeof v.openapi === 'string' || typeof v.swagger === 'string') && !!v.paths && typeof v.paths === 'object';
  return /^\s*["']?(openapi|swagger)["']?\s*:\s*["']?\d/m.test(ex.body) && /^["']?paths["']?\s*:/m.test(ex.body);
}

/** The paths of a served OpenAPI/Swagger document (JSON, or the top-level keys of a YAML one's `paths:` block). */
function specPaths(ex: Exchange): string[] {
  const v = ex.json() as { paths?: Record<string, unknown> } | undefined;
  if (v && typeof v === 'object' && v.paths && typeof v.paths === 'object') return Object.keys(v.paths);
  const lines = ex.body.split('\n');
  const start = lines.findIndex((l) => /^["']?paths["']?\s*:\s*$/.test(l));
  if (start < 0) return [];
  const out: string[] = [];
  let indent: string | null = null;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const m = /^([ \t]+)["']?(\/[^"'\s:]*)["']?\s*:/.exec(line);
    if (m && (indent ??= m[1]!) === m[1]) out.push(m[2]!);
  }
  return out;
}

/**
 * The served document's paths that the imported spec does not have (each compared with and without the
 * base path): empty when the document is the API's own published spec.
 */
export function undocumentedInSpec(ctx: CheckContext, ex: Exchange): string[] {
  const base = ctx.url('/').pathname.replace(/\/+$/, '');
  const known = new Set(ctx.allEndpoints.flatMap((e) => [normalizeTemplate(e.path), normalizeTemplate(`${base}${e.path}`)]));
  return specPaths(ex).filter((p) => !known.has(normalizeTemplate(p)) && !known.has(normalizeTemplate(`${base}${p}`)));
}

function isDocsUi(ex: Exchange): boolean {
  return ex.ok && /html/i.test(ex.contentType) && /(swagger-ui|SwaggerUIBundle|<redoc|redoc\.standalone|rapi-doc|<title>[^<]*(swagger|api docs|redoc)[^<]*<\/title>)/i.test(ex.body.slice(0, 50_000));
}

/** Documents more than the imported spec (or cannot be compared): low, a map for an attacker but no attack (AC:H). */
const REVEALS_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:N/A:N';
/** The API's own published docs: informational (no impact). */
const PUBLISHED_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:N';

export const exposedDocs = defineCheck({
  id: 'api9-exposed-docs',
  title: 'API documentation exposed',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-200',
  confidence: 'high',
  cvss: REVEALS_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['rest', 'graphql'],
  budget: 3 * (SPEC_PATHS.length + UI_PATHS.length),
  description:
    'Asks, without credentials, for the usual documentation paths (openapi.json, swagger.json, v3/api-docs, swagger-ui.html, docs, redoc...) at ' +
    'the origin root and under each level of the base path. Finding when one answers with an OpenAPI/Swagger document (an object with ' +
    '`openapi`/`swagger` and `paths`) or a Swagger UI / ReDoc page; a catch-all 200 does not count. Documents whose paths are all in the ' +
    'imported spec are the API\'s own published docs: info. A document with paths the imported spec lacks is low and lists them.',
  coverage:
    'Compares the served document\'s paths with the endpoints of the scan (endpoints marked SKIP count as undocumented). Documentation ' +
    'pages are judged by the documents found: where pages answer and no document does, they are reported as low.',
  remediation:
    'Publish API documentation deliberately: keep it off production hosts or behind authentication, and make sure it documents exactly ' +
    'what is meant to be public (no internal or deprecated operations).',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/200.html'],
  async *run(ctx) {
    const hits: Hit[] = [];
    let extra: string[] = [];
    let specs = 0;
    let pages = 0;
    for (const prefix of prefixes(ctx)) {
      for (const [paths, test, what] of [
        [SPEC_PATHS, isSpec, 'an OpenAPI/Swagger document'],
        [UI_PATHS, isDocsUi, 'an interactive documentation page'],
      ] as const) {
        for (const p of paths) {
          if (ctx.budgetLeft() <= 0) break;
          if (ctx.skips('GET', originUrl(ctx, `${prefix}${p}`))) continue;
          const ex = await ctx.send({ method: 'GET', url: originUrl(ctx, `${prefix}${p}`), auth: ANON });
          if (!test(ex)) continue;
          let detail = `${what} (HTTP ${ex.status}, ${ex.contentType || 'no type'})`;
          if (test === isSpec) {
            const more = undocumentedInSpec(ctx, ex);
            extra = [...new Set([...extra, ...more])];
            specs += 1;
            detail += more.length ? `; ${more.length} paths the imported spec lacks: ${more.slice(0, 5).join(', ')}` : '; the same paths as the imported spec';
          } else pages += 1;
          hits.push({ endpoint: pseudoEndpoint(`${prefix}${p}`), exchange: ex, detail });
          break;
        }
      }
    }
    if (!hits.length) return;
    // A documentation page shows a document; where none was found to compare, what it shows is unknown.
    const reveals = extra.length > 0 || (pages > 0 && specs === 0);
    const f = apiWideFinding(
      {
        id: 'exposed-docs',
        name: 'API documentation exposed',
        cvss: reveals ? REVEALS_CVSS : PUBLISHED_CVSS,
        confidence: 'high',
        description: extra.length
          ? `API documentation is served to anyone without credentials, and it documents more than the imported spec: ${extra.slice(0, 10).join(', ')}` +
            `${extra.length > 10 ? ', ...' : ''}. It maps operations the owners did not publish for an attacker.`
          : reveals
            ? 'An API documentation page is served to anyone without credentials; the document it shows could not be compared with the imported spec.'
            : 'The API\'s own documentation (the same paths as the imported spec) is served without credentials. Listed for the inventory: ' +
              'published docs are not a weakness as long as they document exactly what is meant to be public.',
        recommendation: ctx.check.remediation,
      },
      hits,
    );
    yield { ...f, method: 'GET', path: new URL(hits[0]!.exchange.request.url).pathname };
  },
});
