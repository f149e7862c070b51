// Bounds a GraphQL schema's size before graphql-js reads or builds it. Its parser allocates every
// token and node before its own token limit refuses a file (a schema over the limit cost 1.5-1.9 GB),
// and it merges a type's extensions in time quadratic in their number (100,000 `extend type` lines
// stalled the server for 48 s). The text is counted first, without allocating; the parsed document
// and introspection results are counted before a schema is built from them.

import { Kind, type DocumentNode, type IntrospectionQuery } from 'graphql';
import { ImportError } from './errors';
import { IMPORT_LIMITS } from './limits';

export interface SdlCounts {
  /** Lexical tokens as graphql-js counts them (punctuation, names, numbers, strings). */
  tokens: number;
  /** `extend` keywords outside braces, parentheses and brackets: one per extension. */
  extensions: number;
}

const isNameStart = (c: number) => c === 0x5f || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const isNameChar = (c: number) => isNameStart(c) || (c >= 0x30 && c <= 0x39);
const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/**
 * Counts an SDL text's tokens and extensions in one pass over its characters, allocating nothing,
 * and stops once the token limit is passed. Close to graphql-js's own count (comments and commas
 * are not tokens, a string or block string is one), which still enforces the exact limit.
 */
export function countSdl(text: string, stopAfter: number = IMPORT_LIMITS.maxGraphqlTokens): SdlCounts {
  let tokens = 0;
  let extensions = 0;
  let depth = 0;
  let i = 0;
  const n = text.length;
  while (i < n && tokens <= stopAfter) {
    const c = text.charCodeAt(i);
    // Whitespace, line ends, commas and the byte order mark are not tokens.
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2c || c === 0xfeff) {
      i += 1;
      continue;
    }
    tokens += 1;
    if (c === 0x23 /* # */) {
      tokens -= 1;
      const end = text.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
    } else if (c === 0x22 /* " */) {
      if (text.startsWith('"""', i)) {
        let end = text.indexOf('"""', i + 3);
        while (end !== -1 && text.charCodeAt(end - 1) === 0x5c /* \ */) end = text.indexOf('"""', end + 3);
        i = end === -1 ? n : end + 3;
      } else {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === 0x5c) j += 2;
          else if (d === 0x22 || d === 0x0a || d === 0x0d) break;
          else j += 1;
        }
        i = j + 1;
      }
    } else if (isNameStart(c)) {
      let j = i + 1;
      while (j < n && isNameChar(text.charCodeAt(j))) j += 1;
      if (depth === 0 && j - i === 6 && text.startsWith('extend', i)) extensions += 1;
      i = j;
    } else if (c === 0x2e /* . */) {
      while (i < n && text.charCodeAt(i) === 0x2e) i += 1;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      while (j < n && isNumberChar(text.charCodeAt(j))) j += 1;
      i = j;
    } else {
      if (c === 0x7b || c === 0x28 || c === 0x5b) depth += 1;
      else if ((c === 0x7d || c === 0x29 || c === 0x5d) && depth > 0) depth -= 1;
      i += 1;
    }
  }
  return { tokens, extensions };
}

const count = (n: number) => n.toLocaleString('en-US');

function refuseExtensions(found: number): never {
  throw new ImportError(
    `The GraphQL schema has ${count(found)} extensions (extend type ...); at most ${count(IMPORT_LIMITS.maxGraphqlExtensions)} are read. Merge the extensions into their types and import it again.`,
  );
}

/** Refuses an SDL text with more tokens or extensions than a schema is read with, before parsing it. */
export function guardSdlText(text: string): void {
  const counted = countSdl(text);
  if (counted.tokens > IMPORT_LIMITS.maxGraphqlTokens)
    throw new ImportError(
      `The GraphQL schema is too large: it has more than ${count(IMPORT_LIMITS.maxGraphqlTokens)} tokens (names, punctuation and strings). Import the part of the schema you want to scan.`,
    );
  if (counted.extensions > IMPORT_LIMITS.maxGraphqlExtensions) refuseExtensions(counted.extensions);
}

function tooManyDefinitions(found: number, what: string): ImportError {
  return new ImportError(`The GraphQL schema has ${count(found)} ${what}; at most ${count(IMPORT_LIMITS.maxGraphqlDefinitions)} are read. Import the part of the schema you want to scan.`);
}

function tooManyMembers(found: number, where = ''): ImportError {
  return new ImportError(
    `The GraphQL schema has more than ${count(IMPORT_LIMITS.maxGraphqlMembers)} fields, arguments and enum values (${count(found)} counted so far); import the part of the schema you want to scan.`,
    where,
  );
}

/** Counts a parsed SDL document's definitions, extensions and members before a schema is built. */
export function guardSdlDocument(doc: DocumentNode): void {
  const definitions = doc.definitions.length;
  if (definitions > IMPORT_LIMITS.maxGraphqlDefinitions) throw tooManyDefinitions(definitions, 'definitions');
  let extensions = 0;
  let members = 0;
  for (const d of doc.definitions) {
    if (d.kind.endsWith('Extension')) extensions += 1;
    const node = d as { fields?: readonly { arguments?: readonly unknown[] }[]; values?: readonly unknown[]; arguments?: readonly unknown[]; types?: readonly unknown[]; interfaces?: readonly unknown[] };
    members += (node.values?.length ?? 0) + (node.arguments?.length ?? 0) + (node.types?.length ?? 0) + (node.interfaces?.length ?? 0);
    for (const f of node.fields ?? []) members += 1 + (f.arguments?.length ?? 0);
    if (d.kind === Kind.SCHEMA_DEFINITION) members += d.operationTypes.length;
  }
  if (extensions > IMPORT_LIMITS.maxGraphqlExtensions) refuseExtensions(extensions);
  if (members > IMPORT_LIMITS.maxGraphqlMembers) throw tooManyMembers(members);
}

const lengthOf = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

/** Counts an introspection result's types and their members before graphql-js builds a schema of it. */
export function guardIntrospection(value: IntrospectionQuery, where: string): void {
  const types: unknown = (value as { __schema?: { types?: unknown } }).__schema?.types;
  if (!Array.isArray(types)) return; // graphql-js refuses it with its own message
  if (types.length > IMPORT_LIMITS.maxGraphqlDefinitions) throw tooManyDefinitions(types.length, 'types');
  let members = 0;
  for (const t of types as unknown[]) {
    if (!t || typeof t !== 'object') continue;
    const type = t as { fields?: unknown; inputFields?: unknown; enumValues?: unknown; possibleTypes?: unknown; interfaces?: unknown };
    members += lengthOf(type.inputFields) + lengthOf(type.enumValues) + lengthOf(type.possibleTypes) + lengthOf(type.interfaces);
    if (Array.isArray(type.fields)) for (const f of type.fields as unknown[]) members += 1 + lengthOf((f as { args?: unknown } | null)?.args);
    if (members > IMPORT_LIMITS.maxGraphqlMembers) throw tooManyMembers(members, `${where}/__schema/types`);
  }
  const directives: unknown = (value as { __schema?: { directives?: unknown } }).__schema?.directives;
  if (Array.isArray(directives) && directives.length > IMPORT_LIMITS.maxGraphqlDefinitions) throw tooManyDefinitions(directives.length, 'directives');
}
