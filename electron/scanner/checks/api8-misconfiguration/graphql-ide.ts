// API8:2023 Security Misconfiguration: an in-browser GraphQL IDE (GraphiQL, GraphQL Playground, Altair,
// Voyager, Apollo Sandbox) served in production. It is the development console of the API: it runs
// introspection for whoever opens it and invites anyone to write queries. Looked for at the GraphQL
// path itself (asked for HTML, as a browser would) and at the usual IDE paths beside it, each answer
// compared with a made-up sibling path, so an SPA that answers every path with its index is not one.

import { randomAlnum } from '../../random';
import type { Exchange } from '../../http/exchange';
import { defineCheck, type Hit } from '../common/helpers';
import { graphqlEndpoints, graphqlPaths } from '../common/graphql';
import { OWASP_API8, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { CheckContext } from '../types';

const PATHS = 2;
/** IDE paths tried beside each GraphQL path (relative to its parent), after the path itself. */
const IDE_PATHS = ['graphiql', 'playground', 'altair', 'voyager', 'graphql/console'];

/** What each IDE's page carries (its bundle, its mount point or its title); matched in HTML answers only. */
const IDE_SIGNATURES: { name: string; pattern: RegExp }[] = [
  { name: 'GraphiQL', pattern: /graphiql/i },
  { name: 'GraphQL Playground', pattern: /graphql[- ]playground/i },
  { name: 'Altair GraphQL Client', pattern: /altair/i },
  { name: 'GraphQL Voyager', pattern: /graphql[- ]voyager/i },
  { name: 'Apollo Sandbox', pattern: /apollo[- ]?(sandbox|studio|server-landing-page)|embeddable-sandbox/i },
];

export function ideIn(ex: Exchange): string | null {
  if (!ex.ok || !/html/i.test(ex.contentType)) return null;
  const text = ex.body.slice(0, 200_000);
  return IDE_SIGNATURES.find((s) => s.pattern.test(text))?.name ?? null;
}

function siblingUrl(ctx: CheckContext, graphqlPath: string, name: string): URL {
  const url = ctx.url(graphqlPath);
  url.pathname = url.pathname.replace(/\/[^/]*\/?$/, '/') + name;
  url.search = '';
  return url;
}

export const graphqlIde = defineCheck({
  id: 'api8-graphql-ide-exposed',
  title: 'GraphQL IDE exposed',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-489',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['graphql'],
  budget: PATHS * (IDE_PATHS.length + 2),
  description:
    `For each GraphQL endpoint (up to ${PATHS}), asks for HTML (Accept: text/html) at the endpoint itself and at the usual IDE paths beside ` +
    `it (${IDE_PATHS.map((p) => `/${p}`).join(', ')}), and at a made-up sibling path as a control. Finding when an answer is an HTML page of ` +
    'an in-browser GraphQL IDE (GraphiQL, GraphQL Playground, Altair, Voyager, Apollo Sandbox) and the made-up path is not. One finding per ' +
    'GraphQL endpoint, listing where the IDE answered.',
  coverage: 'IDEs at other paths, or enabled only by a cookie or header the scan does not send, are not seen.',
  techniques: ['API8.graphql-ide'],
  remediation:
    'Serve GraphQL IDEs only in development: disable GraphiQL / Playground / the landing page in production builds (Apollo Server ' +
    'ApolloServerPluginLandingPageDisabled, graphene GraphQLView(graphiql=False), express-graphql graphiql: false), or put them behind ' +
    'authentication for the team.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/489.html', OWASP_GRAPHQL_CHEAT_SHEET],
  async *run(ctx) {
    const endpoints = graphqlEndpoints(ctx.endpoints);
    for (const path of graphqlPaths(endpoints).slice(0, PATHS)) {
      const endpoint = endpoints.find((e) => e.path === path)!;
      // Pages of the path, not the operation the endpoint was imported for: its slowness does not hold them back.
      const get = (url: URL) => ctx.send({ method: 'GET', url, auth: { kind: 'none' }, placements: [], headers: { accept: 'text/html,application/xhtml+xml' }, pathProbe: true }, endpoint);
      if (ctx.budgetLeft() <= 0) return;
      const control = await get(siblingUrl(ctx, path, `portcullis-${randomAlnum(10).toLowerCase()}`));
      if (ideIn(control)) continue;
      const hits: Hit[] = [];
      const candidates = [ctx.url(path), ...IDE_PATHS.map((p) => siblingUrl(ctx, path, p))];
      for (const url of candidates) {
        if (ctx.budgetLeft() <= 0) break;
        const ex = await get(url);
        const ide = ideIn(ex);
        if (ide) hits.push({ endpoint, exchange: ex, detail: `GET ${url.pathname} answered HTTP ${ex.status} with the ${ide} page` });
      }
      if (!hits.length) continue;
      const first = hits[0]!;
      const ide = ideIn(first.exchange)!;
      yield {
        endpoint,
        method: 'GET',
        path: new URL(first.exchange.request.url).pathname,
        parameter: 'graphql-ide',
        name: `GraphQL IDE exposed (${ide})`,
        description:
          `${ide} is served without credentials (${hits.map((h) => h.detail).join('; ')}), while a made-up path beside it answered HTTP ${control.status}. ` +
          'The in-browser IDE is a development console: it introspects the schema for whoever opens it and lets anyone compose and send ' +
          'queries and mutations, which makes every other GraphQL weakness easier to find and use.',
        notes: [`Control: GET ${new URL(control.request.url).pathname} answered HTTP ${control.status}${control.contentType ? ` (${control.contentType})` : ''}.`],
        exchanges: [
          { label: `Attack: the ${ide} page`, exchange: first.exchange },
          { label: 'Control: a made-up path beside it', exchange: control },
        ],
        reproduce: first.exchange,
      };
    }
  },
});
