import fs from 'node:fs';
import { Lexer, Source, TokenKind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { countSdl } from './graphql-bounds';
import { ImportError, importApiDocument } from './index';
import { IMPORT_LIMITS } from './limits';

const encode = (text: string) => new TextEncoder().encode(text);

function refusal(text: string, filename = 'schema.graphql'): { error: Error; ms: number } {
  const t = performance.now();
  try {
    importApiDocument(encode(text), { filename });
  } catch (err) {
    return { error: err as Error, ms: performance.now() - t };
  }
  throw new Error('imported');
}

function graphqlTokens(text: string): number {
  const lexer = new Lexer(new Source(text));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n += 1;
  return n;
}

const TRICKY = [
  '"""A block string with an escaped \\""" inside"""',
  'type Query { a(x: Int = -1.5e3, y: [String!] = ["a\\"b", "c"]): Int @d(r: "x") } # a comment: extend type X',
  'extend type Query { b: Int }',
  'extend schema @x',
  'directive @d(r: String) on FIELD_DEFINITION | OBJECT',
  'union U = A | B',
  'fragment F on T { ...G ... on X { a } }',
].join('\n');

describe('counting SDL before parsing it', () => {
  it('counts tokens as graphql-js does, and extensions outside braces', () => {
    for (const file of ['workspace.graphql', 'e2e-shop.graphql']) {
      const text = fs.readFileSync(new URL(`../../test/fixtures/graphql/${file}`, import.meta.url), 'utf8');
      expect(countSdl(text).tokens, file).toBe(graphqlTokens(text));
    }
    expect(countSdl(TRICKY)).toEqual({ tokens: graphqlTokens(TRICKY), extensions: 2 });
  });

  it('stops counting past the limit', () => {
    const text = `type Query { ${'a: Int '.repeat(1_000)} }`;
    expect(countSdl(text, 100).tokens).toBe(101);
  });
});

describe('GraphQL schemas past the import limits', () => {
  it('refuses a schema over the token limit before parsing it', () => {
    // 1.2 million tokens: graphql-js would have held all of them (and 5 million before its own limit).
    const fields = Array.from({ length: 400_000 }, (_, i) => `f${i.toString(36)}: Int`);
    const { error, ms } = refusal(`type Query {\n${fields.join('\n')}\n}`);
    expect(error).toBeInstanceOf(ImportError);
    expect(error.message).toBe(`The GraphQL schema is too large: it has more than ${IMPORT_LIMITS.maxGraphqlTokens.toLocaleString('en-US')} tokens (names, punctuation and strings). Import the part of the schema you want to scan.`);
    expect(ms).toBeLessThan(1_000);
  });

  it('refuses more extensions than the limit before building the schema', () => {
    const count = IMPORT_LIMITS.maxGraphqlExtensions + 500;
    const extensions = Array.from({ length: count }, (_, i) => `extend type Query { f${i}: Int }`);
    const { error, ms } = refusal(`type Query { a: Int }\n${extensions.join('\n')}`);
    expect(error.message).toBe(
      `The GraphQL schema has ${count.toLocaleString('en-US')} extensions (extend type ...); at most ${IMPORT_LIMITS.maxGraphqlExtensions.toLocaleString('en-US')} are read. Merge the extensions into their types and import it again.`,
    );
    expect(ms).toBeLessThan(1_000);
  });

  it('still imports a schema with a few extensions', () => {
    const r = importApiDocument(encode('type Query { a: Int }\nextend type Query { b: Int }\nextend type Query { c(x: Int): Int }'), { filename: 'small.graphql' });
    expect(r.endpoints.map((e) => e.graphql?.field)).toEqual(['a', 'b', 'c']);
  });

  it('refuses more definitions, or more fields, arguments and values, than the limits', () => {
    const scalars = Array.from({ length: IMPORT_LIMITS.maxGraphqlDefinitions + 1 }, (_, i) => `scalar S${i}`);
    expect(refusal(`type Query { a: Int }\n${scalars.join('\n')}`).error.message).toMatch(/^The GraphQL schema has 20,002 definitions; at most 20,000 are read\./);
    const values = Array.from({ length: IMPORT_LIMITS.maxGraphqlMembers + 1 }, (_, i) => `V${i}`);
    expect(refusal(`type Query { a(e: E): Int }\nenum E {\n${values.join('\n')}\n}`).error.message).toMatch(/^The GraphQL schema has more than 200,000 fields, arguments and enum values/);
  });

  it('refuses an introspection result with too many types or members before building it, saying where', () => {
    const query = { kind: 'OBJECT', name: 'Query', fields: [{ name: 'a', args: [], type: { kind: 'SCALAR', name: 'Int' } }], interfaces: [] };
    const manyTypes = [query, ...Array.from({ length: IMPORT_LIMITS.maxGraphqlDefinitions }, (_, i) => ({ kind: 'SCALAR', name: `S${i}` }))];
    const t = performance.now();
    const types = refusal(JSON.stringify({ data: { __schema: { queryType: { name: 'Query' }, types: manyTypes, directives: [] } } }), 'introspection.json');
    expect(types.error.message).toMatch(/^The GraphQL schema has 20,001 types; at most 20,000 are read\./);
    expect(performance.now() - t).toBeLessThan(2_000);
    const e = { kind: 'ENUM', name: 'E', enumValues: Array.from({ length: IMPORT_LIMITS.maxGraphqlMembers + 1 }, (_, i) => ({ name: `V${i}` })) };
    const members = refusal(JSON.stringify({ __schema: { queryType: { name: 'Query' }, types: [query, e], directives: [] } }), 'introspection.json');
    expect(members.error.message).toMatch(/^The GraphQL schema has more than 200,000 fields, arguments and enum values \([\d,]+ counted so far\); .* \(at \/__schema\/types\)\.$/);
  });
});
