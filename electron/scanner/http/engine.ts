// The scan's HTTP client: every request of a scan goes through send(), which applies scope (the
// API's host only; off-host redirects are not followed), request budgets, the adaptive pace of each
// target (requests in flight and per second, pace.ts), the per-request timeout, credentials, and
// bounded retries: after connection errors, and for a request whose answer a check needs, after a
// timeout or a 429 (its Retry-After honoured). Checks never import an HTTP library; they call this.

import { currentHolds, ObjectHolds } from '../object-holds';
import { setMaxListeners } from 'node:events';
import { Pool, type Dispatcher } from 'undici';
import { publicOnlyLookup, isLocalAddress, LocalTargetError, ProxiedHostGuard } from '../net-guard';
import { fillPlaceholder, generatePassword, PASSWORD_PLACEHOLDER } from '../passwords';
import { addCookie, formatCredential, DEFAULT_PLACEMENT, type CredentialPlacement } from '../identities/placement';
import { Exchange, type ChallengeUse, type ExchangeRequest, type ExchangeResponse, type KeyNumber, type Redirect, type RequestAuth } from './exchange';
import { AbortedError, sleep } from './limits';
import { type Burst, DEFAULT_THROTTLE_PAUSE_MS, MAX_RETRY_AFTER_MS, Pace, sendsAlone, SLOW_FACTOR, type PaceChange, type PaceOutcome, type PaceView } from './pace';
import { proxyDispatcher, type ScanProxy } from './proxy';

export const USER_AGENT = 'Portcullis/0.1 (API security scanner; +https://github.com/portcullis)';

export interface EngineOptions {
  baseUrl: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** Request starts per second; 0 = no cap. */
  rps: number;
  timeoutMs: number;
  /**
   * Extra attempts after a connection error, a timeout or a 429 (never after another answer, nor after the
   * timeout of a probe with its own time limit, nor after a 429 a check measures).
   */
  retries: number;
  /** Response bodies are read up to this many bytes. */
  maxBodyBytes: number;
  /** Requests of the whole scan. */
  maxRequests: number;
  /** false on a team server without local scans: connections to local addresses are refused. */
  allowLocal: boolean;
  /** Static keys by slot: the simple form (tests, tools); a scan passes `credentials`. */
  keys?: Partial<Record<KeyNumber, string | null>>;
  /** Who puts credentials on requests and renews them (the scan's identities). */
  credentials?: CredentialProvider;
  /** Origins besides the API's that login requests may reach (an OAuth2 token endpoint on its own host). */
  loginOrigins?: string[];
  /**
   * Operations the user marked SKIP: no request matching one leaves, whichever check makes it
   * (discovery guesses too), unless an operation that is not skipped matches it as well
   * (GET /products/search when only GET /products/{id} is skipped).
   */
  skipped?: readonly { method: string; path: string }[];
  /** The operations that are scanned (to tell them from the skipped ones). */
  scanned?: readonly { method: string; path: string }[];
  /** Operations that register users: withheld while the scan may not register any, watched otherwise. */
  registrations?: RegistrationWatch;
  /** A fresh password for a request's password placeholder (the scan also hands it to the redactor). Default: generated, not recorded. */
  newPassword?: () => string;
  signal: AbortSignal;
  /** Verify TLS certificates (default true). */
  tlsVerify?: boolean;
  /** Called after every attempt that reached (or failed to reach) the target. */
  onExchange?: (exchange: Exchange) => void;
  /** An upstream proxy every request goes through (Burp, ZAP, an egress proxy); none when absent. */
  proxy?: ScanProxy | null;
  /** Called when a target's pace changes (requests in flight, rate). */
  onPaceChange?: (origin: string, change: PaceChange) => void;
}

export interface ProbeRequest {
  method: string;
  /** Absolute URL inside the scan's scope. */
  url: string | URL;
  headers?: Record<string, string>;
  body?: string | null;
  /** Default: no credentials. */
  auth?: RequestAuth;
  /** Where credentials go; default the bearer Authorization header. */
  placements?: CredentialPlacement[];
  /** Follow redirects on the same host (GET/HEAD only); default true. */
  followRedirects?: boolean;
  timeoutMs?: number;
  /** A 401 is the answer: no renewal of the credential and no retry (canaries, renewal itself). */
  noRenew?: boolean;
  /** A login request: it may go to the login origins as well as the API's. */
  login?: boolean;
  /** The id of the operation (endpoint) the request was prepared for: kept on the exchange for the coverage ledger. */
  operation?: string;
  /** Set by the challenge filler: the fresh challenge whose id and answer went into the body (kept on the exchange). */
  challenge?: ChallengeUse;
  /** The scan's own registration of a test user (identities/accounts.ts): never withheld, recorded by its sender. */
  registers?: boolean;
  /** Runs with nothing else in flight to the target (a heavy probe); default: inside runAlone (pace.ts). */
  alone?: boolean;
  /** A 429 is what the check measures (a burst looking for a rate limit): not retried. */
  throttleIsAnswer?: boolean;
  /** One of a group of requests started together, past the pace's limit and rate (pace.ts Burst: a race-condition probe). */
  burst?: Burst;
  /**
   * The request tests the endpoint's path, not its operation (an IDE page, a document of __typename only, one
   * that fails validation): an operation found slow does not keep it back, and its time says nothing about it.
   */
  pathProbe?: boolean;
  /**
   * The probe bounds its own cost (a depth ladder that foresees each level's time, under its own time limit): an
   * operation found slow with the scan's ordinary values does not keep it back.
   */
  ownGuard?: boolean;
}

