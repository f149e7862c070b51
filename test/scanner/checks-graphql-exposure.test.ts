// The GraphQL exposure checks (issue 20) on the GraphQL target: introspection (probed first at the scan's
// own GraphQL path), field suggestions when introspection is off, stack traces and debug extensions in
// errors[], and mutations executed from requests a browser sends cross-site (GET, text/plain, form
// posts). Each finds its flaw and stays silent on the hardened twin.

import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { importApiDocument } from '../../electron/importer/index';
import { graphqlDebugErrors, graphqlDebugLeak } from '../../electron/scanner/checks/api8-misconfiguration/graphql-debug-errors';
import { graphqlFieldSuggestions, misspell, misspelledDocument, suggestedNames } from '../../electron/scanner/checks/api8-misconfiguration/graphql-field-suggestions';
import { graphqlGetMutation } from '../../electron/scanner/checks/api8-misconfiguration/graphql-get-mutation';
import { graphqlIntrospection } from '../../electron/scanner/checks/api9-inventory/debug-endpoints';
import type { Check } from '../../electron/scanner/checks/types';
import { scanGraphqlChecks } from '../helpers/graphql-check-scan';
import { graphqlTargets } from '../helpers/graphql-check-tests';
// test/targets/graphql.ts (the REST target's small GraphQL route) shadows the folder: name its index.
import type { GraphqlFlawId } from '../targets/graphql/index';

const CHECKS: Check[] = [graphqlIntrospection, graphqlFieldSuggestions, graphqlDebugErrors, graphqlGetMutation];
// Query.books is left out: the suggestions for a misspelled "book" name it, a name the scan did not import.
const OPS = ['Query.book', 'Query.searchBooks', 'Mutation.addReview'];

const target = graphqlTargets();

async function scan(mode: 'vulnerable' | 'hardened', flaws: Partial<Record<GraphqlFlawId, boolean>> = {}) {
  const t = await target(mode, flaws);
  const s = await scanGraphqlChecks(t, CHECKS, { only: OPS });
  expect(s.outcome.status).toBe('completed');
  for (const c of CHECKS) expect(s.sent(c)).toBeLessThanOrEqual(c.budget);
  return { t, s };
}

