// API8:2023 Security Misconfiguration: GraphQL errors with debug details (issue 20). A server in
// development mode puts the exception into errors[]: extensions.exception.stacktrace (Apollo 2/3),
// extensions.stacktrace (Apollo 4), debugMessage and trace (graphql-php), a stack or the driver's
// message. Read from errors[] and extensions only (never from data, which may hold any text), with
// the stack-trace and database signatures of api8-verbose-errors. A masked error ("Internal server
// error" with a code) is what it should be and says nothing.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { mutate } from '../../requests';
import { defineCheck, forEachLimit } from '../common/helpers';
import { argumentsOf, graphqlAnswer, graphqlEndpoints, namedType, operationDocument, operationName, operationOf, selectsSubfields, sendGraphql } from '../common/graphql';
import { inputKind, mayInject } from '../common/graphql-inputs';
import { AS_KEY1 } from '../common/input-points';
import { OWASP_API8, OWASP_GRAPHQL_CHEAT_SHEET } from '../common/references';
import type { CheckContext, FindingDraft } from '../types';
import { errorSignature, signatureIn } from './verbose-errors';

/** Operations probed per GraphQL endpoint, and how many must show the leak before the check stops there. */
const OPERATIONS = 8;
const ENOUGH = 3;
const PATHS = 2;

export interface DebugLeak {
  /** "stack trace", "Node.js / JavaScript stack trace", "SQLite error", "source file path with line number"... */
  what: string;
  /** Where in the answer: "errors[0].extensions.exception.stacktrace". */
  where: string;
  excerpt: string;
}

const STACK_KEY = /^(stack|stacktrace|stack_trace|stackTrace|backtrace|traceback|stack_info)$/i;
const EXCEPTION_KEY = /^(exception|originalError|innerException|debug|debugInfo|exceptionDetails|internal|cause)$/i;
/** Keys an exception object carries in masked errors too: a code says nothing of the internals. */
const HARMLESS_KEYS = /^(code|status|statusCode|type|classification|errorType|http)$/i;
/** Extensions of the answer (not of an error) that are about performance, not debugging. */
const PERF_EXTENSIONS = /^(tracing|cacheControl|cost|complexity|queryCost|rateLimit|persistedQuery)$/i;
/** An absolute source path with a line number: /srv/app/resolvers.js:42, C:\app\Query.cs:line 12, "x.py", line 3. */
const FILE_LINE = /(?:[A-Za-z]:\\|\/)(?:[\w.@+-]+[\\/])+[\w.@+-]+\.(?:js|mjs|cjs|ts|jsx|tsx|py|rb|php|java|kt|scala|go|cs|ex|exs|rs|clj)(?::\d+|\(\d+\)|", line \d+|:line \d+| line \d+)/;

const RANK = (what: string) => (/stack|traceback|panic/i.test(what) ? 0 : /error$/i.test(what) ? 1 : /path/i.test(what) ? 2 : 3);

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function strings(v: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 6 || out.length > 200) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, depth + 1, out);
  else if (isRecord(v)) for (const x of Object.values(v)) strings(x, depth + 1, out);
  return out;
}

function nonEmpty(v: unknown): boolean {
  if (typeof v === 'string') return v.trim().length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return isRecord(v) && Object.keys(v).length > 0;
}

function excerptOf(v: unknown): string {
  const lines = strings(v).join('\n').split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.length ? lines.slice(0, 3).join(' | ') : JSON.stringify(v)).slice(0, 240);
}

/** The debug details in one part of an answer (an error object without its message, or extensions), most telling first. */
function leaksIn(value: unknown, where: string, out: DebugLeak[], depth = 0): void {
  if (depth > 6) return;
  if (typeof value === 'string') {
    const sig = signatureIn([value]);
    if (sig) out.push({ what: sig.what, where, excerpt: sig.excerpt });
    const file = FILE_LINE.exec(value);
    if (file) out.push({ what: 'source file path with line number', where, excerpt: file[0] });
    return;
  }
  if (Array.isArray(value)) {
    // A stack as an array of lines: read it as one text so frame signatures see several frames.
    if (value.every((x) => typeof x === 'string')) leaksIn(value.join('\n'), where, out, depth + 1);
    else value.slice(0, 50).forEach((x, i) => leaksIn(x, `${where}[${i}]`, out, depth + 1));
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const at = `${where}.${key}`;
    if (STACK_KEY.test(key) && nonEmpty(v)) out.push({ what: 'stack trace', where: at, excerpt: excerptOf(v) });
    else if (key === 'trace' && nonEmpty(v) && (signatureIn(strings(v)) || strings(v).some((s) => FILE_LINE.test(s)) || (Array.isArray(v) && v.some((f) => isRecord(f) && 'line' in f && 'file' in f))))
      out.push({ what: 'stack trace', where: at, excerpt: excerptOf(v) });
    else if (key === 'debugMessage' && nonEmpty(v)) out.push({ what: 'internal error message (debugMessage)', where: at, excerpt: excerptOf(v) });
    else if (EXCEPTION_KEY.test(key) && isRecord(v) && Object.keys(v).some((k) => !HARMLESS_KEYS.test(k))) {
      const before = out.length;
      leaksIn(v, at, out, depth + 1);
      if (out.length === before) out.push({ what: 'exception details', where: at, excerpt: JSON.stringify(v).slice(0, 240) });
      continue;
    }
    leaksIn(v, at, out, depth + 1);
  }
}