/** An operation that registers users: a REST operation, or a GraphQL mutation on its endpoint. */
export interface RegistrationOperation {
  method: string;
  path: string;
  /** A GraphQL mutation's field: a request to the endpoint registers a user when its query calls it. */
  graphqlField?: string;
  /** "POST /auth/signup", "Mutation.register": how notes name it. */
  label: string;
}

export interface RegistrationWatch {
  operations: readonly RegistrationOperation[];
  /** false (sign-up is off): no request to one of them leaves, whichever check makes it. */
  allowed: boolean;
  /** A request of the scan's checks to one of them was answered: the user it may have registered is the scan's. */
  answered(operation: RegistrationOperation, exchange: Exchange): void;
}

/** Puts a scan's credentials on requests and renews them (identities/book.ts). */
export interface CredentialProvider {
  /** A promise to wait for before sending as `auth` (a credential about to expire being renewed), or null. */
  ready(auth: RequestAuth): Promise<void> | null;
  /** Puts `auth`'s credential on the request; returns the URL to use and the credential's stamp. */
  apply(auth: RequestAuth, headers: Record<string, string>, url: URL, placements: readonly CredentialPlacement[]): { url: URL; stamp: number };
  /** A 401 came back as `auth` with credential `stamp`: true when it has been renewed and the request may be sent once more. */
  renew(auth: RequestAuth, stamp: number): Promise<boolean>;
}

/**
 * Fills writes guarded by a challenge (challenge-fill.ts): a fresh challenge's id and answer go into the body
 * before each send, and a write refused for want of one is learnt guarded and sent once more.
 */
export interface ChallengeSolver {
  fill(req: ProbeRequest): Promise<ProbeRequest | null>;
  afterRefusal(req: ProbeRequest, exchange: Exchange): Promise<ProbeRequest | null>;
  observe(exchange: Exchange): void;
}

/** Static keys by slot, placed where the request says: the engine's credentials without identities. */
export function staticCredentials(keys: Partial<Record<KeyNumber, string | null>>): CredentialProvider {
  return {
    ready: () => null,
    apply(auth, headers, url, placements) {
      let value: string | null = null;
      if (auth.kind === 'credential') value = auth.value;
      else if (auth.kind === 'key') {
        value = keys[auth.key] ?? null;
        if (!value) throw new Error(`Key ${auth.key} was not provided for this scan.`);
      } else if (auth.kind === 'identity') throw new Error(`No identity named ${auth.name} in this scan.`);
      if (value === null) return { url, stamp: 0 };
      return { url: placeCredential(value, headers, url, placements), stamp: 0 };
    },
    renew: () => Promise.resolve(false),
  };
}

/** Writes a credential where the placements say; returns the URL (a copy when a query parameter carries it). */
export function placeCredential(value: string, headers: Record<string, string>, url: URL, placements: readonly CredentialPlacement[], vars?: Readonly<Record<string, string>>): URL {
  const target = placements.some((p) => p.in === 'query') ? new URL(url) : url;
  for (const p of placements) {
    const formatted = formatCredential(value, p, vars);
    if (p.in === 'header') headers[p.name.toLowerCase()] = formatted;
    else if (p.in === 'query') target.searchParams.set(p.name, formatted);
    else addCookie(headers, p.name, formatted);
  }
  return target;
}

/** A request counter with a limit: the scan, one endpoint, one check on one endpoint. */
export class Budget {
  used = 0;
  constructor(
    readonly name: string,
    readonly limit: number,
  ) {}
  get left(): number {
    return Math.max(0, this.limit - this.used);
  }
}

export class BudgetExceededError extends Error {
  constructor(readonly budget: Budget) {
    super(`Request budget reached: ${budget.name} (${budget.limit} requests)`);
    this.name = 'BudgetExceededError';
  }
}

