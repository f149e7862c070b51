// API8:2023 Security Misconfiguration: verbose errors. Malformed bodies and wrong types that come
// back with stack traces, database errors or framework debug pages — recognised by their shape
// (frames with file and line, "Traceback (most recent call last)", a driver's error text), never by
// "any 500". The signatures are shared with the injection checks.

import type { Endpoint } from '../../../../shared/contract';
import type { Exchange } from '../../http/exchange';
import { mutate, type PreparedRequest } from '../../requests';
import { apiWideFinding, defineCheck, describeEndpoint, forEachLimit, type Hit } from '../common/helpers';
import { AS_KEY1, bodyText, editableBody, freshRequest, injectionPoints, type InjectionPoint } from '../common/input-points';
import type { CheckContext, FindingDraft } from '../types';
import { OWASP_API8 } from '../common/references';


// ---------------------------------------------------------------- signatures

interface Signature {
  /** What it reveals: "Node.js stack trace", "MySQL error". */
  what: string;
  find(text: string): string | null;
}

/** At least `n` lines matching `frame`: one "at x (file:1:2)" line can be prose, several are a trace. */
function frames(what: string, frame: RegExp, n = 2): Signature {
  const g = new RegExp(frame.source, frame.flags.includes('g') ? frame.flags : `${frame.flags}g`);
  return {
    what,
    find: (text) => {
      const all = text.match(g);
      return all && all.length >= n ? all.slice(0, 2).map((l) => l.trim()).join(' | ') : null;
    },
  };
}

function pattern(what: string, re: RegExp): Signature {
  return { what, find: (text) => re.exec(text)?.[0]?.slice(0, 200) ?? null };
}

