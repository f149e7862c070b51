// GraphQL import budget (issue 20): a 1,000-type schema imports within 1 s, as SDL and as an
// introspection result (the file a user uploads, and what live introspection returns). Each variant
// runs in its own child process: the first call is cold (what a user sees), the median of the others warm.
// The schema: 800 object types (leaves, links forming cycles, lists with arguments), 100 input types
// (one recursive chain), 50 enums, 30 interfaces, 18 unions, Query and Mutation: 2,200 operations.
// Run: npm run bench -- graphql-import [--calls N]

import { spawnSync } from 'node:child_process';
import { buildClientSchema, buildSchema, introspectionFromSchema } from 'graphql';
import { importApiDocument } from '../../electron/importer/index';
import { importGraphqlSchema } from '../../electron/importer/read-graphql';
import { writeResult } from '../lib/results';

const BUDGET_MS = 1000;
const OBJECTS = 800;
const INPUTS = 100;
const ENUMS = 50;
const INTERFACES = 30;
const UNIONS = 18;

/** The bench schema's SDL: 998 named types of its own plus Query and Mutation. */
export function benchSdl(): string {
  const out: string[] = ['scalar DateTime'];
  for (let i = 0; i < ENUMS; i += 1) out.push(`enum Status${i} { ACTIVE INACTIVE PENDING_${i} ARCHIVED }`);
  for (let i = 0; i < INTERFACES; i += 1) out.push(`interface Entity${i} {\n  id: ID!\n  name: String\n}`);
  for (let i = 0; i < OBJECTS; i += 1) {
    const iface = `Entity${i % INTERFACES}`;
    out.push(
      [
        `"Object type ${i}."`,
        `type Type${i} implements ${iface} {`,
        '  id: ID!',
        '  name: String',
        '  count: Int',
        '  score: Float',
        '  active: Boolean!',
        `  status: Status${i % ENUMS}`,
        '  createdAt: DateTime',
        `  next: Type${(i + 1) % OBJECTS}`,
        `  parent: Type${(i * 3) % OBJECTS}`,
        `  items(first: Int = 10, after: String): [Type${(i * 7) % OBJECTS}!]!`,
        `  secret(key: String!): String`,
        '}',
      ].join('\n'),
    );
  }
  for (let i = 0; i < UNIONS; i += 1) out.push(`union Result${i} = Type${i} | Type${i + 100} | Type${i + 200}`);
  for (let i = 0; i < INPUTS; i += 1)
    out.push(`input Input${i} {\n  id: ID\n  name: String!\n  tags: [String!]\n  status: Status${i % ENUMS}\n  nested: Input${(i + 1) % INPUTS}\n  callbackUrl: String\n}`);
  const query: string[] = [];
  for (let i = 0; i < OBJECTS; i += 1) {
    query.push(`  type${i}(id: ID!): Type${i}`);
    query.push(`  types${i}(filter: Input${i % INPUTS}, first: Int! = 20, after: String): [Type${i}!]!`);
  }
  for (let i = 0; i < INTERFACES; i += 1) query.push(`  entity${i}(id: ID!): Entity${i}`);
  for (let i = 0; i < UNIONS; i += 1) query.push(`  search${i}(term: String!): [Result${i}!]!`);
  const mutation: string[] = [];
  for (let i = 0; i < 552; i += 1) mutation.push(`  update${i}(input: Input${i % INPUTS}!): Type${i % OBJECTS}`);
  out.push(`type Query {\n${query.join('\n')}\n}`, `type Mutation {\n${mutation.join('\n')}\n}`);
  return out.join('\n\n');
}

type Variant = 'sdl' | 'introspection-file' | 'introspection-schema';

const rawGc = (globalThis as { gc?: (options?: object) => void }).gc;
const gc = () => rawGc?.({ type: 'major', execution: 'sync' });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number) => Math.round(x * 10) / 10;

function child(variant: Variant, calls: number): void {
  const sdl = benchSdl();
  const built = buildSchema(sdl);
  const introspection = introspectionFromSchema(built);
  const sdlBytes = new TextEncoder().encode(sdl);
  const jsonBytes = new TextEncoder().encode(JSON.stringify({ data: introspection }));
  const run = (): number => {
    switch (variant) {
      case 'sdl':
        return importApiDocument(sdlBytes, { filename: 'bench.graphql' }).endpoints.length;
      case 'introspection-file':
        return importApiDocument(jsonBytes, { filename: 'bench.json' }).endpoints.length;
      case 'introspection-schema':
        // Live introspection without the HTTP: the answer's schema built and imported.
        return importGraphqlSchema(buildClientSchema(introspection), { name: 'bench', baseUrl: 'http://127.0.0.1', path: '/graphql', format: 'graphql-introspection' }).endpoints.length;
    }
  };
  const times: number[] = [];
  let endpoints = 0;
  for (let i = 0; i < calls; i += 1) {
    gc();
    const t0 = performance.now();
    endpoints = run();
    times.push(performance.now() - t0);
  }
  const types = Object.keys(built.getTypeMap()).filter((n) => !n.startsWith('__')).length;
  console.log(JSON.stringify({ times, endpoints, types, sdlBytes: sdlBytes.length, jsonBytes: jsonBytes.length, rssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === 'child') return child(args[1] as Variant, Number(args[2]));
  const callsAt = args.indexOf('--calls');
  const calls = callsAt >= 0 ? Number(args[callsAt + 1]) : 7;
  const figures: Record<string, unknown> = {};
  let over = false;
  for (const variant of ['sdl', 'introspection-file', 'introspection-schema'] as Variant[]) {
    const res = spawnSync(process.execPath, ['--expose-gc', process.argv[1]!, 'child', variant, String(calls)], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`${variant} failed: ${res.stderr}`);
    const r = JSON.parse(res.stdout.trim().split('\n').pop()!) as { times: number[]; endpoints: number; types: number; sdlBytes: number; jsonBytes: number; rssMB: number };
    const cold = r.times[0]!;
    const warm = median(r.times.slice(1));
    over ||= cold > BUDGET_MS;
    figures[variant] = { coldMs: round(cold), warmMs: round(warm), endpoints: r.endpoints, types: r.types, sdlBytes: r.sdlBytes, jsonBytes: r.jsonBytes, maxRssMB: r.rssMB };
    console.log(`${variant.padEnd(22)} ${r.types} types, ${r.endpoints} operations: cold ${round(cold)} ms, warm ${round(warm)} ms (budget ${BUDGET_MS} ms), max RSS ${r.rssMB} MB`);
  }
  writeResult('graphql-import', { budgetMs: BUDGET_MS, calls, ...figures });
  if (over) {
    console.error(`Over budget: an import took more than ${BUDGET_MS} ms.`);
    process.exitCode = 1;
  }
}

main();
