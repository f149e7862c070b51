// API9:2023 Improper Inventory Management: which GraphQL engine serves the API. Every engine words its
// parse and validation errors in its own way (and a few name their root type their own way), so four
// harmless documents that fail before anything executes — a bare name, a misspelt keyword, a directive
// where none may stand — and `{ __typename }` tell graphene from graphql-js, graphql-java or Hasura.
// Reported for information: the engine is no weakness, but it tells an attacker which known flaws,
// defaults and limits to try, and it belongs in the API's inventory.

import type { Exchange } from '../../http/exchange';
import { defineCheck } from '../common/helpers';
import { errorMessages, graphqlAnswer, graphqlEndpoints, sendGraphql } from '../common/graphql';
import { AS_KEY1 } from '../common/input-points';
import { OWASP_API9, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';

/** The probes: each fails in the parser or the validator (or only names the root type), so no resolver runs. */
export const ENGINE_PROBES = [
  { id: 'typename', label: 'the root type\'s name', query: 'query { __typename }' },
  { id: 'bare-name', label: 'a syntax error (a bare name)', query: 'portcullis' },
  { id: 'misspelt-keyword', label: 'a syntax error (a misspelt keyword)', query: 'queryy { __typename }' },
  { id: 'misplaced-directive', label: 'a directive where none may stand', query: 'query @deprecated { __typename }' },
] as const;

export type EngineProbeId = (typeof ENGINE_PROBES)[number]['id'];

/** What the probes got back: the root type's name and each probe's error messages. */
export interface EngineAnswers {
  typename: string | null;
  messages: Partial<Record<EngineProbeId, string[]>>;
}

export interface EngineSignature {
  engine: string;
  /** The language and the servers built on it, for the description. */
  about: string;
  /** The probe whose answer told it, and the text that did. */
  test(a: EngineAnswers): { probe: EngineProbeId; evidence: string } | null;
}

/** The first message of a probe that matches. */
function said(a: EngineAnswers, probe: EngineProbeId, pattern: RegExp): { probe: EngineProbeId; evidence: string } | null {
  const m = (a.messages[probe] ?? []).find((x) => pattern.test(x));
  return m ? { probe, evidence: m.slice(0, 200) } : null;
}

function first(...found: ({ probe: EngineProbeId; evidence: string } | null)[]): { probe: EngineProbeId; evidence: string } | null {
  return found.find((f) => f !== null) ?? null;
}

/**
 * Engine signatures, most specific first: the wording of their parser and validator, as their releases print it.
 * graphql-js and graphql-core 3 share their wording but not their quotes.
 */
export const ENGINE_SIGNATURES: readonly EngineSignature[] = [
  {
    engine: 'Graphene 2 (graphql-core 2)',
    about: 'Python (Graphene 2, Flask-GraphQL, Django Graphene)',
    test: (a) => first(said(a, 'bare-name', /^Syntax Error GraphQL \(\d+:\d+\)/), said(a, 'misspelt-keyword', /^Syntax Error GraphQL \(\d+:\d+\)/)),
  },
  {
    engine: 'Hasura',
    about: 'Hasura GraphQL Engine (Haskell)',
    test: (a) =>
      first(
        a.typename === 'query_root' ? { probe: 'typename', evidence: '__typename is "query_root"' } : null,
        said(a, 'misplaced-directive', /directive "deprecated" is not allowed on a query/i),
      ),
  },
  {
    engine: 'graphql-java',
    about: 'Java (graphql-java, Spring for GraphQL, Netflix DGS)',
    test: (a) => first(said(a, 'misspelt-keyword', /Invalid Syntax ?: offending token/), said(a, 'bare-name', /Invalid Syntax ?: offending token/), said(a, 'misplaced-directive', /^Validation error (of type|\()/)),
  },
  {
    engine: 'graphql-ruby',
    about: 'Ruby (graphql-ruby)',
    test: (a) => first(said(a, 'bare-name', /^Parse error on "/), said(a, 'misspelt-keyword', /^Parse error on "/), said(a, 'misplaced-directive', /'@deprecated' can't be applied to queries/)),
  },
  {
    engine: 'graphql-php',
    about: 'PHP (webonyx/graphql-php, Lighthouse)',
    test: (a) => said(a, 'misplaced-directive', /^Directive "deprecated" may not be used on "QUERY"\.$/),
  },
  {
    engine: 'Sangria',
    about: 'Scala (Sangria)',
    test: (a) => first(said(a, 'misspelt-keyword', /^Syntax error while parsing GraphQL query/), said(a, 'bare-name', /^Syntax error while parsing GraphQL query/)),
  },
  {
    engine: 'Juniper',
    about: 'Rust (Juniper)',
    test: (a) => first(said(a, 'misspelt-keyword', /^Unexpected "queryy"$/), said(a, 'bare-name', /^Unexpected "portcullis"$/)),
  },
  {
    engine: 'gqlgen',
    about: 'Go (gqlgen, gqlparser)',
    test: (a) => said(a, 'misspelt-keyword', /^Unexpected Name "queryy"$/),
  },
  {
    engine: 'graphql-core 3',
    about: 'Python (Graphene 3, Strawberry, Ariadne)',
    test: (a) => first(said(a, 'misplaced-directive', /^Directive '@deprecated' may not be used on query\.$/), said(a, 'bare-name', /^Syntax Error: Unexpected Name 'portcullis'\.$/)),
  },
  {
    engine: 'graphql-js',
    about: 'JavaScript (graphql-js: Apollo Server, GraphQL Yoga, express-graphql, Mercurius...)',
    test: (a) => first(said(a, 'misplaced-directive', /^Directive "@deprecated" may not be used on QUERY\.$/), said(a, 'bare-name', /^Syntax Error: Unexpected Name "portcullis"\.$/)),
  },
];

/** The engine the answers name, or null. */
export function engineOf(a: EngineAnswers): { signature: EngineSignature; probe: EngineProbeId; evidence: string } | null {
  for (const signature of ENGINE_SIGNATURES) {
    const hit = signature.test(a);
    if (hit) return { signature, ...hit };
  }
  return null;
}

/** The GraphQL paths fingerprinted per scan, at most. */
const PATHS = 2;
const INFORMATION_CVSS = 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:N/I:N/A:N';

export const graphqlEngine = defineCheck({
  id: 'api9-graphql-engine',
  title: 'GraphQL engine fingerprinted',
  flag: 'IIM',
  owasp: 'API9:2023',
  cwe: 'CWE-200',
  confidence: 'high',
  cvss: INFORMATION_CVSS,
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['graphql'],
  budget: PATHS * ENGINE_PROBES.length,
  techniques: ['API9.graphql-engine'],
  description:
    'Sends each GraphQL endpoint of the scan (as key 1) four documents that no resolver runs: `{ __typename }`, a bare name, a misspelt ' +
    '`queryy` keyword and `query @deprecated { ... }` (a directive where none may stand). Engines word their parse and validation errors ' +
    'in their own way, and a few name their root type their own way: the answers are matched against the signatures of Graphene 2 ' +
    '(graphql-core 2), Hasura, graphql-java, graphql-ruby, graphql-php, Sangria, Juniper, gqlgen, graphql-core 3 and graphql-js. Finding ' +
    '(information) naming the engine, its language and the answer that told it.',
  coverage:
    'Engines outside the list, and servers that mask parse and validation errors with their own text, are not named (nothing is reported). ' +
    'The version is not told; servers on one engine (Apollo Server, GraphQL Yoga on graphql-js) are not told apart.',
  remediation:
    'Nothing to fix by itself: record the engine and its version in the API\'s inventory and keep it patched. Where the engine allows it, ' +
    'replace parser and validation messages with generic ones, so that the engine\'s known weaknesses and defaults are not advertised.',
  references: [OWASP_API9, OWASP_GRAPHQL_CHEAT_SHEET, 'https://github.com/dolevf/graphw00f'],
  appliesTo: (e) => !!e.graphql,
  async *run(ctx) {
    const byPath = new Map(graphqlEndpoints(ctx.endpoints).map((e) => [e.path, e]));
    for (const [path, endpoint] of [...byPath].slice(0, PATHS)) {
      const answers: EngineAnswers = { typename: null, messages: {} };
      const exchanges = new Map<EngineProbeId, Exchange>();
      for (const probe of ENGINE_PROBES) {
        if (ctx.budgetLeft() <= 0) return;
        const ex = await sendGraphql(ctx, endpoint, { query: probe.query }, { auth: AS_KEY1, path, pathProbe: true });
        const answer = graphqlAnswer(ex);
        if (!answer) continue;
        exchanges.set(probe.id, ex);
        answers.messages[probe.id] = errorMessages(answer);
        const typename = answer.data?.__typename;
        if (probe.id === 'typename' && typeof typename === 'string') answers.typename = typename;
      }
      const found = engineOf(answers);
      if (!found) continue;
      const told = exchanges.get(found.probe)!;
      const probe = ENGINE_PROBES.find((p) => p.id === found.probe)!;
      const root = exchanges.get('typename');
      yield {
        endpoint: null,
        method: 'POST',
        path,
        parameter: 'engine',
        name: `GraphQL engine fingerprinted: ${found.signature.engine}`,
        description:
          `The GraphQL endpoint ${path} runs ${found.signature.engine}, ${found.signature.about}: its answer to ${probe.label} ` +
          `(\`${probe.query}\`) reads "${found.evidence}", which is that engine's wording` +
          (answers.typename ? `, and \`{ __typename }\` answers "${answers.typename}".` : '.') +
          ' Knowing the engine tells an attacker which of its known weaknesses, defaults and limits to try first.',
        exchanges: [
          ...(root && found.probe !== 'typename' ? [{ label: 'Probe: { __typename }', exchange: root }] : []),
          { label: `Probe: ${probe.label}`, exchange: told },
        ],
        reproduce: told,
      };
    }
  },
});
