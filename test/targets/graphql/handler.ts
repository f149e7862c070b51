// GraphQL over HTTP for the library target: POST JSON (one operation or an array batch), GET with
// query parameters, bearer tokens, the attempt limiter, and how errors are shown.

import type http from 'node:http';
import {
  execute,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  NoFragmentCyclesRule,
  OverlappingFieldsCanBeMergedRule,
  specifiedRules,
  validate,
  type ValidationRule,
} from 'graphql';
import { WindowLimiter } from '../limits';
import type { GraphqlFlawId } from './flaws';
import type { RequestContext } from './resolvers';
import { MAX_BATCH, MAX_TOKENS, maxAliasesRule, maxDepthRule, naiveFieldCountRule, withoutSuggestions } from './rules';
import type { LibraryStore, MemberRow } from './store';

export interface HttpReply {
  status: number;
  body: unknown;
  /** An HTML page instead of the JSON body (the IDE). */
  html?: string;
  headers?: Record<string, string>;
}

export interface AttemptLimit {
  limit: number;
  windowMs: number;
}

interface OperationParams {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

/** The IDE's page as graphql-http / express-graphql serve it (its scripts left out: nothing here loads them). */
const GRAPHIQL_PAGE =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>GraphiQL</title>' +
  '<link rel="stylesheet" href="/graphiql/graphiql.min.css"></head><body><div id="graphiql">Loading GraphiQL…</div></body></html>';

const reply = (status: number, message: string, headers?: Record<string, string>, code?: string): HttpReply => ({
  status,
  body: { errors: [{ message, ...(code ? { extensions: { code } } : {}) }] },
  headers,
});

/** The deepest cause of an error: what a resolver (or the driver below it) really threw. */
function rootCause(e: GraphQLError): Error {
  let cur: Error = e;
  while (cur instanceof GraphQLError && cur.originalError) cur = cur.originalError;
  return cur;
}

export class GraphqlHandler {
  private readonly limiter = new WindowLimiter();
  private rules: ValidationRule[];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly has: (id: GraphqlFlawId) => boolean,
    private readonly store: LibraryStore,
    private readonly sessions: Map<string, number>,
    private readonly attemptLimit: AttemptLimit,
  ) {
    this.rules = [...specifiedRules];
    if (!has('introspection')) this.rules.push(NoSchemaIntrospectionCustomRule);
    if (!has('depth-limit')) this.rules.push(maxDepthRule());
    if (!has('batching-limit')) this.rules.push(maxAliasesRule());
    // The field-merge rule of recent graphql-js aborts on thousands of repeated fields: without a token limit, servers on older engines run them.
    if (has('token-limit')) this.rules = this.rules.filter((r) => r !== OverlappingFieldsCanBeMergedRule);
    if (has('fragment-cycles')) this.rules = [...this.rules.filter((r) => r !== NoFragmentCyclesRule), naiveFieldCountRule()];
  }

  /** Unexpected errors (not a GraphQLError a resolver meant) are masked unless debug-errors is on. */
  format(e: GraphQLError): GraphQLFormattedError {
    const cause = rootCause(e);
    const expected = !(e.originalError) || e.originalError instanceof GraphQLError;
    const extensions: Record<string, unknown> = { ...e.extensions };
    let message = e.message;
    if (!expected) {
      extensions.code ??= 'INTERNAL_SERVER_ERROR';
      if (!this.has('debug-errors')) message = 'Internal server error';
    }
    if (this.has('debug-errors')) {
      const code = (cause as { code?: unknown }).code;
      extensions.exception = { name: cause.name, message: cause.message, ...(code !== undefined ? { code } : {}), stacktrace: (cause.stack ?? '').split('\n') };
    }
    // Only errors a resolver raised have a path; those of parsing, validation and coercion have none.
    if (this.has('resolver-error-traces') && e.path && !extensions.exception) {
      extensions.exception = { stack: (cause.stack ?? new Error(message).stack ?? '').split('\n').slice(1), path: e.path.join('.') };
    }
    if (!this.has('field-suggestions')) message = withoutSuggestions(message);
    return {
      message,
      ...(e.locations ? { locations: e.locations } : {}),
      ...(e.path ? { path: e.path } : {}),
      ...(Object.keys(extensions).length ? { extensions } : {}),
    };
  }

  private viewer(req: http.IncomingMessage): MemberRow | undefined {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const id = m ? this.sessions.get(m[1]!) : undefined;
    return id === undefined ? undefined : this.store.member(id);
  }

  /** The limiter of login and reset-code attempts: per HTTP request (flaw) or per attempt. */
  private attempts(client: string): RequestContext['attempt'] {
    const decided = new Map<string, boolean>();
    const { limit, windowMs } = this.attemptLimit;
    const charge = (key: string): boolean => {
      if (this.limiter.state(key, windowMs).count >= limit) return false;
      this.limiter.record(key);
      return true;
    };
    return (kind) => {
      const key = `${kind}:${client}`;
      let ok: boolean;
      if (this.has('batch-rate-limit')) {
        // The flaw: one decision per HTTP request, however many attempts it carries.
        ok = decided.get(key) ?? charge(key);
        decided.set(key, ok);
      } else {
        ok = charge(key);
      }
      if (!ok) throw new GraphQLError('Too many attempts, try again later.', { extensions: { code: 'RATE_LIMITED' } });
    };
  }