/**
 * The debug details a GraphQL answer gives away in errors[] (message, extensions, any other member) or
 * its debugging extensions; null for masked errors and for answers without errors.
 */
export function graphqlDebugLeak(json: unknown): DebugLeak | null {
  if (!isRecord(json)) return null;
  const out: DebugLeak[] = [];
  const errors = Array.isArray(json.errors) ? json.errors : [];
  errors.slice(0, 20).forEach((e, i) => {
    if (!isRecord(e)) return;
    const { message, locations: _locations, path: _path, ...rest } = e;
    if (typeof message === 'string') leaksIn(message, `errors[${i}].message`, out);
    leaksIn(rest, `errors[${i}]`, out);
  });
  if (isRecord(json.extensions)) {
    const debugging = Object.fromEntries(Object.entries(json.extensions).filter(([k]) => !PERF_EXTENSIONS.test(k)));
    leaksIn(debugging, 'extensions', out);
  }
  if (!out.length) return null;
  return [...out].sort((a, b) => RANK(a.what) - RANK(b.what))[0]!;
}

/** The leak in an exchange: a GraphQL answer's debug details, or (for a probe answered outside GraphQL) a stack trace or debug page anywhere in it. */
function leakOf(ex: Exchange, probe: boolean): DebugLeak | null {
  if (!ex.response) return null;
  if (graphqlAnswer(ex)) return graphqlDebugLeak(ex.json());
  if (!probe) return null;
  const sig = errorSignature(ex);
  return sig ? { what: sig.what, where: 'body', excerpt: sig.excerpt } : null;
}

// ---------------------------------------------------------------- probes

const WRONG_TEXT = { portcullis: [1, 2] };

/**
 * A value every GraphQL server rejects for the argument while coercing variables (before any resolver
 * runs), or undefined for a custom scalar, which may take anything.
 */
function wrongValue(endpoint: Endpoint, name: string): unknown {
  const op = operationOf(endpoint);
  const param = argumentsOf(endpoint).find((p) => p.name === name);
  const typeRef = op.variable_types[name] ?? '';
  const named = namedType(typeRef);
  if (named === 'Int' || named === 'Float' || named === 'Boolean') return 'portcullis';
  if (named === 'String' || named === 'ID') return WRONG_TEXT;
  const schema = param?.schema;
  const inner = typeRef.trim().startsWith('[') && isRecord(schema?.items) ? (schema!.items as Record<string, unknown>) : (schema as Record<string, unknown> | undefined);
  if (Array.isArray(inner?.enum)) return 'PORTCULLIS_NOT_A_VALUE';
  if (isRecord(inner?.properties) || inner?.['x-circular'] !== undefined) return 'portcullis';
  return inputKind(typeRef, schema) === 'custom' ? undefined : 'portcullis';
}

interface Probe {
  label: string;
  send(): Promise<Exchange | null>;
}

/** Text with quote characters: it breaks SQL, shell, JSON or template text that a resolver builds from it, and is no id. */
export const QUOTED_TEXT = 'portcullis\'"\\';

/**
 * Values of the right type that a resolver does not expect, so that it raises (many servers, Graphene for one,
 * add their stack traces only to errors raised inside resolvers, never to those of variable coercion): every
 * String or ID variable gets quote characters (an unknown id too), every Int or Float -1. Empty and very long
 * text go second, for resolvers that check a length or parse the text. Null when the operation takes none.
 */
export function unexpectedValues(types: Record<string, string>, kind: 'quoted' | 'sizes'): Record<string, unknown>[] | null {
  const text = Object.keys(types).filter((n) => ['String', 'ID'].includes(namedType(types[n]!)));
  const numbers = Object.keys(types).filter((n) => ['Int', 'Float'].includes(namedType(types[n]!)));
  const list = (n: string, v: unknown) => (types[n]!.trim().startsWith('[') ? [v] : v);
  if (kind === 'quoted') {
    if (!text.length && !numbers.length) return null;
    return [Object.fromEntries([...text.map((n) => [n, list(n, QUOTED_TEXT)]), ...numbers.map((n) => [n, list(n, -1)])])];
  }
  if (!text.length) return null;
  return [Object.fromEntries(text.map((n) => [n, list(n, '')])), Object.fromEntries(text.map((n) => [n, list(n, 'portcullis'.repeat(410))]))];
}

