// Obtaining an identity's credential: a static value, a login recipe (requests whose answers give
// values for later steps and the token), an OAuth2 grant (client credentials, password, refresh
// token), a cookie session with its CSRF token, or a command's output (CLI and desktop only).

import { spawn, type ChildProcess } from 'node:child_process';
import {
  obtainKind,
  stepsOf,
  TEMPLATE_VAR,
  type CookieSessionConfig,
  type IdentityConfig,
  type LoginRequest,
  type LoginStep,
  type OAuth2Config,
  type ValueSource,
} from '../../../shared/identities';
import type { Exchange } from '../http/exchange';
import { sleep } from '../http/limits';
import { answerExcerpt, describeSource, diagnosePointer, jsonPointer, jwtExpiry, loginAnswerOf, readValue, setCookies, whyNotFound } from './answers';
import type { LoginAnswer } from '../../../shared/contract';

export interface LoginWireRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string | null;
}

export interface ObtainDeps {
  /** Sends one login request (no scan credential: only its own headers and cookies). */
  send(request: LoginWireRequest): Promise<Exchange>;
  /** A path relative to the API's base URL, or an absolute URL. */
  resolve(pathOrUrl: string): URL;
  /** The token URL of the API's OAuth2 security scheme, when the spec declares one. */
  specTokenUrl: string | null;
  /** Commands run only where the user runs the scanner themself (CLI, desktop), never on a team server. */
  allowCommand: boolean;
  signal: AbortSignal;
}

export interface Credential {
  /** The value placed on requests; null for a cookie session without one. */
  token: string | null;
  /** Cookies sent on every request (a cookie session's jar). */
  cookies: Record<string, string>;
  /** Headers sent on every request (a cookie session's CSRF token). */
  headers: Record<string, string>;
  /** Values the login steps extracted, for `{name}` in the placement template. */
  vars: Record<string, string>;
  /** When it stops working, if known (JWT exp, OAuth2 expires_in, cookie expiry), ms since the epoch. */
  expiresAt: number | null;
  obtainedAt: number;
  /** OAuth2: the refresh token to use next (they rotate). */
  refreshToken: string | null;
  /** Everything secret in it, for the redactor. */
  secrets: string[];
  /** The login exchanges, for the Test button and for evidence of a failed login. */
  exchanges: Exchange[];
}

/** Logging in failed; the message says which request answered what (the caller redacts it). */
export class ObtainError extends Error {
  constructor(
    message: string,
    readonly exchange: Exchange | null = null,
    /** Pointers in the answer that look like the token, when a body pointer found none. */
    readonly candidates: string[] = [],
    /** The form field the mistake is most likely in ("login.token", "login.steps.0.body", "oauth2.password"). */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'ObtainError';
  }

  /** The answer that made the login fail: its request, status and a bounded excerpt with no secret (before the caller's redaction). */
  get answer(): LoginAnswer | null {
    return this.exchange ? loginAnswerOf(this.exchange) : null;
  }
}

/** Why a source found nothing in an answer: the pointer's real mistake when it is a body pointer, else that it is not there. */
function missing(what: string, source: ValueSource, ex: Exchange): { text: string; candidates: string[] } {
  const d = diagnosePointer(source, ex);
  if (d) return d;
  return { text: `${what} (${describeSource(source)}) is not in its answer${whyNotFound(source, ex)}`, candidates: [] };
}

export const COMMAND_TIMEOUT_MS = 30_000;
/** A login answered 429 is sent again once when the API asks to wait at most this long. */
export const MAX_LOGIN_WAIT_S = 10;

function retryAfterSeconds(ex: Exchange): number | null {
  const v = ex.header('retry-after')?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, Math.ceil((at - Date.now()) / 1000)) : null;
}

/** Sends a login request; a 429 with a short Retry-After is waited out and sent once more. */
async function sendLogin(deps: ObtainDeps, request: LoginWireRequest): Promise<Exchange> {
  const ex = await deps.send(request);
  if (ex.status !== 429) return ex;
  const wait = retryAfterSeconds(ex);
  if (wait === null || wait > MAX_LOGIN_WAIT_S) return ex;
  await sleep(wait * 1000, deps.signal);
  return deps.send(request);
}

function fill(text: string, vars: Record<string, string>): string {
  return text.replace(TEMPLATE_VAR, (whole, name: string) => (Object.prototype.hasOwnProperty.call(vars, name) ? vars[name]! : whole));
}

