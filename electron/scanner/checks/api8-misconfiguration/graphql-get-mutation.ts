// API8:2023 Security Misconfiguration: GraphQL mutations a browser sends cross-site (issue 20, CWE-352).
// A mutation that executes over GET (an <img> or a link triggers it) or from a POST whose body type a
// form may send (text/plain, application/x-www-form-urlencoded: no CORS preflight) is forgeable from
// any web page a signed-in user visits. Proven with `mutation { __typename }`: valid against any
// schema with mutations, it executes nothing, and data.__typename in the answer shows the server ran it.

import type { Endpoint } from '../../../../shared/contract';
import { adjustCvss } from '../../cvss';
import type { Exchange } from '../../http/exchange';
import { defineCheck } from '../common/helpers';
import { graphqlAnswer, graphqlEndpoints, operationName, operationOf, sendGraphql } from '../common/graphql';
import { AS_KEY1 } from '../common/input-points';
import { OWASP_API8, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';

const PATHS = 2;
export const CSRF_PROBE = 'mutation PortcullisCsrfProbe { __typename }';

interface Way {
  label: string;
  /** What the finding says of it. */
  what: string;
  send(ctx: CheckContext, endpoint: Endpoint, path: string): Promise<Exchange>;
}

const WAYS: Way[] = [
  {
    label: 'the mutation by GET (?query=)',
    what: 'over GET (?query=mutation ...)',
    send: (ctx, endpoint, path) => sendGraphql(ctx, endpoint, { query: CSRF_PROBE }, { auth: AS_KEY1, method: 'GET', path }),
  },
  {
    label: 'the mutation as a text/plain POST',
    what: 'in a text/plain POST (a form with enctype="text/plain" sends it)',
    send: (ctx, endpoint, path) => sendGraphql(ctx, endpoint, { query: CSRF_PROBE }, { auth: AS_KEY1, path, headers: { 'content-type': 'text/plain' } }),
  },
  {
    label: 'the mutation as a form POST (application/x-www-form-urlencoded)',
    what: 'in a form POST (application/x-www-form-urlencoded query=...)',
    send: (ctx, endpoint, path) =>
      ctx.send(
        {
          method: 'POST',
          url: ctx.url(path),
          auth: AS_KEY1,
          placements: ctx.authSpec(endpoint).placements,
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ query: CSRF_PROBE }).toString(),
        },
        endpoint,
      ),
  },
];

/** The server executed the probe: a 2xx GraphQL answer whose data names the mutation root type. */
export function executedMutation(ex: Exchange): string | null {
  if (!ex.ok) return null;
  const typename = graphqlAnswer(ex)?.data?.__typename;
  return typeof typename === 'string' && typename ? typename : null;
}

/** Where the browser adds the credentials by itself: a cookie (an API key in a cookie, or a cookie session from a login). */
function ambientCredentials(ctx: CheckContext, endpoint: Endpoint): boolean {
  return ctx.authSpec(endpoint).placements.some((p) => p.in === 'cookie') || (ctx.identities.key1.renewable && ctx.credential(1) === null);
}

export const graphqlGetMutation = defineCheck({
  id: 'api8-graphql-get-mutation',
  title: 'GraphQL mutations accepted in cross-site requests (CSRF)',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-352',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:N/I:L/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['graphql'],
  budget: PATHS * WAYS.length,
  description:
    `Sends \`${CSRF_PROBE}\` (valid against any schema with mutations, it executes nothing) to each GraphQL endpoint of the scan as ` +
    'key 1, in the three ways a web page can make a browser send it without a CORS preflight: by GET with the query in the URL, as a ' +
    'text/plain POST of the JSON body, and as an application/x-www-form-urlencoded POST (query=...). Finding when an answer is a 2xx ' +
    'whose data.__typename names the mutation type: the server executes mutations from requests any site can forge. Silent when they ' +
    'are refused (405, 415, an error).',
  coverage:
    'Forgery needs credentials the browser sends by itself (cookies, HTTP authentication): with a bearer token or API-key header the ' +
    'finding is scored lower (only unauthenticated mutations, logins among them, are forgeable then). multipart/form-data uploads ' +
    '(graphql-multipart-request) are not tried. A schema without a mutation type answers an error and stays silent.',
  techniques: ['API8.graphql-csrf'],
  remediation:
    'Execute mutations only from POST requests with Content-Type application/json (GraphQL over HTTP: reject GET mutations with 405 and ' +
    'other body types with 415), or require a custom header (Apollo Server\'s csrfPrevention, x-apollo-operation-name); with cookie ' +
    'sessions also use SameSite cookies and CSRF tokens.',
  references: [
    OWASP_API8,
    'https://cwe.mitre.org/data/definitions/352.html',
    OWASP_GRAPHQL_CHEAT_SHEET,
    'https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html',
    'https://graphql.github.io/graphql-over-http/draft/#sec-GET',
  ],
  async *run(ctx) {
    const byPath = new Map<string, Endpoint[]>();
    for (const e of graphqlEndpoints(ctx.endpoints)) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
    for (const [path, ops] of [...byPath].slice(0, PATHS)) {
      // Charged to one of the endpoint's mutations where the scan has one.
      const endpoint = ops.find((e) => operationOf(e).kind === 'mutation') ?? ops[0]!;
      const executed: { way: Way; exchange: Exchange; typename: string }[] = [];
      for (const way of WAYS) {
        if (ctx.budgetLeft() <= 0) break;
        const ex = await way.send(ctx, endpoint, path);
        const typename = executedMutation(ex);
        if (typename) executed.push({ way, exchange: ex, typename });
      }
      if (executed.length) yield csrfFinding(ctx, path, endpoint, ops, executed);
    }
  },
});

function csrfFinding(ctx: CheckContext, path: string, endpoint: Endpoint, ops: Endpoint[], executed: { way: Way; exchange: Exchange; typename: string }[]): FindingDraft {
  const ambient = ambientCredentials(ctx, endpoint);
  const overGet = executed.some((e) => e.way === WAYS[0]);
  const mutations = ops.filter((e) => operationOf(e).kind === 'mutation').map(operationName);
  return {
    endpoint: null,
    method: 'POST',
    path,
    parameter: 'csrf',
    name: overGet ? 'GraphQL mutations accepted over GET (CSRF)' : 'GraphQL mutations accepted in form posts (CSRF)',
    // Header credentials: a forged request arrives without them, so only what works anonymously is at risk.
    cvss: ambient ? undefined : adjustCvss(ctx.check.cvss, { AC: 'H' }),
    description:
      `The GraphQL endpoint ${path} executes mutations ${executed.map((e) => e.way.what).join(', ')}: \`${CSRF_PROBE}\` came back with ` +
      `data.__typename "${executed[0]!.typename}". A web page can make a visitor's browser send such requests cross-site without a CORS ` +
      `preflight, so ${mutations.length ? `mutations such as ${mutations.slice(0, 5).join(', ')}` : 'the schema\'s mutations'} can be forged ` +
      (ambient
        ? 'with the victim\'s session cookie.'
        : 'in the victim\'s name wherever the browser adds the credentials itself (cookies); with the header credentials this API uses, ' +
          'unauthenticated mutations such as logins are forgeable.'),
    notes: executed.map((e) => `${e.way.label} -> HTTP ${e.exchange.status}, data.__typename = "${e.typename}"`),
    exchanges: executed.map((e) => ({ label: `Attack: ${e.way.label}`, exchange: e.exchange })),
    reproduce: executed[0]!.exchange,
  };
}