/** Wrong variable types (every operation; a mutation only with values that surely fail coercion) and out-of-range numbers (queries). */
async function probesFor(ctx: CheckContext, endpoint: Endpoint): Promise<Probe[]> {
  const op = operationOf(endpoint);
  const names = Object.keys(op.variable_types);
  if (!names.length) return [];
  const out: Probe[] = [];
  const wrong: Record<string, unknown> = {};
  for (const name of names) {
    const v = wrongValue(endpoint, name);
    if (v !== undefined) wrong[name] = v;
    else if (op.kind === 'query') wrong[name] = WRONG_TEXT;
  }
  // A mutation gets only values that surely fail coercion (the others left out): nothing executes.
  if (Object.keys(wrong).length) {
    out.push({
      label: `variables of the wrong type (${Object.keys(wrong).map((n) => `$${n}`).join(', ')})`,
      send: () => sendGraphql(ctx, endpoint, { query: op.document, variables: wrong }, { auth: AS_KEY1 }),
    });
  }
  const numeric = names.filter((n) => ['Int', 'Float'].includes(namedType(op.variable_types[n]!)) && !op.variable_types[n]!.trim().startsWith('['));
  if (op.kind === 'query' && numeric.length) {
    out.push({
      label: `out-of-range numbers (${numeric.map((n) => `$${n}`).join(', ')} = -2147483648)`,
      send: async () => {
        const request = await ctx.baselineRequest(endpoint);
        const body = request && isRecord(request.bodyValue) ? request.bodyValue : null;
        if (!request || !body) return null;
        const variables = { ...(isRecord(body.variables) ? body.variables : {}) };
        for (const n of numeric) variables[n] = -2147483648;
        // Only the errors are read: __typename is selection enough, and a limit of -2147483648 may mean "no limit"
        // (SQLite), which with the nested lists of the imported selection holds the server for minutes.
        const query = selectsSubfields(op) ? operationDocument(op, { selection: '{ __typename }' }) : body.query;
        return ctx.sendPrepared(mutate(request, { bodyValue: { ...body, query, variables } }), AS_KEY1);
      },
    });
  }
  // Only queries run a resolver with odd values (reads, as the injection checks send them); a mutation would write.
  if (op.kind === 'query' && mayInject(ctx, endpoint)) {
    for (const [kind, label] of [['quoted', 'unexpected values of the right type (quote characters in text and ids, -1 for numbers)'], ['sizes', 'empty and 4,100-character text']] as const) {
      for (const values of unexpectedValues(op.variable_types, kind) ?? []) {
        out.push({
          label: kind === 'sizes' ? `${label} (${Object.values(values)[0] === '' ? 'empty' : 'long'})` : label,
          send: async () => {
            const request = await ctx.baselineRequest(endpoint);
            const body = request && isRecord(request.bodyValue) ? request.bodyValue : null;
            if (!request || !body) return null;
            const variables = { ...(isRecord(body.variables) ? body.variables : {}), ...values };
            // Only the errors are read: __typename is selection enough (and cheap on a list that the odd value widens).
            const query = selectsSubfields(op) ? operationDocument(op, { selection: '{ __typename }' }) : body.query;
            return ctx.sendPrepared(mutate(request, { bodyValue: { ...body, query, variables } }), AS_KEY1);
          },
        });
      }
    }
  }
  return out;
}

const BASELINE = 'key 1\'s request';

interface Seen {
  endpoint: Endpoint | null;
  label: string;
  exchange: Exchange;
  leak: DebugLeak;
}