function fillDeep(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return fill(value, vars);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, vars)]));
  return value;
}

function cookieHeader(jar: Record<string, string>): string {
  return Object.entries(jar)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

export function wireRequest(req: LoginRequest, vars: Record<string, string>, jar: Record<string, string>, resolve: (p: string) => URL): LoginWireRequest {
  const url = resolve(fill(req.path, vars));
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, fill(v, vars));
  const headers: Record<string, string> = { accept: 'application/json, */*;q=0.5' };
  let body: string | null = null;
  if (req.json !== undefined) {
    body = JSON.stringify(fillDeep(req.json, vars));
    headers['content-type'] = 'application/json';
  } else if (req.form) {
    body = new URLSearchParams(Object.entries(req.form).map(([k, v]) => [k, fill(v, vars)])).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (req.body !== undefined) {
    body = fill(req.body, vars);
  }
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = fill(v, vars);
  const jarText = cookieHeader(jar);
  if (jarText) headers.cookie = headers.cookie ? `${headers.cookie}; ${jarText}` : jarText;
  return { method: req.method, url, headers, body };
}

function label(req: LoginWireRequest): string {
  return `${req.method} ${req.url.pathname}`;
}

interface StepsResult {
  last: Exchange;
  vars: Record<string, string>;
  jar: Record<string, string>;
  jarExpiry: number | null;
  exchanges: Exchange[];
}

/** Runs login steps in order: cookies carry over, each step's extracted values fill later ones. */
async function runSteps(steps: LoginStep[], deps: ObtainDeps, kind: 'login' | 'cookie'): Promise<StepsResult> {
  const vars: Record<string, string> = {};
  const jar: Record<string, string> = {};
  let jarExpiry: number | null = null;
  const exchanges: Exchange[] = [];
  let last: Exchange | null = null;
  for (const [n, step] of steps.entries()) {
    const wire = wireRequest(step.request, vars, jar, deps.resolve);
    const ex = await sendLogin(deps, wire);
    exchanges.push(ex);
    last = ex;
    const where = steps.length > 1 ? `Step ${n + 1} (${label(wire)})` : label(wire);
    if (!ex.response) throw new ObtainError(`${where} got no answer: ${ex.error ?? 'no response'}.`, ex, [], `${kind}.steps.${n}.path`);
    if (ex.status >= 400) throw new ObtainError(`${where} answered ${answerExcerpt(ex)}.`, ex, [], `${kind}.steps.${n}.body`);
    for (const c of setCookies(ex)) {
      if (c.deleted) delete jar[c.name];
      else {
        jar[c.name] = c.value;
        if (c.expiresAt !== null) jarExpiry = jarExpiry === null ? c.expiresAt : Math.min(jarExpiry, c.expiresAt);
      }
    }
    for (const [name, source] of Object.entries(step.extract ?? {})) {
      const v = readValue(source, ex);
      if (v === null) {
        const why = missing(`the value for {${name}}`, source, ex);
        throw new ObtainError(`${where} answered ${ex.status}, but ${why.text} (for {${name}}).`, ex, why.candidates, `${kind}.steps.${n}.extract`);
      }
      vars[name] = v;
    }
  }
  return { last: last!, vars, jar, jarExpiry, exchanges };
}

function credential(partial: Partial<Credential> & Pick<Credential, 'token'>): Credential {
  const c: Credential = {
    cookies: {},
    headers: {},
    vars: {},
    expiresAt: jwtExpiry(partial.token),
    obtainedAt: Date.now(),
    refreshToken: null,
    secrets: [],
    exchanges: [],
    ...partial,
  };
  const secrets = new Set(c.secrets);
  for (const v of [c.token, c.refreshToken, ...Object.values(c.cookies), ...Object.values(c.headers)]) if (v && v.length >= 4) secrets.add(v);
  c.secrets = [...secrets];
  return c;
}

async function viaLogin(i: IdentityConfig, deps: ObtainDeps): Promise<Credential> {
  const recipe = i.login!;
  const run = await runSteps(stepsOf(recipe), deps, 'login');
  const token = readValue(recipe.token, run.last);
  if (!token) {
    const why = missing('the token', recipe.token, run.last);
    throw new ObtainError(`${label(wireRequest(stepsOf(recipe).at(-1)!.request, run.vars, {}, deps.resolve))} answered ${run.last.status}, but ${why.text}.`, run.last, why.candidates, 'login.token');
  }
  return credential({ token: token.trim(), vars: run.vars, exchanges: run.exchanges });
}

async function viaCookie(c: CookieSessionConfig, deps: ObtainDeps): Promise<Credential> {
  const run = await runSteps(stepsOf(c), deps, 'cookie');
  if (!Object.keys(run.jar).length) throw new ObtainError(`${label(wireRequest(stepsOf(c).at(-1)!.request, run.vars, {}, deps.resolve))} answered ${run.last.status} but set no cookie: it did not start a session.`, run.last);
  const headers: Record<string, string> = {};
  if (c.csrf) {
    let value: string | null = null;
    if (c.csrf.from === 'cookie') value = run.jar[c.csrf.name!] ?? null;
    else {
      // The last step that carries it (a CSRF token is often handed out before the login request).
      for (const ex of [...run.exchanges].reverse()) {
        value = c.csrf.from === 'header' ? (ex.header(c.csrf.name!) ?? null) : readValue(c.csrf.from === 'body' ? { from: 'body', pointer: c.csrf.pointer! } : { from: 'regex', pattern: c.csrf.pattern! }, ex);
        if (value) break;
      }
    }
    if (!value) {
      const where = c.csrf.from === 'cookie' ? `a ${c.csrf.name} cookie` : c.csrf.from === 'header' ? `a ${c.csrf.name} header` : c.csrf.from === 'body' ? `${c.csrf.pointer} in a body` : `/${c.csrf.pattern}/`;
      const why = c.csrf.from === 'regex' ? whyNotFound({ from: 'regex', pattern: c.csrf.pattern! }, run.last) : '';
      throw new ObtainError(`The session started, but no CSRF token was found (${where})${why}.`, run.last);
    }
    headers[c.csrf.header.toLowerCase()] = value;
  }
  return credential({ token: null, cookies: run.jar, headers, vars: run.vars, expiresAt: run.jarExpiry, exchanges: run.exchanges });
}

function basicClientAuth(id: string, secret: string): string {
  // RFC 6749 section 2.3.1: form-encode each part before joining.
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`, 'utf8').toString('base64')}`;
}

async function tokenRequest(o: OAuth2Config, grant: OAuth2Config['grant'], refreshToken: string | null, deps: ObtainDeps): Promise<Credential> {
  const where = o.token_url ?? deps.specTokenUrl;
  if (!where) throw new ObtainError('No OAuth2 token URL: give oauth2.token_url (the API\'s spec declares none).');
  const form = new URLSearchParams({ grant_type: grant });
  if (grant === 'password') {
    form.set('username', o.username!);
    form.set('password', o.password!);
  }
  if (grant === 'refresh_token') form.set('refresh_token', refreshToken ?? o.refresh_token!);
  if (o.scope) form.set('scope', o.scope);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (o.client_id) {
    if (o.client_secret && (o.client_auth ?? 'basic') === 'basic') headers.authorization = basicClientAuth(o.client_id, o.client_secret);
    else {
      form.set('client_id', o.client_id);
      if (o.client_secret) form.set('client_secret', o.client_secret);
    }
  }
  const url = deps.resolve(where);
  const ex = await sendLogin(deps, { method: 'POST', url, headers, body: form.toString() });
  const name = `The OAuth2 ${grant.replace('_', ' ')} request (POST ${url.pathname})`;
  if (!ex.response) throw new ObtainError(`${name} got no answer: ${ex.error ?? 'no response'}.`, ex);
  const body = ex.json() as Record<string, unknown> | undefined;
  if (ex.status >= 400 || !body || typeof body !== 'object') {
    const error = body && typeof body.error === 'string' ? `${body.error}${typeof body.error_description === 'string' ? ` (${body.error_description})` : ''}` : answerExcerpt(ex);
    throw new ObtainError(`${name} answered ${ex.status}: ${error}.`, ex, [], grant === 'password' ? 'oauth2.password' : grant === 'refresh_token' ? 'oauth2.refresh_token' : 'oauth2.client_secret');
  }
  const token = typeof body.access_token === 'string' ? body.access_token : null;
  if (!token) throw new ObtainError(`${name} answered ${ex.status} without an access_token.`, ex);
  const expiresIn = Number(body.expires_in);
  const expiresAt = jwtExpiry(token) ?? (Number.isFinite(expiresIn) && expiresIn > 0 ? Date.now() + expiresIn * 1000 : null);
  const next = typeof body.refresh_token === 'string' ? body.refresh_token : grant === 'refresh_token' ? (refreshToken ?? o.refresh_token ?? null) : null;
  return credential({ token, expiresAt, refreshToken: next, exchanges: [ex] });
}

async function viaOAuth2(o: OAuth2Config, deps: ObtainDeps, previous: Credential | null): Promise<Credential> {
  // A refresh token from an earlier answer is the cheap way back in; when it is refused, the grant itself.
  if (previous?.refreshToken && o.grant !== 'refresh_token') {
    try {
      return await tokenRequest(o, 'refresh_token', previous.refreshToken, deps);
    } catch (err) {
      if (!(err instanceof ObtainError)) throw err;
    }
  }
  return tokenRequest(o, o.grant, o.grant === 'refresh_token' ? (previous?.refreshToken ?? null) : null, deps);
}

const COMMAND_MAX_OUTPUT = 1024 * 1024;

/**
 * Ends a command and everything it started: on POSIX the command leads its own process group (it was
 * spawned detached), so the group goes at once; on Windows taskkill /T walks the tree.
 */
function killProcessTree(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' });
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs an identity's command in a shell and resolves with its standard output. Past the timeout, or
 * when the scan stops, the command and every process it started are killed: a `sleep` or a login
 * helper left behind would outlive the scan.
 */
export function runCommand(command: string, signal: AbortSignal, timeoutMs: number = COMMAND_TIMEOUT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let stopped: string | null = null;
    let stdout = '';
    let stderr = '';
    let size = 0;
    const child = spawn(command, { shell: true, detached: process.platform !== 'win32', windowsHide: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const stop = (why: string) => {
      if (stopped) return;
      stopped = why;
      killProcessTree(child);
    };
    const timer = setTimeout(() => stop(`did not finish within ${timeoutMs / 1000} s`), timeoutMs);
    const onAbort = () => stop('was stopped with the scan');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      size += chunk.length;
      if (size > COMMAND_MAX_OUTPUT) stop('printed more than 1 MiB');
      else stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4096);
    });
    child.on('error', (err) => {
      done();
      reject(new ObtainError(`The identity's command could not be started: ${err.message}.`));
    });
    child.on('close', (code, sig) => {
      done();
      const detail = stderr.trim().split('\n').slice(-1)[0];
      const why = stopped ?? (code === 0 ? null : code !== null ? `failed (exit code ${code})` : `failed (${sig ?? 'killed'})`);
      if (why) reject(new ObtainError(`The identity's command ${why}${detail && !stopped ? `: ${detail.slice(0, 200)}` : ''}.`));
      else resolve(stdout);
    });
  });
}