/** The error of an exchange that never left because its operation is marked SKIP. */
export const NOT_SENT_SKIP = 'not sent: the operation is marked SKIP';
/** The error of an exchange that never left because it would register a user and sign-up is off. */
export const NOT_SENT_SIGNUP_OFF = 'not sent: the operation registers users and sign-up is off';
/** The start of the error of an exchange that never left because its operation answers too slowly to be sent more. */
export const NOT_SENT_SLOW = 'not sent: the operation answers too slowly';

/** An operation whose answers take long: it runs alone, and once its own time is past the bar, gets no more requests. */
export interface SlowOperation {
  /** The operation's id (ProbeRequest.operation). */
  operation: string;
  /** Its slowest answer (or timeout) so far. */
  ms: number;
  /**
   * Its own time (no request ahead of it at the target, pace.ts ownTime) was past the bar: the time is its own,
   * and it is sent nothing more.
   */
  alone: boolean;
  /** The exchange that showed it (its own time past the bar), for a finding's evidence. */
  evidence?: Exchange;
  /** That exchange's own time, in ms. */
  ownMs?: number;
  /** The target's usual answer time then (pace.ts usualMs), in ms. */
  usualMs?: number;
}

export class OutOfScopeError extends Error {
  constructor(readonly url: string) {
    super(`Refused a request outside the scan's scope: ${url}`);
    this.name = 'OutOfScopeError';
  }
}

const RETRYABLE_ALWAYS = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
// The request may have reached the server: only retried for methods that are safe to repeat.
const RETRYABLE_IDEMPOTENT = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_PLACEMENTS: CredentialPlacement[] = [DEFAULT_PLACEMENT];
const NO_AUTH: RequestAuth = { kind: 'none' };
const MAX_REDIRECTS = 5;
// Connection errors that say the target is overloaded (not that nothing listens there).
const LOAD_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT']);

/** A Retry-After header in milliseconds (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code ?? '';
}

function describeError(err: unknown): string {
  const code = errorCode(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'EPORTCULLIS_DEADLINE') return 'timeout';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found';
  if (code === 'EPORTCULLIS_LOCAL') return 'refused: the host resolves to a local address';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect timeout';
  if (/Proxy Authentication Required|Proxy response \(407\)/.test((err as Error)?.message ?? '')) return 'the proxy asked for credentials (407): put user:password in the proxy URL';
  if (code.startsWith('ERR_TLS') || code.includes('CERT')) return `TLS error (${code})`;
  return (err as Error)?.message || code || 'request failed';
}

/** undici gives lower-case names; repeated headers come as arrays. */
function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in raw) {
    const v = raw[name];
    if (v === undefined) continue;
    out[name] = Array.isArray(v) ? v.join(name === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

/** Content types that never end by themselves (an event stream, a multipart stream, NDJSON): read up to a bound. */
const STREAMING_TYPE = /^(text\/event-stream|multipart\/x-mixed-replace|application\/(x-)?ndjson|application\/stream\+json|application\/jsonl|application\/x-json-stream)\b/i;
/** How much of a stream is read, and for how long at most: enough to see what it sends. */
export const STREAM_LIMITS = { bytes: 64 * 1024, ms: 2_000 };

/** The error of a request whose deadline (headers and body together) passed. */
function deadlineError(): Error {
  return Object.assign(new Error('the answer did not end within the request deadline'), { code: 'EPORTCULLIS_DEADLINE' });
}

/**
 * One request's answer, read straight from undici's dispatcher (no response stream): the body is
 * collected as it comes, up to maxBodyBytes; past that the connection is dropped and the answer kept
 * as truncated. The whole exchange has one deadline: undici's header and body timeouts measure silence
 * only, so a target that drips a byte a second, or streams events forever, would hold the scan; at the
 * deadline the request is aborted (a timeout). A streaming content type is read up to STREAM_LIMITS and
 * kept as a truncated answer. A class, not a handler of closures: one object per request.
 */
class AnswerCollector implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private truncated = false;
  private limit: number;
  private controller: Dispatcher.DispatchController | null = null;
  private timer: NodeJS.Timeout | null;
  private settled = false;

  constructor(
    maxBodyBytes: number,
    deadlineMs: number,
    private readonly resolve: (r: ExchangeResponse) => void,
    private readonly reject: (e: Error) => void,
  ) {
    this.limit = maxBodyBytes;
    this.timer = setTimeout(() => this.expire(), deadlineMs);
    this.timer.unref?.();
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.controller = controller;
    this.status = statusCode;
    this.headers = flattenHeaders(headers);
    if (STREAMING_TYPE.test(this.headers['content-type'] ?? '')) {
      // A stream: what it sends in its first moments, then the answer is kept as truncated.
      this.limit = Math.min(this.limit, STREAM_LIMITS.bytes);
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.cut(), STREAM_LIMITS.ms);
      this.timer.unref?.();
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.truncated) return;
    if (this.size + chunk.length > this.limit) {
      this.chunks.push(chunk.subarray(0, this.limit - this.size));
      this.size = this.limit;
      this.cut(controller);
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  onResponseEnd(): void {
    this.settle(() => this.resolve(this.answer()));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    if (this.truncated) this.settle(() => this.resolve(this.answer()));
    else this.settle(() => this.reject(err));
  }

  /** Stops reading and keeps what came (the size limit, or a stream's bound). */
  private cut(controller = this.controller): void {
    this.truncated = true;
    if (controller && !controller.aborted) controller.abort(new Error('response body past the size limit'));
    else this.settle(() => this.resolve(this.answer()));
  }

  /** The deadline passed: the request ends as a timeout, whatever undici is still waiting for. */
  private expire(): void {
    const err = deadlineError();
    if (this.controller && !this.controller.aborted) this.controller.abort(err);
    // Not dispatched yet, or the abort did not call back: the caller must not wait any longer.
    this.settle(() => this.reject(err));
  }

  private settle(fn: () => void): void {
    if (this.settled) return;
    this.settled = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    fn();
  }

  private answer(): ExchangeResponse {
    const c = this.chunks;
    const body = c.length === 0 ? '' : c.length === 1 ? c[0]!.toString('utf8') : Buffer.concat(c).toString('utf8');
    return { status: this.status, headers: this.headers, body, bytes: this.size, truncated: this.truncated };
  }
}

/** One request and its answer, within `deadlineMs` from start to the last byte. Rejects with the transport error. */
function exchangeOver(pool: Dispatcher, opts: Dispatcher.DispatchOptions, maxBodyBytes: number, deadlineMs: number): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    pool.dispatch(opts, new AnswerCollector(maxBodyBytes, deadlineMs, resolve, reject));
  });
}