export const STACK_SIGNATURES: Signature[] = [
  // V8 (Node.js, Deno): "    at fn (/srv/app.js:10:5)", "    at /srv/app.js:10:5", "    at JSON.parse (<anonymous>)".
  frames('Node.js / JavaScript stack trace', /^[ \t]*at (?:(?:async )?[\w$.<>[\]\s]+ \((?:[^()\n]*:\d+:\d+|<anonymous>|native)\)|(?:file:\/\/|\/|[A-Za-z]:\\|node:)[^\s()]*:\d+:\d+)[ \t]*$/m),
  // JVM: "\tat com.acme.Foo.bar(Foo.java:42)".
  frames('Java stack trace', /^[ \t]*at [\w$]+(?:\.[\w$<>]+)+\((?:[\w$]+\.(?:java|kt|scala|groovy|clj):\d+|Native Method|Unknown Source)\)[ \t]*$/m),
  pattern('Python traceback', /Traceback \(most recent call last\):\s*\n\s*File "[^"]+", line \d+/),
  frames('Python traceback', /^[ \t]*File "[^"\n]+\.py", line \d+, in [\w<>]+[ \t]*$/m),
  frames('.NET stack trace', /^[ \t]*at [\w.`<>[\], ]+\([^()\n]*\)(?: in [^\n]+:line \d+)?[ \t]*$/m, 3),
  pattern('.NET stack trace', /^[ \t]*at [\w.`<>[\]]+\([^()\n]*\) in [^\n]+:line \d+/m),
  pattern('PHP error', /(?:Fatal error|Parse error|Warning|Notice|Uncaught [\w\\]+)(?:<\/b>)?:? [^\n]{0,300}? in (?:<b>)?\/[^\s<]+\.php(?:<\/b>)?(?::\d+\b| on line (?:<b>)?\d+)/),
  frames('PHP stack trace', /^#\d+ (?:\/|[A-Za-z]:\\)[^\s(]+\.php\(\d+\): /m),
  frames('Ruby stack trace', /^[ \t]*(?:from )?[^\s:]+\.rb:\d+:in [`'][^'`\n]+'/m),
  pattern('Go panic', /goroutine \d+ \[running\]:|panic: [^\n]+\n\s*\ngoroutine /),
  frames('Go stack trace', /^\s+\/[^\s]+\.go:\d+ \+0x[0-9a-f]+$/m),
  pattern('Django debug page', /You(?:'|&#39;|’)re seeing this error because you have <code>DEBUG = True<\/code>|You're seeing this error because you have DEBUG = True/),
  pattern('Werkzeug debugger', /Werkzeug Debugger|The debugger caught an exception in your WSGI application/),
  pattern('Rails debug page', /Action Controller: Exception caught|<h1>\s*[\w:]+Error\s*(?:in [\w:#]+)?\s*<\/h1>[\s\S]{0,2000}Rails\.root/),
  pattern('Laravel debug page', /Whoops! There was an error\.|Illuminate\\[\w\\]+Exception|<title>[^<]*\| Laravel<\/title>/),
  pattern('ASP.NET error page', /Server Error in '[^']*' Application\.[\s\S]{0,4000}Stack Trace:/),
  pattern('Spring error with trace', /"trace"\s*:\s*"[^"]*(?:Exception|Error)[^"]*\\n\\tat /),
];

export const SQL_SIGNATURES: Signature[] = [
  pattern('MySQL / MariaDB error', /You have an error in your SQL syntax|check the manual that (?:corresponds|fits) to your (?:MySQL|MariaDB) server version|MySqlException|MySQLSyntaxErrorException|com\.mysql\.(?:cj\.)?jdbc|Warning: mysqli?_\w+\(|\bER_PARSE_ERROR\b|\bER_BAD_FIELD_ERROR\b|Unknown column '[^']+' in '(?:where|field list|order) clause'/i),
  pattern('PostgreSQL error', /unterminated quoted string at or near|syntax error at or near "|PSQLException|org\.postgresql\.|pg_query\(\)|PG::SyntaxError|invalid input syntax for (?:type )?(?:integer|uuid|numeric|bigint)|PostgreSQL query failed/i),
  pattern('SQLite error', /SQLITE_ERROR|sqlite3\.OperationalError|SQLiteException|SQLite3::SQLException|System\.Data\.SQLite|unrecognized token: "|near "[^"\n]{0,60}": syntax error/i),
  pattern('Microsoft SQL Server error', /Unclosed quotation mark after the character string|Microsoft OLE DB Provider for (?:SQL Server|ODBC Drivers)|\[Microsoft\]\[ODBC SQL Server Driver\]|System\.Data\.SqlClient\.SqlException|Incorrect syntax near '/i),
  pattern('Oracle error', /\bORA-(?:00933|00936|00921|01756|00907|01722|00904)\b|quoted string not properly terminated|oracle\.jdbc\./i),
  pattern('SQL error', /SQLSTATE\[\w+\]|SequelizeDatabaseError|QueryFailedError: |PrismaClientKnownRequestError|sqlalchemy\.exc\.\w+Error|java\.sql\.SQLSyntaxErrorException|org\.hibernate\.exception\.SQLGrammarException|DB2 SQL error|Syntax error in string in query expression/i),
];

/** The first signature found in any of the texts (GraphQL checks read errors[] and extensions with it). */
export function signatureIn(texts: readonly string[], sigs: readonly Signature[] = [...STACK_SIGNATURES, ...SQL_SIGNATURES]): { what: string; excerpt: string } | null {
  for (const sig of sigs) {
    for (const t of texts) {
      const hit = sig.find(t);
      if (hit) return { what: sig.what, excerpt: hit };
    }
  }
  return null;
}

/** The first signature found in the answer (text and raw body both looked at). */
export function findSignature(ex: Exchange, sigs: readonly Signature[]): { what: string; excerpt: string } | null {
  if (!ex.response) return null;
  return signatureIn([bodyText(ex), ex.body], sigs);
}

export const errorSignature = (ex: Exchange) => findSignature(ex, [...STACK_SIGNATURES, ...SQL_SIGNATURES]);
export const sqlSignature = (ex: Exchange) => findSignature(ex, SQL_SIGNATURES);

// ---------------------------------------------------------------- probes

/** A value of the wrong type for the point's declared (or apparent) type. */
function wrongType(p: InjectionPoint): unknown {
  switch (p.type) {
    case 'string':
      return { portcullis: [1, 2] };
    case 'integer':
    case 'number':
      return "portcullis'\"<>";
    case 'boolean':
      return 'portcullis';
    case 'array':
      return 'portcullis';
    case 'object':
      return 'portcullis';
    default:
      return { portcullis: [1, 2] };
  }
}

/**
 * A string identifier that breaks the lookup rather than the parser: the known value with its letters'
 * case swapped (case-normalising and case-sensitive lookups disagree), or, without letters, an unknown id
 * of another shape in capitals. Handlers that only expect "found" or "not found" fail on these.
 */
export function lookupBreaking(value: string): string {
  if (/[a-z]/.test(value)) return value.toUpperCase();
  if (/[A-Z]/.test(value)) return value.toLowerCase();
  return UNKNOWN_ID;
}
const UNKNOWN_ID = 'PORTCULLIS-UNKNOWN-ID';

interface ErrorProbe {
  label: string;
  request: PreparedRequest;
  /** A well-formed value that breaks the lookup: a trace here is the handler's own, reported at its endpoint. */
  lookup?: boolean;
}

/** Malformed JSON and wrong types for a body; wrong types in typed query/path parameters otherwise. */
function probesFor(ctx: CheckContext, endpoint: Endpoint, request: PreparedRequest): ErrorProbe[] {
  const out: ErrorProbe[] = [];
  if (request.body && /json/i.test(request.contentType ?? '')) {
    const body = request.body.trim();
    out.push({ label: 'malformed JSON body', request: mutate(request, { body: body.length > 2 ? `${body.slice(0, body.length - 1)},'` : '{"portcullis": ' }) });
  }
  const points = injectionPoints(ctx, endpoint, request, { optionalQuery: false });
  if (editableBody(request)) {
    const fields = points.filter((p) => p.where === 'body' && p.name.indexOf('.') < 0 && p.name.indexOf('[') < 0);
    if (fields.length) {
      let value = request.bodyValue as Record<string, unknown>;
      for (const f of fields) value = { ...value, [f.key]: wrongType(f) };
      out.push({ label: 'wrong types in every body field', request: mutate(request, { bodyValue: value }) });
    }
  }
  const typed = points.find((p) => p.where !== 'body' && ['integer', 'number', 'boolean'].includes(p.type));
  if (typed && out.length < 2) out.push({ label: `a wrong type in ${typed.where} parameter ${typed.name}`, request: typed.with(String(wrongType(typed))) });
  const id = points.find((p) => p.where === 'path' && p.type !== 'integer' && p.type !== 'number' && typeof p.value === 'string' && p.value !== '');
  if (id && out.length < 2) {
    const value = lookupBreaking(id.value as string);
    out.push({ label: `an unknown ${value === UNKNOWN_ID ? 'upper-case' : 'case-changed'} value in path parameter ${id.name} (${JSON.stringify(value)})`, request: id.with(value), lookup: true });
  }
  return out.slice(0, 2);
}

/** Lookups that crash on an unknown id are each their own finding (the handler's code, not the framework's error page), up to this many. */
const LOOKUP_FINDINGS = 5;

function lookupFinding(ctx: CheckContext, hit: Hit): FindingDraft {
  const what = hit.detail.split(', ').slice(1).join(', ').split(':')[0]!;
  return {
    endpoint: hit.endpoint,
    name: 'Verbose error messages: stack trace for an unknown identifier',
    confidence: 'high',
    description:
      `${describeEndpoint(hit.endpoint)} answers a well-formed identifier that matches nothing with a ${what} (HTTP ${hit.exchange.status}) ` +
      'instead of a plain "not found": the lookup\'s exception reaches the client with file paths, code and library names. Anyone can send ' +
      'such an identifier.',
    recommendation: ctx.check.remediation,
    notes: [hit.detail],
    exchanges: [{ label: 'Unknown identifier', exchange: hit.exchange }],
  };
}

export const verboseErrors = defineCheck({
  id: 'api8-verbose-errors',
  title: 'Verbose error messages',
  flag: 'SEC_MISC',
  owasp: 'API8:2023',
  cwe: 'CWE-209',
  confidence: 'high',
  cvss: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N',
  kind: 'active',
  safety: 'safe',
  scope: 'api',
  budget: 200,
  description:
    'Sends key 1\'s requests with a malformed JSON body and with every body field of the wrong type (or a typed query/path parameter of the ' +
    'wrong type), or a string path identifier that breaks the lookup (the known value in the other case, or an unknown upper-case id), two probes per endpoint at most. Finding when an answer carries a stack trace (frames with file and line: Node.js, Java, ' +
    'Python, .NET, PHP, Ruby, Go), a database error text or a framework debug page (Django, Werkzeug, Rails, Laravel, ASP.NET) that key 1\'s ' +
    'normal answer does not. One finding for the API, listing the endpoints; a trace for a well-formed unknown identifier is a finding at its ' +
    `own endpoint (up to ${LOOKUP_FINDINGS}).`,
  remediation:
    'Answer errors with a generic message and a correlation id; log the details server-side. Turn off debug modes in production (DEBUG, ' +
    'development error handlers, stack traces in error bodies) and map parser and validation errors to plain 400 answers.',
  references: [OWASP_API8, 'https://cwe.mitre.org/data/definitions/209.html', 'https://owasp.org/www-community/Improper_Error_Handling'],
  async *run(ctx) {
    const hits: Hit[] = [];
    const lookups: Hit[] = [];
    let inputs = 0;
    const endpoints = ctx.endpoints.filter((e) => e.method !== 'DELETE');
    await forEachLimit(endpoints, ctx.parallelism, async (endpoint) => {
      if (ctx.budgetLeft(endpoint) <= 0) return;
      const request = await freshRequest(ctx, endpoint);
      if (!request) return;
      const probes = probesFor(ctx, endpoint, request);
      if (!probes.length) return;
      const baseline = await ctx.baseline('key1', endpoint);
      if (baseline && errorSignature(baseline)) return;
      for (const probe of probes) {
        if (ctx.budgetLeft(endpoint) <= 0) return;
        // A create's malformed body creates nothing, so both probes can share its unique values.
        const ex = await ctx.sendPrepared(probe.request, AS_KEY1);
        const sig = errorSignature(ex);
        if (!sig) continue;
        inputs += 1;
        (probe.lookup ? lookups : hits).push({ endpoint, exchange: ex, detail: `${probe.label} -> HTTP ${ex.status}, ${sig.what}: ${sig.excerpt.slice(0, 160)}` });
        return;
      }
    });
    for (const hit of lookups.slice(0, LOOKUP_FINDINGS)) yield lookupFinding(ctx, hit);
    if (!hits.length) return;
    const kinds = [...new Set(hits.map((h) => h.detail.split(', ')[1]!.split(':')[0]!))];
    yield apiWideFinding(
      {
        id: 'verbose-errors',
        name: 'Verbose error messages',
        confidence: inputs >= 2 || hits.length >= 2 ? 'high' : 'medium',
        description:
          `Error answers reveal implementation details (${kinds.join('; ')}): file paths, code structure, library and database names that help ` +
          'an attacker aim further attacks. They appeared for malformed or mistyped input, which any client can send.',
        recommendation: ctx.check.remediation,
      },
      hits,
    );
  },
});