async function viaCommand(command: string, deps: ObtainDeps): Promise<Credential> {
  if (!deps.allowCommand) throw new ObtainError('A command cannot obtain credentials on a team server: use a login recipe, OAuth2 or a static token.');
  const out = await runCommand(command, deps.signal);
  // Tools print notices before the token: the last non-empty line is the token.
  const token = out.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).at(-1);
  if (!token) throw new ObtainError('The identity\'s command printed nothing.');
  return credential({ token });
}

/** Obtains (or renews, given the previous credential) an identity's credential. */
export async function obtainCredential(i: IdentityConfig, deps: ObtainDeps, previous: Credential | null = null): Promise<Credential> {
  switch (obtainKind(i)) {
    case 'static':
      return credential({ token: i.token!.trim() });
    case 'login':
      return viaLogin(i, deps);
    case 'oauth2':
      return viaOAuth2(i.oauth2!, deps, previous);
    case 'cookie':
      return viaCookie(i.cookie!, deps);
    case 'command':
      return viaCommand(i.command!, deps);
  }
}

/** Can a fresh credential be had by doing it again (everything but a static value)? */
export function renewable(i: IdentityConfig): boolean {
  return obtainKind(i) !== 'static';
}

/**
 * What the Test button shows of a credential: its kind, length and expiry, never a character of it
 * (a part of a key is a part of a secret).
 */
export function maskToken(token: string, expiresAt: number | null = jwtExpiry(token)): string {
  const t = token.trim();
  const kind = jwtExpiry(t) !== null || /^[\w-]+\.[\w-]+\.[\w-]*$/.test(t) ? 'JWT, ' : '';
  const left = expiresAt === null ? '' : expiresAt <= Date.now() ? ', expired' : `, expires in ${Math.round((expiresAt - Date.now()) / 1000)} s`;
  return `•••••••• (${kind}${t.length} characters${left})`;
}

export { jsonPointer };