export class HttpEngine {
  readonly base: URL;
  readonly budget: Budget;
  private readonly pools = new Map<string, Dispatcher>();
  /** With a proxy and no local scans: the target's name is resolved here, since the proxy resolves it (net-guard.ts). */
  private readonly proxiedHosts: ProxiedHostGuard | null;
  private readonly credentials: CredentialProvider;
  private readonly loginOrigins: Set<string>;
  private readonly skipped: { method: string; path: RegExp }[];
  private readonly scanned: { method: string; path: RegExp }[];
  private readonly registrations: { op: RegistrationOperation; method: string; path: RegExp; call: RegExp | null }[];
  private readonly paces = new Map<string, Pace>();
  private readonly slow = new Map<string, SlowOperation>();
  private seq = 0;
  private sent = 0;
  private closed = false;
  private challenges: ChallengeSolver | null = null;

  constructor(readonly options: EngineOptions) {
    this.base = new URL(options.baseUrl);
    this.budget = new Budget('scan', options.maxRequests);
    this.credentials = options.credentials ?? staticCredentials(options.keys ?? {});
    this.loginOrigins = new Set((options.loginOrigins ?? []).map((o) => new URL(o).origin));
    this.proxiedHosts = options.proxy && !options.allowLocal ? new ProxiedHostGuard() : null;
    const patterns = (list: readonly { method: string; path: string }[] = []) => list.map((e) => ({ method: e.method.toUpperCase(), path: this.pathPattern(e.path) }));
    this.skipped = patterns(options.skipped);
    this.scanned = this.skipped.length ? patterns(options.scanned) : [];
    this.registrations = (options.registrations?.operations ?? []).map((op) => ({
      op,
      method: op.method.toUpperCase(),
      path: this.pathPattern(op.path),
      call: op.graphqlField ? new RegExp(`\\b${op.graphqlField.replace(/[^\w]/g, '')}\\s*\\(`) : null,
    }));
    setMaxListeners(0, options.signal);
    // One listener for the whole scan: destroying the pools aborts every request in flight (cheaper
    // than an abort listener per request).
    options.signal.addEventListener('abort', () => void this.destroyPools(), { once: true });
  }