export const graphqlDebugErrors = defineCheck({
  id: 'api8-graphql-debug-errors',
  title: 'GraphQL errors with stack traces or debug details',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-209',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  protocols: ['graphql'],
  budget: PATHS * (1 + 5 * OPERATIONS),
  description:
    'Reads key 1\'s answers to the queries of the scan, then provokes errors harmlessly: a syntax error per GraphQL endpoint, and for up ' +
    `to ${OPERATIONS} operations (stopping at the first probe that shows a leak) variables of the wrong type (rejected while coercing, before any resolver runs: a mutation is sent only ` +
    'so) and, for queries, out-of-range numbers (-2147483648), then values of the right type that a resolver does not expect, so that ' +
    'the error is raised inside it (where many servers, Graphene for one, add their stack traces): quote characters in every String and ' +
    'ID argument (an unknown id too) with -1 for numbers, then empty text, then 4,100-character text (queries only; mutations never run ' +
    'with odd values). Finding when errors[] (message, extensions or any other member) or the ' +
    'answer\'s extensions carry a stack trace (extensions.exception.stacktrace, extensions.stacktrace, stack, trace), a debugMessage, ' +
    'an exception object with internals, a source path with a line number, or a database or framework error text (the signatures of ' +
    'api8-verbose-errors). One finding per GraphQL endpoint, listing the operations.',
  coverage:
    'Masked errors ("Internal server error" with a code) are silent, as they should be. Only errors[] and extensions are read, never data. ' +
    'Errors that only a particular state or input provokes (a constraint hit by a real write) are seen only where the scan\'s own answers ' +
    'met them; mutations are never executed with odd values.',
  techniques: ['API8.graphql-debug-errors'],
  remediation:
    'Run the GraphQL server in production mode and mask unexpected errors: Apollo Server includeStacktraceInErrorResponses: false (or ' +
    'NODE_ENV=production) and a formatError that returns only message and code; graphql-php without DEBUG_* flags; Hot Chocolate ' +
    'IncludeExceptionDetails = false. Log the details server-side with a correlation id.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/209.html', OWASP_GRAPHQL_CHEAT_SHEET, 'https://www.apollographql.com/docs/apollo-server/data/errors#omitting-or-including-stacktrace'],
  async *run(ctx) {
    const byPath = new Map<string, Endpoint[]>();
    for (const e of graphqlEndpoints(ctx.endpoints)) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
    for (const [path, ops] of [...byPath].slice(0, PATHS)) {
      const seen: Seen[] = [];
      // Passive: key 1's answers to the queries (baselines are shared with the other checks and cost nothing here).
      await forEachLimit(ops.filter((e) => operationOf(e).kind === 'query'), ctx.parallelism, async (endpoint) => {
        const ex = await ctx.baseline('key1', endpoint);
        const leak = ex ? leakOf(ex, false) : null;
        if (ex && leak) seen.push({ endpoint, label: BASELINE, exchange: ex, leak });
      });
      if (ctx.budgetLeft() > 0) {
        const ex = await sendGraphql(ctx, ops[0]!, { query: 'query PortcullisSyntaxError { __typename ' }, { auth: AS_KEY1, path });
        const leak = leakOf(ex, true);
        if (leak) seen.push({ endpoint: null, label: 'a syntax error (an unclosed selection set)', exchange: ex, leak });
      }
      for (const endpoint of ops.slice(0, OPERATIONS)) {
        if (new Set(seen.map((s) => s.endpoint?.id)).size >= ENOUGH) break;
        if (seen.some((s) => s.endpoint === endpoint)) continue;
        for (const probe of await probesFor(ctx, endpoint)) {
          if (ctx.budgetLeft() <= 0) break;
          const ex = await probe.send();
          const leak = ex ? leakOf(ex, true) : null;
          if (!ex || !leak) continue;
          seen.push({ endpoint, label: probe.label, exchange: ex, leak });
          break;
        }
      }
      if (seen.length) yield debugFinding(path, seen);
    }
  },
});

function debugFinding(path: string, seen: Seen[]): FindingDraft {
  const ordered = [...seen].sort((a, b) => RANK(a.leak.what) - RANK(b.leak.what));
  const kinds = [...new Set(ordered.map((s) => s.leak.what))];
  const where = (s: Seen) => (s.endpoint ? operationName(s.endpoint) : path);
  const places = [...new Set(ordered.map(where))];
  const best = ordered[0]!;
  return {
    endpoint: null,
    method: 'POST',
    path,
    parameter: 'debug-errors',
    confidence: ordered.length >= 2 || RANK(best.leak.what) <= 1 ? 'high' : 'medium',
    description:
      `GraphQL errors of ${path} carry debug details (${kinds.join('; ')}) in ${best.leak.where}, for ${places.join(', ')}. ` +
      `For ${best.label}${best.endpoint ? ` on ${operationName(best.endpoint)}` : ''}, the answer held: ${best.leak.excerpt}. Stack traces, ` +
      'file paths and internal messages show the code, its libraries and the database behind the schema to anyone who sends a malformed query.',
    notes: ordered.map((s) => `${where(s)}: ${s.label} -> HTTP ${s.exchange.status}, ${s.leak.what} in ${s.leak.where}: ${s.leak.excerpt.slice(0, 160)}`),
    exchanges: ordered.slice(0, 2).map((s) => ({ label: `${s.label === BASELINE ? 'Response' : 'Attack'}: ${s.label}${s.endpoint ? ` (${operationName(s.endpoint)})` : ''}`, exchange: s.exchange })),
    reproduce: best.exchange,
  };
}