describe('GraphQL exposure checks', () => {
  it('find introspection, debug errors and CSRF-able mutations on the vulnerable target, and suggestions for information', async () => {
    const { t, s } = await scan('vulnerable');

    const [intro, ...moreIntro] = s.of(graphqlIntrospection);
    expect(moreIntro).toEqual([]);
    expect(intro).toMatchObject({ method: 'POST', path: '/graphql', parameter: 'introspection', severity: 'low', confidence: 'high' });
    expect(intro!.description).toMatch(/answers introspection queries without credentials: it listed \d+ types \(.*Book/);
    expect(intro!.graphql?.query).toContain('__schema');
    expect(intro!.curl).toMatch(/^curl -i -X POST .*\/graphql/);
    // The scan's own GraphQL path is asked first, by POST: no guessed path was needed.
    expect(t.requests.count({ pathPrefix: '/api/' })).toBe(0);

    // Introspection answers: the schema is public, so the suggestions are information only (they would outlive introspection turned off).
    const [suggestions, ...moreSuggestions] = s.of(graphqlFieldSuggestions);
    expect(moreSuggestions).toEqual([]);
    expect(suggestions).toMatchObject({ method: 'POST', path: '/graphql', parameter: 'field-suggestions', severity: 'info' });
    expect(suggestions!.description).toMatch(/answers introspection and answers misspelled names with suggestions/);
    expect(suggestions!.description).toMatch(/turning introspection off, the usual fix, would not hide it/);

    const [debug, ...moreDebug] = s.of(graphqlDebugErrors);
    expect(moreDebug).toEqual([]);
    expect(debug).toMatchObject({ method: 'POST', path: '/graphql', parameter: 'debug-errors', severity: 'medium', confidence: 'high' });
    expect(debug!.description).toMatch(/stack trace/);
    expect(debug!.description).toMatch(/errors\[0\]\.extensions\.exception\.stacktrace/);
    expect(debug!.evidence).toMatch(/"stacktrace"/);
    expect(debug!.curl).toMatch(/^curl -i -X POST .*\/graphql/);

    const [csrf, ...moreCsrf] = s.of(graphqlGetMutation);
    expect(moreCsrf).toEqual([]);
    expect(csrf).toMatchObject({ method: 'POST', path: '/graphql', parameter: 'csrf', vulnerability_name: 'GraphQL mutations accepted over GET (CSRF)', cwe: 'CWE-352' });
    // Bearer tokens: a forged request carries no credentials, so it scores lower than with cookies.
    expect(csrf!.severity).toBe('low');
    expect(csrf!.description).toMatch(/over GET .*text\/plain POST.*form POST/);
    expect(csrf!.description).toContain('data.__typename "Mutation"');
    expect(csrf!.graphql?.query).toBe('mutation PortcullisCsrfProbe { __typename }');
    expect(csrf!.curl).toMatch(/^curl -i .*\/graphql\?query=mutation/);
    expect(csrf!.curl).not.toMatch(/-X POST/);
  }, 30_000);

  it('find field suggestions when introspection is off', async () => {
    const { s } = await scan('hardened', { 'field-suggestions': true });
    expect(s.of(graphqlIntrospection)).toEqual([]);
    const [f, ...more] = s.of(graphqlFieldSuggestions);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ method: 'POST', path: '/graphql', parameter: 'field-suggestions', severity: 'low', confidence: 'high', cwe: 'CWE-200' });
    expect(f!.description).toMatch(/refuses introspection \("GraphQL introspection has been disabled/);
    expect(f!.description).toContain('Query.book');
    // Names the operations' own misspellings brought back, and ones the scan did not import (other root fields).
    expect(f!.description).toMatch(/naming \d+ schema names \(.*\bbook\b.*\bbookId\b/);
    expect(f!.description).toMatch(/\d+ of them not among the imported operations \(books\)/);
    expect(f!.evidence).toMatch(/Mutation\.addReview: misspelled addReview -> /);
    expect(f!.evidence).toMatch(/Did you mean/);
    expect(f!.graphql?.query).toMatch(/^query PortcullisSuggestions \{/);
    expect(f!.curl).toMatch(/^curl -i -X POST .*\/graphql/);
    for (const c of [graphqlDebugErrors, graphqlGetMutation]) expect(s.of(c)).toEqual([]);
  }, 30_000);

  it('find debug errors alone (stack traces in extensions.exception)', async () => {
    const { s } = await scan('hardened', { 'debug-errors': true });
    const [f] = s.of(graphqlDebugErrors);
    expect(f).toMatchObject({ parameter: 'debug-errors', path: '/graphql' });
    expect(f!.description).toMatch(/Node\.js \/ JavaScript stack trace|stack trace/);
    for (const c of [graphqlIntrospection, graphqlFieldSuggestions, graphqlGetMutation]) expect(s.of(c)).toEqual([]);
  }, 30_000);

  it('find stack traces that only errors raised inside resolvers carry (valid-typed values the resolver does not expect)', async () => {
    const t = await target('hardened', { 'resolver-error-traces': true });
    const s = await scanGraphqlChecks(t, [graphqlDebugErrors], { only: ['Query.book', 'Query.loan'] });
    expect(s.outcome.status).toBe('completed');
    expect(s.sent(graphqlDebugErrors)).toBeLessThanOrEqual(graphqlDebugErrors.budget);
    const [f, ...more] = s.of(graphqlDebugErrors);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ parameter: 'debug-errors', path: '/graphql', severity: 'medium' });
    expect(f!.description).toMatch(/stack trace/);
    expect(f!.description).toMatch(/extensions\.exception\.stack/);
    expect(f!.description).toMatch(/unexpected values of the right type|empty and 4,100-character text/);
    // Wrong-type variables fail in coercion, where this server adds no stack: those probes alone found nothing.
    expect(f!.description).toMatch(/for Query\.loan\. For unexpected values of the right type/);
    expect(f!.evidence).toMatch(/"stack"/);

    // The hardened twin answers the same probes with its message and code only.
    const h = await scanGraphqlChecks(await target('hardened'), [graphqlDebugErrors], { only: ['Query.book', 'Query.loan'] });
    expect(h.of(graphqlDebugErrors)).toEqual([]);
    expect(h.sent(graphqlDebugErrors)).toBeGreaterThan(3);
  }, 30_000);

  it('stay silent on the hardened twin', async () => {
    const { t, s } = await scan('hardened');
    for (const c of CHECKS) expect(s.of(c), c.id).toEqual([]);
    // The probes did reach the server: masked errors, refused introspection, refused GET mutations.
    expect(t.requests.count({ pathPrefix: '/graphql' })).toBeGreaterThan(5);
  }, 30_000);
});

describe('what the exposure checks read and send', () => {
  it('read stack traces and debug details of the usual GraphQL servers from errors[] and extensions only', () => {
    const leak = (json: unknown) => graphqlDebugLeak(json);
    // Apollo Server 4 (includeStacktraceInErrorResponses).
    expect(leak({ errors: [{ message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['Error: boom', '    at Query.x (/app/src/resolvers.ts:12:11)', '    at next (/app/node_modules/x.js:3:4)'] } }] }))
      .toMatchObject({ what: 'stack trace', where: 'errors[0].extensions.stacktrace' });
    // graphql-php / Lighthouse in debug mode.
    expect(leak({ errors: [{ message: 'Internal server error', extensions: { debugMessage: 'Division by zero', file: '/var/www/app/Resolver.php', line: 42, trace: [{ file: '/var/www/app/x.php', line: 10, call: 'f()' }] } }] }))
      .toMatchObject({ what: 'stack trace', where: 'errors[0].extensions.trace' });
    // Hot Chocolate with IncludeExceptionDetails.
    expect(leak({ errors: [{ message: 'Unexpected Execution Error', extensions: { message: 'Object reference not set', stackTrace: '   at Api.Query.GetBook(Int32 id) in C:\\src\\Api\\Query.cs:line 21' } }] }))
      .toMatchObject({ what: 'stack trace' });
    // A database message handed to the client.
    expect(leak({ errors: [{ message: 'SQLITE_ERROR: near "x": syntax error' }], data: null })).toMatchObject({ what: 'SQLite error', where: 'errors[0].message' });
    // A source path with a line number in an error member.
    expect(leak({ errors: [{ message: 'failed', extensions: { origin: 'at /srv/api/lib/db.js:88' } }] })).toMatchObject({ what: 'source file path with line number' });
    // Masked errors, validation errors, trace ids, performance extensions and data say nothing.
    expect(leak({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }], data: null })).toBeNull();
    expect(leak({ errors: [{ message: 'Cannot query field "x" on type "Query".', locations: [{ line: 1, column: 3 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] })).toBeNull();
    expect(leak({ errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND', traceId: '4bf92f3577b34da6', trace: '4bf92f3577b34da6a3ce929d0e0e4736' } }] })).toBeNull();
    expect(leak({ errors: [{ message: 'Forbidden', extensions: { exception: { code: 'FORBIDDEN' } } }] })).toBeNull();
    expect(leak({ data: { paste: { content: '    at foo (/a/b.js:1:2)\n    at bar (/a/b.js:2:3)' } }, extensions: { tracing: { version: 1, execution: { resolvers: [{ path: ['paste'] }] } } } })).toBeNull();
  });

  it('misspell names close enough for a suggestion and read the names suggested', () => {
    expect(['loan', 'id', 'book', 'x'].map(misspell)).toEqual(['laon', 'di', 'bok', 'xx']);
    const names = suggestedNames([
      'Cannot query field "bok" on type "Query". Did you mean "book" or "books"?',
      "Unknown argument 'di' on field 'Query.book'. Did you mean 'id'?",
      'Cannot query field "x" on type "Query".',
    ]);
    expect([...names.keys()]).toEqual(['book', 'books', 'id']);
  });

  it('misspell a mutation in a document that fails validation whatever the schema, so it never executes', () => {
    const sdl = 'type Query { a: Int }\ntype Mutation { deleteUsers(ids: [ID!]): Int\n deleteUser: Int }';
    const endpoints = importApiDocument(new TextEncoder().encode(sdl), { filename: 'x.graphql' }).endpoints.map((e, i) => ({ ...e, id: `e${i}` }));
    const mutation = endpoints.find((e) => e.graphql?.field === 'deleteUsers')!;
    const doc = misspelledDocument(mutation, new Set())!;
    expect(doc.document).toMatch(/^mutation PortcullisSuggestions \{ .*__portcullisNoSuchField \}$/);
    expect(validate(buildSchema(sdl), parse(doc.document)).length).toBeGreaterThan(0);
  });
});
