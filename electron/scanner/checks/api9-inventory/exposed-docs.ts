// API9:2023 Improper Inventory Management: API descriptions and documentation UIs served.


import type { Exchange } from '../../http/exchange';
import { apiWideFinding, defineCheck, type Hit } from '../common/helpers';
import { pseudoEndpoint } from './debug-endpoints';
import { ANON, originUrl, prefixes } from './paths';
import { OWASP_API9 } from '../common/references';

// ---------------------------------------------------------------- old versions
// ---------------------------------------------------------------- exposed docs

const SPEC_PATHS = ['/openapi.json', '/swagger.json', '/v3/api-docs', '/v2/api-docs', '/api-docs', '/swagger/v1/swagger.json', '/openapi.yaml', '/swagger.yaml'];
const UI_PATHS = ['/swagger-ui.html', '/swagger-ui/', '/swagger/', '/docs', '/redoc', '/api-docs/'];

function isSpec(ex: Exchange): boolean {
  if (!ex.ok) return false;
  const v = ex.json() as Record<string, unknown> | undefined;
  if (v && typeof v === 'object' && !Array.isArray(v)) return (typeof v.openapi === 'string' || typeof v.swagger === 'string') && !!v.paths && typeof v.paths === 'object';
  return /^\s*["']?(openapi|swagger)["']?\s*:\s*["']?\d/m.test(ex.body) && /^["']?paths["']?\s*:/m.test(ex.body);
}

function isDocsUi(ex: Exchange): boolean {
  return ex.ok && /html/i.test(ex.contentType) && /(swagger-ui|SwaggerUIBundle|<redoc|redoc\.standalone|rapi-doc|<title>[^<]*(swagger|api docs|redoc)[^<]*<\/title>)/i.test(ex.body.slice(0, 50_000));
}

export const exposedDocs = defineCheck({
  id: 'api9-exposed-docs',
  title: 'API documentation exposed',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-200',
  severity: 'low',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 3 * (SPEC_PATHS.length + UI_PATHS.length),
  description:
    'Asks, without credentials, for the usual documentation paths (openapi.json, swagger.json, v3/api-docs, swagger-ui.html, docs, redoc...) at ' +
    'the origin root and under each level of the base path. Finding when one answers with an OpenAPI/Swagger document (an object with ' +
    '`openapi`/`swagger` and `paths`) or a Swagger UI / ReDoc page; a catch-all 200 does not count.',
  remediation:
    'Publish API documentation deliberately: keep it off production hosts or behind authentication, and make sure it documents exactly ' +
    'what is meant to be public (no internal or deprecated operations).',
  references: [OWASP_API9, 'https://cwe.mitre.org/data/definitions/200.html'],
  async *run(ctx) {
    const hits: Hit[] = [];
    for (const prefix of prefixes(ctx)) {
      for (const [paths, test, what] of [
        [SPEC_PATHS, isSpec, 'an OpenAPI/Swagger document'],
        [UI_PATHS, isDocsUi, 'an interactive documentation page'],
      ] as const) {
        for (const p of paths) {
          if (ctx.budgetLeft() <= 0) break;
          const ex = await ctx.send({ method: 'GET', url: originUrl(ctx, `${prefix}${p}`), auth: ANON });
          if (!test(ex)) continue;
          hits.push({ endpoint: pseudoEndpoint(`${prefix}${p}`), exchange: ex, detail: `${what} (HTTP ${ex.status}, ${ex.contentType || 'no type'})` });
          break;
        }
      }
    }
    if (!hits.length) return;
    const f = apiWideFinding(
      {
        id: 'exposed-docs',
        name: 'API documentation exposed',
        severity: 'low',
        confidence: 'high',
        description:
          'API documentation is served to anyone without credentials. It maps every operation and parameter for an attacker — including ' +
          'any the owners did not mean to publish.',
        recommendation: ctx.check.remediation,
      },
      hits,
    );
    yield { ...f, method: 'GET', path: new URL(hits[0]!.exchange.request.url).pathname };
  },
});