  private async destroyPools(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.destroy().catch(() => undefined)));
  }

  /** The pace of requests to an origin (the API's by default). */
  pace(origin = this.base.origin): Pace {
    let pace = this.paces.get(origin);
    if (!pace) {
      const o = this.options;
      pace = new Pace({ concurrency: o.concurrency, rps: o.rps, timeoutMs: o.timeoutMs }, o.signal, (change) => o.onPaceChange?.(origin, change));
      this.paces.set(origin, pace);
    }
    return pace;
  }

  /**
   * The bar past which an answer is too slow for its operation to be sent many requests: a quarter of the
   * request timeout, and at least 5 s (an answer that holds a one-worker server for that long holds every
   * request queued behind it).
   */
  get slowOperationMs(): number {
    return Math.max(5_000, this.options.timeoutMs / 4);
  }

  /** Operations found slow so far (timed alone: sent nothing more). */
  slowOperations(): SlowOperation[] {
    return [...this.slow.values()];
  }

  /** The API's pace now, for the live view. */
  paceView(): PaceView {
    return this.pace().view();
  }

  /** Requests that left the scanner (each attempt, each redirect hop). */
  get requestsSent(): number {
    return this.sent;
  }

  get signal(): AbortSignal {
    return this.options.signal;
  }

  /** Same host and port as the base URL (or the other scheme's default port when the base uses a default one). */
  inScope(url: URL): boolean {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.hostname.toLowerCase() !== this.base.hostname.toLowerCase()) return false;
    const port = url.port || defaultPort(url.protocol);
    const basePort = this.base.port || defaultPort(this.base.protocol);
    if (port === basePort && url.protocol === this.base.protocol) return true;
    // The other scheme on the same explicit port (one server speaking both), or http://host <->
    // https://host on their default ports: the transport checks need both.
    if (this.base.port && url.port === this.base.port) return true;
    return !this.base.port && !url.port && port === defaultPort(url.protocol);
  }

  /**
   * A URL relative to the API's base (path joined onto the base path), or absolute. A `#` in a
   * relative path is part of the path (specs write `/#Action=...` to tell operations apart), so it
   * is sent as `%23` rather than cut off as a fragment the server would never see.
   */
  resolve(pathOrUrl: string): URL {
    if (/^https?:\/\//i.test(pathOrUrl)) return new URL(pathOrUrl);
    const basePath = this.base.pathname.replace(/\/+$/, '');
    const rel = (pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`).replace(/#/g, '%23');
    return new URL(`${this.base.origin}${basePath}${rel}`);
  }

  private pool(origin: string): Dispatcher {
    const proxy = this.options.proxy;
    // One proxy dispatcher for every origin: it keeps its own pool per origin behind the proxy.
    const key = proxy ? 'proxy' : origin;
    let pool = this.pools.get(key);
    if (!pool && proxy) {
      pool = proxyDispatcher(proxy, { connections: this.options.concurrency, tlsVerify: this.options.tlsVerify !== false });
      this.pools.set(key, pool);
    }
    if (!pool) {
      pool = new Pool(origin, {
        connections: Math.max(1, this.options.concurrency),
        pipelining: 1,
        keepAliveTimeout: 10_000,
        connect: {
          rejectUnauthorized: this.options.tlsVerify !== false,
          ...(this.options.allowLocal ? {} : { lookup: publicOnlyLookup }),
        },
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  /** The request as it goes on the wire: default headers, then credentials where the identity or the scheme puts them. */
  private build(req: ProbeRequest, url: URL): { url: URL; headers: Record<string, string>; stamp: number } {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json, */*;q=0.5' };
    const extra = req.headers;
    if (extra) for (const k in extra) headers[k.toLowerCase()] = extra[k]!;
    const auth = req.auth ?? NO_AUTH;
    if (auth.kind === 'none') return { url, headers, stamp: 0 };
    const placed = this.credentials.apply(auth, headers, url, req.placements?.length ? req.placements : DEFAULT_PLACEMENTS);
    return { url: placed.url, headers, stamp: placed.stamp };
  }

  /** From now on, writes guarded by a challenge are filled from a fresh one before they leave. */
  solveChallenges(solver: ChallengeSolver): void {
    this.challenges = solver;
  }

  /** Same host and port as the API, or a login origin for a login request; never a SKIP operation (but a login). */
  private allowed(url: URL, req: ProbeRequest): boolean {
    // The identities' own logins are the user's configuration, SKIP or not.
    if (!req.login && this.skipped.length && this.isSkipped(req.method, url)) return false;
    return this.inScope(url) || (!!req.login && this.loginOrigins.has(url.origin));
  }

  /** A spec path under the base path as a pattern: each {param} stands for one segment. */
  private pathPattern(template: string): RegExp {
    const full = this.resolve(template).pathname.replace(/\/+$/, '');
    const source = full
      .split(/(%7B[^/]*?%7D|\{[^/}]*\})/i)
      .map((part, i) => (i % 2 ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    return new RegExp(`^${source}/?$`);
  }

  /** The user marked this operation SKIP: no request for it leaves (checks that guess paths leave it out). */
  isSkipped(method: string, url: URL): boolean {
    if (!this.inScope(url)) return false;
    const m = method.toUpperCase();
    const matches = (e: { method: string; path: RegExp }) => e.method === m && e.path.test(url.pathname);
    return this.skipped.some(matches) && !this.scanned.some(matches);
  }

  /** The operation registering users that a request goes to (the body names a GraphQL mutation), or null. */
  registrationOf(method: string, url: URL, body: string | null): RegistrationOperation | null {
    if (!this.registrations.length || !this.inScope(url)) return null;
    const m = method.toUpperCase();
    for (const r of this.registrations) {
      if (r.method === m && r.path.test(url.pathname) && (!r.call || (body !== null && r.call.test(body)))) return r.op;
    }
    return null;
  }

  /** The request with a fresh password wherever it carries the placeholder (one password per request). */
  private withPasswords(req: ProbeRequest, url: URL): { req: ProbeRequest; url: URL } {
    const body = typeof req.body === 'string' && req.body.includes(PASSWORD_PLACEHOLDER);
    const inUrl = url.href.includes(PASSWORD_PLACEHOLDER);
    const headers = !!req.headers && Object.values(req.headers).some((v) => v.includes(PASSWORD_PLACEHOLDER));
    if (!body && !inUrl && !headers) return { req, url };
    const password = this.options.newPassword?.() ?? generatePassword();
    const filled: ProbeRequest = { ...req };
    if (body) filled.body = fillPlaceholder(req.body!, password);
    if (headers) filled.headers = Object.fromEntries(Object.entries(req.headers!).map(([k, v]) => [k, fillPlaceholder(v, password)]));
    return { req: filled, url: inUrl ? new URL(fillPlaceholder(url.href, password)) : url };
  }

  private charge(budgets: readonly Budget[]): void {
    if (this.budget.used >= this.budget.limit) throw new BudgetExceededError(this.budget);
    for (const b of budgets) if (b.used >= b.limit) throw new BudgetExceededError(b);
    this.budget.used += 1;
    for (const b of budgets) b.used += 1;
  }

  /**
   * Sends one request (following same-host redirects for GET/HEAD). Resolves with the exchange,
   * also when the transport failed (exchange.error). Throws OutOfScopeError, BudgetExceededError
   * or AbortedError.
   */
  async send(req: ProbeRequest, budgets: readonly Budget[] = []): Promise<Exchange> {
    const signal = this.options.signal;
    if (signal.aborted || this.closed) throw new AbortedError(signal.reason);
    const method = req.method.toUpperCase();
    const url = typeof req.url === 'string' ? new URL(req.url) : req.url;
    if (!req.login && this.skipped.length && this.isSkipped(method, url)) return this.notSent(req, method, url, NOT_SENT_SKIP);
    const registration = req.login || req.registers ? null : this.registrationOf(method, url, req.body ?? null);
    if (registration && !this.options.registrations!.allowed) return this.notSent(req, method, url, NOT_SENT_SIGNUP_OFF);
    if (!this.allowed(url, req)) throw new OutOfScopeError(url.href);
    if (!this.options.allowLocal && isLocalAddress(url.hostname)) {
      throw new LocalTargetError(url.hostname, url.hostname.replace(/^\[|\]$/g, ''));
    }
    const slow = req.operation && !req.login && !req.pathProbe && !req.ownGuard ? this.slow.get(req.operation) : undefined;
    if (slow?.alone) return this.notSent(req, method, url, `${NOT_SENT_SLOW} (${((slow.ownMs ?? slow.ms) / 1000).toFixed(1)} s with nothing else in flight)`);
    // Sent for a task: a write waits for another task's read-back of the object and holds it until the task's next answer.
    const scope = currentHolds();
    const answered = scope ? await scope.holds.before(scope.holder, ObjectHolds.addressOf(url), method, { burst: !!req.burst }) : null;
    try {
      const solved = this.challenges && !req.login ? await this.challenges.fill(req) : null;
      const filled = this.withPasswords(solved ?? req, url);
      let exchange = await this.exchange(filled.req, method, filled.url, budgets);
      this.challenges?.observe(exchange);
      // Refused for want of a challenge's answer: learnt, and sent once more with one (charged to the scan only, as a renewal is).
      const retry = this.challenges && !solved && !req.login && exchange.response ? await this.challenges.afterRefusal(req, exchange) : null;
      if (retry) {
        const again = this.withPasswords(retry, url);
        exchange = await this.exchange(again.req, method, again.url, []);
      }
      if (registration) this.options.registrations!.answered(registration, exchange);
      return exchange;
    } finally {
      answered?.();
    }
  }

  /** Sends an allowed request, following same-host redirects for GET/HEAD and renewing an expired credential once. */
  private async exchange(req: ProbeRequest, method: string, firstUrl: URL, budgets: readonly Budget[]): Promise<Exchange> {
    let url = firstUrl;
    const follow = req.followRedirects !== false && (method === 'GET' || method === 'HEAD');
    const redirects: Redirect[] = [];
    const started = performance.now();
    const auth = req.auth ?? NO_AUTH;
    const speaksAs = auth.kind === 'key' || auth.kind === 'identity';
    let renewed = false;
    let current = req;
    for (;;) {
      if (speaksAs) {
        const wait = this.credentials.ready(auth);
        if (wait) await wait;
      }
      const { exchange, location, stamp } = await this.attempt(current, method, url, renewed ? [] : budgets);
      // A 401 as an identity whose credential turns out to have expired: renewed once, sent once more
      // (charged to the scan only: the check asked for one request).
      if (exchange.status === 401 && speaksAs && !renewed && !req.noRenew && !this.options.signal.aborted && (await this.credentials.renew(auth, stamp))) {
        renewed = true;
        continue;
      }
      if (!location || !follow || redirects.length >= MAX_REDIRECTS) {
        return redirects.length ? this.withRedirects(exchange, redirects, null, started) : exchange;
      }
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return this.withRedirects(exchange, redirects, null, started);
      }
      if (!this.allowed(next, req)) return this.withRedirects(exchange, redirects, next.href, started);
      const budgetLeft = this.budget.left > 0 && budgets.every((b) => b.left > 0);
      if (!budgetLeft) return this.withRedirects(exchange, redirects, null, started);
      redirects.push({ status: exchange.status, from: url.href, to: next.href });
      url = next;
      current = { ...current, body: null };
    }
  }

  /** A request that may not leave (a SKIP operation, a sign-up while sign-up is off): the check sees an answerless exchange, like a transport failure, and goes on. */
  private notSent(req: ProbeRequest, method: string, url: URL, why: string): Exchange {
    const request = { method, url: url.href, headers: { ...(req.headers ?? {}) }, body: req.body ?? null, auth: req.auth ?? NO_AUTH, placements: req.placements ?? DEFAULT_PLACEMENTS };
    return new Exchange(++this.seq, request satisfies ExchangeRequest, null, why, 0);
  }

  /** A request the safety rule keeps from leaving (probe-safety.ts): an answerless exchange saying why, like a SKIP operation's. */
  refuse(req: ProbeRequest, why: string): Exchange {
    return this.notSent(req, req.method.toUpperCase(), typeof req.url === 'string' ? new URL(req.url) : req.url, `not sent: ${why}`);
  }

  private withRedirects(ex: Exchange, redirects: Redirect[], blocked: string | null, started: number): Exchange {
    return new Exchange(ex.seq, ex.request, ex.response, ex.error, performance.now() - started, redirects, blocked);
  }

  private async attempt(
    req: ProbeRequest,
    method: string,
    url: URL,
    budgets: readonly Budget[],
  ): Promise<{ exchange: Exchange; location: string | null; stamp: number }> {
    const signal = this.options.signal;
    const auth = req.auth ?? NO_AUTH;
    const wire = this.build(req, url);
    // URL getters are not free: read each once.
    const href = wire.url.href;
    const origin = wire.url.origin;
    const hash = href.indexOf('#');
    const target = (hash >= 0 ? href.slice(0, hash) : href).slice(origin.length) || '/';
    const body = req.body ?? null;
    const timeout = req.timeoutMs ?? this.options.timeoutMs;
    const pace = this.pace(origin);
    // A probe built to be slow (a sleep, a deep query) says nothing about its operation; an ordinary request does.
    const measured = req.alone === undefined && req.timeoutMs === undefined && !sendsAlone() && !!req.operation && !req.pathProbe && !req.burst;
    const suspect = req.operation && !req.pathProbe ? this.slow.get(req.operation) : undefined;
    const alone = req.alone ?? (sendsAlone() || !!suspect);
    let retried = 0;
    for (let attempt = 0; ; attempt += 1) {
      // A retry is the scan's, not the check's: the check asked for one request.
      this.charge(attempt === 0 ? budgets : []);
      const ticket = await pace.enter(alone && !req.burst, req.burst ?? null);
      let response: ExchangeResponse | null = null;
      let error: string | null = null;
      let code = '';
      let t0 = performance.now();
      try {
        if (signal.aborted) throw new AbortedError(signal.reason);
        if (this.proxiedHosts) await this.proxiedHosts.check(wire.url.hostname);
        // Durations are the server's time, not the pacing wait: time-based checks compare them.
        t0 = performance.now();
        this.sent += 1;
        response = await exchangeOver(
          this.pool(origin),
          // The proxy dispatcher adds a host header to the object it gets: a copy keeps the exchange's headers as the check set them.
          { origin, method: method as Dispatcher.HttpMethod, path: target, headers: this.options.proxy ? { ...wire.headers } : wire.headers, body: body ?? undefined, headersTimeout: timeout, bodyTimeout: timeout },
          this.options.maxBodyBytes,
          timeout,
        );
      } catch (err) {
        if (signal.aborted || err instanceof AbortedError) {
          pace.leave(ticket, 'none', 0);
          throw new AbortedError(signal.reason);
        }
        code = errorCode(err);
        error = describeError(err);
      }
      const duration = performance.now() - t0;
      const waitMs = response && (response.status === 429 || response.status === 503) ? retryAfterMs(response.headers['retry-after']) : null;
      const throttled = !!response && (response.status === 429 || (response.status === 503 && waitMs !== null));
      const outcome: PaceOutcome = response
        ? throttled
          ? 'throttled'
          : pace.isSlow(duration, timeout)
            ? 'slow'
            : 'ok'
        : error === 'timeout'
          ? 'timeout'
          : LOAD_ERRORS.has(code)
            ? 'failed'
            : 'none';
      // A 429 is honoured by the request it answered: it waits what the target asks (a check measuring throttling
      // provoked it; a longer wait is not taken). Limits are often per route, so the rest of the scan goes on.
      const honoured = throttled && !req.throttleIsAnswer && (waitMs ?? 0) <= MAX_RETRY_AFTER_MS;
      // The target's usual time before this answer joins it: what the answer is compared with.
      const usualMs = pace.usualMs;
      const ownMs = pace.leave(ticket, outcome, duration);
      const exchange = new Exchange(
        ++this.seq,
        { method, url: href, headers: wire.headers, body, auth, placements: req.placements ?? DEFAULT_PLACEMENTS, ...(req.operation ? { operation: req.operation } : {}), ...(req.challenge ? { challenge: req.challenge } : {}) } satisfies ExchangeRequest,
        response,
        error,
        duration,
      );
      this.options.onExchange?.(exchange);
      // A timeout whose own time is past the bar says the operation takes at least that long, like an answer that late.
      if (measured && (response || outcome === 'timeout')) this.timeOperation(req.operation!, duration, ownMs, exchange, usualMs);
      // An operation that just showed it holds the target past the bar is not sent again, not even as a retry.
      const canRetry = retried < this.options.retries && this.budget.left > 0 && !(measured && this.slow.get(req.operation!)?.alone);
      if (response && !throttled) {
        const location = REDIRECTS.has(response.status) ? (response.headers.location ?? null) : null;
        return { exchange, location, stamp: wire.stamp };
      }
      // A 429 (or a 503 with Retry-After): once the pause the target asked for is over, the same request again.
      if (throttled) {
        if (!honoured || !canRetry) return { exchange, location: null, stamp: wire.stamp };
        await sleep(waitMs ?? DEFAULT_THROTTLE_PAUSE_MS, signal);
        retried += 1;
        continue;
      }
      // A timeout: the answer a check waits for never came. A probe with its own time limit measured just that.
      if (error === 'timeout') {
        if (req.timeoutMs !== undefined || !canRetry) return { exchange, location: null, stamp: wire.stamp };
        retried += 1;
        continue;
      }
      const retryable = RETRYABLE_ALWAYS.has(code) || (RETRYABLE_IDEMPOTENT.has(code) && IDEMPOTENT.has(method));
      if (!retryable || !canRetry) return { exchange, location: null, stamp: wire.stamp };
      await sleep(200 * 2 ** retried, signal);
      retried += 1;
    }
  }

  /**
   * Learns which operations are slow from ordinary requests. Its own time (pace.ts ownTime: the part after every
   * request ahead of it was answered) past the bar: it is sent nothing more; its own time under the bar: it only
   * waited behind others. When its own time cannot be told, an answer (or timeout) past the bar makes it run
   * alone next time, where its time is its own. An answer under the bar clears it.
   */
  private timeOperation(operation: string, ms: number, ownMs: number | null, exchange: Exchange, usualMs: number): void {
    const known = this.slow.get(operation);
    // Own time under the bar, or not far past the target's usual answer (a machine slow for every request does not make one operation slow): it only waited.
    if (ms < this.slowOperationMs || (ownMs !== null && (ownMs < this.slowOperationMs || (usualMs > 0 && ownMs < SLOW_FACTOR * usualMs)))) {
      if (known && !known.alone) this.slow.delete(operation);
      return;
    }
    const own = ownMs !== null;
    if (!known) {
      this.slow.set(operation, { operation, ms, alone: own, ...(own ? { evidence: exchange, ownMs, usualMs } : {}) });
      return;
    }
    known.ms = Math.max(known.ms, ms);
    if (own && !known.alone) Object.assign(known, { alone: true, evidence: exchange, ownMs, usualMs });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.destroyPools();
  }
}