  private async runOne(p: OperationParams, viaGet: boolean, ctx: RequestContext): Promise<HttpReply> {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) return reply(400, 'A GraphQL request must be a JSON object.', undefined, 'BAD_REQUEST');
    if (typeof p.query !== 'string' || p.query.trim() === '') return reply(400, 'Must provide query string.', undefined, 'BAD_REQUEST');
    if (p.variables !== undefined && p.variables !== null && (typeof p.variables !== 'object' || Array.isArray(p.variables))) {
      return reply(400, 'Variables must be an object.', undefined, 'BAD_REQUEST');
    }
    const operationName = typeof p.operationName === 'string' ? p.operationName : undefined;
    let document;
    try {
      document = parse(p.query, this.has('token-limit') ? {} : { maxTokens: MAX_TOKENS });
    } catch (e) {
      if (e instanceof GraphQLError) return { status: 400, body: { errors: [this.format(e)] } };
      throw e;
    }
    const invalid = validate(this.schema, document, this.rules);
    if (invalid.length) return { status: 400, body: { errors: invalid.map((e) => this.format(e)) } };
    const op = getOperationAST(document, operationName);
    if (!op) return reply(400, operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.', undefined, 'BAD_REQUEST');
    if (viaGet && op.operation !== 'query' && !this.has('get-mutation')) {
      return reply(405, `Can only perform a ${op.operation} operation from a POST request.`, { allow: 'POST' }, 'METHOD_NOT_ALLOWED');
    }
    const result: ExecutionResult = await execute({
      schema: this.schema,
      document,
      operationName,
      variableValues: (p.variables as Record<string, unknown> | null | undefined) ?? undefined,
      contextValue: ctx,
    });
    const body: Record<string, unknown> = {};
    if (result.errors?.length) body.errors = result.errors.map((e) => this.format(e));
    if ('data' in result) body.data = result.data;
    // No data at all: the variables did not coerce, a request error (GraphQL over HTTP says 400).
    return { status: 'data' in result ? 200 : 400, body };
  }

  async handle(req: http.IncomingMessage, url: URL, rawBody: Buffer): Promise<HttpReply> {
    const method = (req.method ?? 'GET').toUpperCase();
    const htmlWanted = method === 'GET' && /text\/html/i.test(req.headers.accept ?? '') && !url.searchParams.has('query');
    if (this.has('graphiql') && (url.pathname === '/graphiql' || (url.pathname === '/graphql' && htmlWanted))) return { status: 200, body: null, html: GRAPHIQL_PAGE };
    if (url.pathname !== '/graphql') return reply(404, 'Not found. The GraphQL endpoint is /graphql.', undefined, 'NOT_FOUND');
    if (method !== 'GET' && method !== 'POST') return reply(405, `${method} is not allowed.`, { allow: 'GET, POST' }, 'METHOD_NOT_ALLOWED');
    const ctx: RequestContext = { viewer: this.viewer(req), attempt: this.attempts(req.socket.remoteAddress ?? '-') };

    if (method === 'GET') {
      const params: OperationParams = { query: url.searchParams.get('query') ?? undefined, operationName: url.searchParams.get('operationName') ?? undefined };
      const variables = url.searchParams.get('variables');
      if (variables) {
        try {
          params.variables = JSON.parse(variables);
        } catch {
          return reply(400, 'Variables are invalid JSON.', undefined, 'BAD_REQUEST');
        }
      }
      return this.runOne(params, true, ctx);
    }

    const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    let payload: unknown;
    if (contentType === 'application/x-www-form-urlencoded' && this.has('get-mutation')) {
      // The flaw: an HTML form can post an operation (no preflight, cookies or not).
      const form = new URLSearchParams(rawBody.toString('utf8'));
      const variables = form.get('variables');
      try {
        payload = { query: form.get('query') ?? undefined, operationName: form.get('operationName') ?? undefined, variables: variables ? JSON.parse(variables) : undefined };
      } catch {
        return reply(400, 'Variables are invalid JSON.', undefined, 'BAD_REQUEST');
      }
    } else {
      if (contentType !== 'application/json' && !this.has('get-mutation')) {
        return reply(415, 'POST requests must be application/json.', undefined, 'UNSUPPORTED_MEDIA_TYPE');
      }
      try {
        payload = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return reply(400, 'The body is not valid JSON.', undefined, 'BAD_REQUEST');
      }
    }
    if (!Array.isArray(payload)) return this.runOne(payload as OperationParams, false, ctx);
    if (payload.length === 0) return reply(400, 'An empty batch.', undefined, 'BAD_REQUEST');
    if (!this.has('batching-limit') && payload.length > MAX_BATCH) {
      return reply(400, `Batch too large: at most ${MAX_BATCH} operations per request.`, undefined, 'BATCH_TOO_LARGE');
    }
    const results: unknown[] = [];
    for (const p of payload) results.push((await this.runOne(p as OperationParams, false, ctx)).body);
    return { status: 200, body: results };
  }
}
