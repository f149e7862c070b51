// Test users the scan creates for itself: the API's sign-up operation (found in the spec or named
// by the user) registers users with generated names, e-mails and passwords; they log in the way the
// configured identities do (their recipe with the new user's name and password), or through the
// spec's login operation. They fill missing identity slots and are the victims of account-level
// checks, which keeps those checks inside the safety rule: the scan only ever harms its own users.

import type { Endpoint, JsonSchema } from '../../../shared/contract';
import { stepsOf, type IdentityConfig, type LoginStep, type PlacementConfig, type SignupSetting, type ValueSource } from '../../../shared/identities';
import { describeEndpoint } from '../checks/common/helpers';
import type { ProbeRequest } from '../http/engine';
import type { Exchange } from '../http/exchange';
import { sleep } from '../http/limits';
import { generatePassword } from '../passwords';
import { randomAlnum } from '../random';
import { encodeBody, pathParamNames } from '../requests';
import { normalizeTemplate } from '../resources';
import { synthesize } from '../schema-values';
import { answerExcerpt, setCookies } from './answers';
import { buildCredential, type CredentialShape } from './credential-shape';
import { obtainCredential, ObtainError } from './obtain';
import type { CreatedAccount, IdentitySession } from './session';
import { identityValues } from './verify';
import { confirmationPairs } from '../checks/common/confirmation-fields';

const SIGNUP_SEGMENT = /^(sign-?up|signup|register|registration|registrations|users?|accounts?|members?|customers?|join|enrol+)$/i;
const NOT_SIGNUP = /log-?in|sign-?in|signin|session|token|password|reset|forgot|verify|verification|confirm|otp|invite|admin|import|bulk|batch/i;
const LOGIN_SEGMENT = /^(log-?in|login|sign-?in|signin|session|sessions|token|tokens|auth|authenticate|authentication)$/i;
export const PASSWORD_FIELD = /^(password|passwd|pass|pwd|new_?password|user_?password|passphrase)$/i;
export const CONFIRM_FIELD = /^(password_?confirm(ation)?|confirm_?password|password_?2|repeat_?password|re_?password|password_?again|verify_?password)$/i;
const USERNAME_FIELD = /^(user_?name|login|handle|nick(name)?|user)$/i;
const EMAIL_FIELD = /^(e-?mail|email_?address|mail)$/i;
const TOKEN_FIELDS = ['access_token', 'accessToken', 'auth_token', 'authToken', 'token', 'jwt', 'id_token', 'idToken', 'session_token', 'sessionToken', 'api_key', 'apiKey', 'key'];
const JWT = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;

/** Most users one scan registers: slots to fill plus one victim per account check. */
export const MAX_CREATED_USERS = 12;
const REGISTRATION_RETRY_MS = 250;

export interface SignupOperation {
  endpoint: Endpoint;
  /** Where the body's fields sit: [] for the top level, ["user"] for {"user": {...}}. */
  at: string[];
  passwordField: string;
  usernameField: string | null;
  emailField: string | null;
  confirmFields: string[];
}

type Props = Record<string, JsonSchema>;

/** An object schema's properties (allOf parts merged), or null. */
export function propsOf(schema: JsonSchema | null | undefined): Props | null {
  if (!schema || typeof schema !== 'object') return null;
  const s = schema as { properties?: Props; allOf?: JsonSchema[] };
  if (s.properties && typeof s.properties === 'object') return s.properties;
  if (Array.isArray(s.allOf)) {
    const merged: Props = {};
    for (const part of s.allOf) Object.assign(merged, propsOf(part) ?? {});
    return Object.keys(merged).length ? merged : null;
  }
  return null;
}

/** The account fields of a body schema: at the top level or inside one wrapper object ({"user": {...}}). */
function accountFields(schema: JsonSchema | null | undefined): Omit<SignupOperation, 'endpoint'> | null {
  const top = propsOf(schema);
  if (!top) return null;
  const look = (props: Props, at: string[]): Omit<SignupOperation, 'endpoint'> | null => {
    const names = Object.keys(props);
    const passwordField = names.find((n) => PASSWORD_FIELD.test(n));
    if (!passwordField) return null;
    const usernameField = names.find((n) => USERNAME_FIELD.test(n)) ?? null;
    const emailField = names.find((n) => EMAIL_FIELD.test(n)) ?? null;
    if (!usernameField && !emailField) return null;
    // Fields that repeat the password by name too (passwordRepeat, password_confirmation): the scan's users type it twice alike.
    const repeats = confirmationPairs(props).filter((p) => p.of === passwordField).map((p) => p.confirm);
    return { at, passwordField, usernameField, emailField, confirmFields: [...new Set([...names.filter((n) => CONFIRM_FIELD.test(n)), ...repeats])] };
  };
  const direct = look(top, []);
  if (direct) return direct;
  for (const [k, v] of Object.entries(top)) {
    const inner = propsOf(v);
    const found = inner && look(inner, [k]);
    if (found) return found;
  }
  return null;
}

function lastStaticSegment(path: string): string {
  const segs = path.split('/').filter((s) => s && !s.startsWith('{'));
  return segs.at(-1) ?? '';
}

/** The API's sign-up operation: the one the user named, or a POST that registers users by its path and body. */
export function findSignupOperation(endpoints: readonly Endpoint[], setting: SignupSetting): SignupOperation | null {
  if (setting === 'off') return null;
  if (typeof setting === 'object') return namedSignupOperation(endpoints, setting);
  return findSignupOperations(endpoints)[0] ?? null;
}

/** Every operation that registers users by its path and body, the most sign-up-like first (an API may have several, each with its own users). */
export function findSignupOperations(endpoints: readonly Endpoint[]): SignupOperation[] {
  return endpoints
    .filter((e) => e.method === 'POST' && pathParamNames(e.path).length === 0 && !NOT_SIGNUP.test(e.path) && SIGNUP_SEGMENT.test(lastStaticSegment(e.path)))
    .map((e) => ({ e, fields: accountFields(e.request_body?.schema), rank: /sign-?up|register|registration|join/i.test(lastStaticSegment(e.path)) ? 0 : 1 }))
    .filter((c) => c.fields)
    .sort((a, b) => a.rank - b.rank)
    .map((c) => ({ endpoint: c.e, ...c.fields! }));
}

function namedSignupOperation(endpoints: readonly Endpoint[], setting: Exclude<SignupSetting, string>): SignupOperation | null {
  const [method, path] = setting.operation.split(' ');
  const wanted = normalizeTemplate(path!);
  const e = endpoints.find((x) => x.method === method!.toUpperCase() && normalizeTemplate(x.path) === wanted);
  const fields = e ? accountFields(e.request_body?.schema) : null;
  return e ? { endpoint: e, ...(fields ?? { at: [], passwordField: 'password', usernameField: 'username', emailField: 'email', confirmFields: [] }) } : null;
}

/** The spec's login operation: a POST named like a login whose body takes a password and a user name or e-mail. */
export function findLoginOperation(endpoints: readonly Endpoint[]): { endpoint: Endpoint; fields: Omit<SignupOperation, 'endpoint'> } | null {
  for (const e of endpoints) {
    if (e.method !== 'POST' || pathParamNames(e.path).length || !LOGIN_SEGMENT.test(lastStaticSegment(e.path)) || /refresh|logout|reset|otp/i.test(e.path)) continue;
    const fields = accountFields(e.request_body?.schema);
    if (fields) return { endpoint: e, fields };
  }
  return null;
}

function setAt(body: Record<string, unknown>, at: string[], field: string, value: unknown): void {
  let obj = body;
  for (const k of at) {
    if (!obj[k] || typeof obj[k] !== 'object' || Array.isArray(obj[k])) obj[k] = {};
    obj = obj[k] as Record<string, unknown>;
  }
  obj[field] = value;
}

/** Replaces the user name, e-mail and password in a configured identity's login request with a created user's. */
function substituteAccount(value: unknown, account: Pick<CreatedAccount, 'username' | 'email' | 'password'>, key: string | null = null): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    if (!key) return value;
    if (PASSWORD_FIELD.test(key)) return account.password;
    if (EMAIL_FIELD.test(key)) return account.email ?? account.username ?? value;
    if (USERNAME_FIELD.test(key)) return account.username ?? account.email ?? value;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => substituteAccount(v, account, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteAccount(v, account, k)]));
  return value;
}

function stepFor(step: LoginStep, account: Pick<CreatedAccount, 'username' | 'email' | 'password'>): LoginStep {
  const r = step.request;
  return {
    ...step,
    request: {
      ...r,
      ...(r.json !== undefined ? { json: substituteAccount(r.json, account) } : {}),
      ...(r.form ? { form: substituteAccount(r.form, account) as Record<string, string> } : {}),
      ...(r.query ? { query: substituteAccount(r.query, account) as Record<string, string> } : {}),
    },
  };
}

/** Whether a configured identity's way of logging in can be reused with another user's name and password. */
export function reusableLogin(i: IdentityConfig): boolean {
  const steps = i.login ? stepsOf(i.login) : i.cookie ? stepsOf(i.cookie) : null;
  if (steps) {
    const text = JSON.stringify(steps.map((s) => [s.request.json ?? null, s.request.form ?? null]));
    return /"(password|passwd|pass|pwd|passphrase)"/i.test(text) && steps.every((s) => s.request.body === undefined);
  }
  return !!i.oauth2 && i.oauth2.grant === 'password';
}

/** A created user's identity: the template's way of logging in, with the user's own name and password. */
export function loginFor(template: IdentityConfig, name: string, account: Pick<CreatedAccount, 'username' | 'email' | 'password'>, place: PlacementConfig | undefined): IdentityConfig {
  const base = { name, role: 'user' as const, ...(place ? { place } : {}) };
  if (template.login) return { ...base, login: { steps: stepsOf(template.login).map((s) => stepFor(s, account)), token: template.login.token } };
  if (template.cookie) {
    const { request: _r, extract: _e, steps: _s, ...rest } = template.cookie;
    return { ...base, cookie: { ...rest, steps: stepsOf(template.cookie).map((s) => stepFor(s, account)) } };
  }
  return { ...base, oauth2: { ...template.oauth2!, username: account.username ?? account.email ?? '', password: account.password } };
}

/** Where the token is in a login answer nobody described: a token-named field, a JWT anywhere, or a session cookie. */
export function discoverTokenSource(ex: Exchange): ValueSource | 'cookie' | null {
  const body = ex.json();
  const visit = (v: unknown, path: string, depth: number): string | null => {
    if (!v || typeof v !== 'object' || depth > 3) return null;
    const obj = v as Record<string, unknown>;
    for (const f of TOKEN_FIELDS) if (typeof obj[f] === 'string' && (obj[f] as string).length >= 16) return `${path}/${f}`;
    for (const [k, x] of Object.entries(obj)) if (typeof x === 'string' && JWT.test(x)) return `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    for (const [k, x] of Object.entries(obj)) {
      const found = visit(x, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1);
      if (found) return found;
    }
    return null;
  };
  const pointer = visit(body, '', 0);
  if (pointer) return { from: 'body', pointer };
  for (const h of ['authorization', 'x-auth-token', 'x-access-token', 'x-api-key', 'x-session-token']) {
    const v = ex.header(h);
    if (v && v.length >= 16) return { from: 'header', name: h };
  }
  return setCookies(ex).some((c) => !c.deleted) ? 'cookie' : null;
}

/** A 2xx answer that still says the request failed ({"status": "fail"}, {"success": false}, {"error": ...}). */
export function failedInBody(ex: Exchange): boolean {
  const b = ex.json();
  if (!b || typeof b !== 'object' || Array.isArray(b)) return false;
  const o = b as Record<string, unknown>;
  if (typeof o.status === 'string' && /^(fail|failed|failure|error)$/i.test(o.status)) return true;
  if (o.success === false || o.ok === false) return true;
  return (o.error !== undefined && o.error !== null && o.error !== false && o.error !== '') || (Array.isArray(o.errors) && o.errors.length > 0);
}

/** The id a registration answer gives the new user (id, user_id, data.id...), or from its Location. */
export function registeredId(ex: Exchange): string | null {
  const b = ex.json();
  const pick = (o: unknown, depth: number): string | null => {
    if (!o || typeof o !== 'object' || Array.isArray(o) || depth > 2) return null;
    const r = o as Record<string, unknown>;
    for (const f of ['id', 'user_id', 'userId', 'uid', 'account_id', 'accountId']) if (typeof r[f] === 'string' || typeof r[f] === 'number') return String(r[f]);
    for (const w of ['data', 'user', 'account', 'result']) {
      const x = pick(r[w], depth + 1);
      if (x) return x;
    }
    return null;
  };
  const fromBody = pick(b, 0);
  if (fromBody) return fromBody;
  const loc = ex.header('location');
  const last = loc?.split('?')[0]!.split('/').filter(Boolean).at(-1);
  return last && /^[\w-]{1,64}$/.test(last) ? last : null;
}

export interface AccountsDeps {
  operation: SignupOperation;
  /** A configured identity whose login works for other users (by field names); null: the spec's login operation. */
  loginTemplate: IdentityConfig | null;
  loginOperation: ReturnType<typeof findLoginOperation>;
  /** The primary identity's own placement, which created users share. */
  place: PlacementConfig | undefined;
  /** Sends a request without credentials, charged to the scan only. */
  send(request: ProbeRequest): Promise<Exchange>;
  resolve(pathOrUrl: string): URL;
  /** The token URL of the API's OAuth2 scheme (created users of an OAuth2 password grant). */
  specTokenUrl: string | null;
  /** Adds a created user's session to the scan (logged in by the caller). */
  addSession(config: IdentityConfig, account: CreatedAccount): IdentitySession;
  /** The session's own profile: a /me-like read as it, or null when the API has no such endpoint. */
  profile(session: IdentitySession): Promise<Exchange | null>;
  /** `field` names what the values are ("password"); tokens by default. */
  addSecrets(values: string[], field?: string): void;
  /** Key 1's credential when it is built from its user name and password (credential-shape.ts): created users' are built alike. */
  credentialShape?: () => Promise<CredentialShape | null>;
  /** The profile read of another sign-up's users (the self read that belongs to it, self-read.ts). */
  profileFor?: (signup: Endpoint) => AccountsDeps['profile'];
}

export type CreateResult = { session: IdentitySession; account: CreatedAccount; registration: Exchange } | { error: string; registration: Exchange | null };

export class Accounts {
  readonly created: CreatedAccount[];
  private recipe: Promise<((name: string, a: CreatedAccount) => IdentityConfig) | string> | null = null;
  /** Shared with the accounts of the API's other sign-ups: one limit and one list for the scan. */
  private readonly tally: { count: number };
  /** Created users send a credential built from their name and password, not one a login gave them. */
  private built = false;
  private attackerMemo: Promise<CreateResult> | null = null;

  constructor(
    private readonly deps: AccountsDeps,
    shared?: { tally: { count: number }; created: CreatedAccount[] },
  ) {
    this.tally = shared?.tally ?? { count: 0 };
    this.created = shared?.created ?? [];
  }

  /**
   * The users of another sign-up operation of the same API (each may keep its own users), read back
   * through the self read that belongs to that sign-up; same limit, same list of created users. Null
   * when the operation does not register users.
   */
  forSignup(endpoint: Endpoint): Accounts | null {
    if (endpoint.id === this.deps.operation.endpoint.id) return this;
    const operation = findSignupOperations([endpoint])[0];
    if (!operation || !this.deps.profileFor) return null;
    return new Accounts({ ...this.deps, operation, profile: this.deps.profileFor(endpoint) }, { tally: this.tally, created: this.created });
  }

  get operation(): string {
    return describeEndpoint(this.deps.operation.endpoint);
  }

  get signupEndpoint(): Endpoint {
    return this.deps.operation.endpoint;
  }

  /**
   * Made-up credentials for a new user: its own random password, fitting the usual rules (length, case, digit,
   * symbol). Crypto-random, not from the scan's seed: the password must stay secret, and the name must not
   * collide with a user an earlier scan registered.
   */
  private newAccount(purpose: string): CreatedAccount {
    const tag = randomAlnum(8).toLowerCase();
    const op = this.deps.operation;
    const username = op.usernameField ? `pcs${tag}` : null;
    return { operation: this.operation, username, email: `pcs.${tag}@example.com`, password: generatePassword(), id: null, purpose };
  }

  /** The registration request for an account, with extra body properties (mass assignment). */
  private registration(account: CreatedAccount, extra: Record<string, unknown>): ProbeRequest {
    const op = this.deps.operation;
    const e = op.endpoint;
    const synthesized = synthesize(e.request_body?.schema ?? null, { forRequest: true, unique: account.username ?? account.email ?? undefined });
    const body: Record<string, unknown> = synthesized && typeof synthesized === 'object' && !Array.isArray(synthesized) ? (synthesized as Record<string, unknown>) : {};
    setAt(body, op.at, op.passwordField, account.password);
    for (const c of op.confirmFields) setAt(body, op.at, c, account.password);
    if (op.usernameField) setAt(body, op.at, op.usernameField, account.username);
    if (op.emailField) setAt(body, op.at, op.emailField, account.email);
    for (const [k, v] of Object.entries(extra)) setAt(body, op.at, k, v);
    const encoded = encodeBody(body, e.request_body?.content_type || 'application/json') ?? { body: JSON.stringify(body), contentType: 'application/json' };
    return { method: e.method, url: this.deps.resolve(e.path), headers: { 'content-type': encoded.contentType }, body: encoded.body, auth: { kind: 'none' }, noRenew: true, registers: true };
  }

  /**
   * Registers one user. `extra` adds body properties (privilege fields for the mass-assignment
   * check). The user is not logged in: see create().
   */
  async register(purpose: string, extra: Record<string, unknown> = {}): Promise<{ account: CreatedAccount; registration: Exchange; number: number } | { error: string; registration: Exchange | null }> {
    if (this.tally.count >= MAX_CREATED_USERS) return { error: `the scan already registered ${MAX_CREATED_USERS} users`, registration: null };
    const number = ++this.tally.count;
    const account = this.newAccount(purpose);
    this.deps.addSecrets([account.password], 'password');
    const request = this.registration(account, extra);
    let ex = await this.deps.send(request);
    // A server error may be passing (another check reset a table the sign-up needs): once more, a moment later.
    if (ex.status >= 500) {
      await sleep(REGISTRATION_RETRY_MS);
      ex = await this.deps.send(request);
    }
    if (!ex.response) return { error: `${this.operation} got no answer (${ex.error ?? 'no response'})`, registration: ex };
    if (ex.status === 429) return { error: `${this.operation} refused more sign-ups (429)`, registration: ex };
    if (ex.status >= 400 || failedInBody(ex)) return { error: `${this.operation} answered ${answerExcerpt(ex)}`, registration: ex };
    account.id = registeredId(ex);
    this.created.push(account);
    return { account, registration: ex, number };
  }

  /** How created users log in, decided once (a trial login when only the spec's login operation is known). */
  private loginRecipe(first: CreatedAccount): Promise<((name: string, a: CreatedAccount) => IdentityConfig) | string> {
    if (!this.recipe) {
      this.recipe = (async () => {
        const configured = this.deps.loginTemplate;
        if (configured) return (name: string, a: CreatedAccount) => loginFor(configured, name, a, this.deps.place);
        const shape = await this.deps.credentialShape?.();
        if (shape) {
          this.built = true;
          const place = this.deps.place;
          return (name: string, a: CreatedAccount): IdentityConfig => ({ name, role: 'user', token: buildCredential(shape, a), ...(place ? { place } : {}) });
        }
        const op = this.deps.loginOperation;
        if (!op) return 'the API has no login operation the scan recognises, and no identity logs in with a user name and password';
        // Try it once to learn where the token comes back.
        const body: Record<string, unknown> = {};
        setAt(body, op.fields.at, op.fields.passwordField, first.password);
        if (op.fields.usernameField && first.username) setAt(body, op.fields.at, op.fields.usernameField, first.username);
        if (op.fields.emailField) setAt(body, op.fields.at, op.fields.emailField, first.email);
        const trial = await this.deps.send({ method: 'POST', url: this.deps.resolve(op.endpoint.path), headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), auth: { kind: 'none' }, noRenew: true });
        if (!trial.ok || failedInBody(trial)) return `logging in a created user at ${describeEndpoint(op.endpoint)} answered ${answerExcerpt(trial)}`;
        const source = discoverTokenSource(trial);
        if (!source) return `${describeEndpoint(op.endpoint)} logged a created user in, but its answer has no token or session cookie the scan recognises`;
        const request = { method: 'POST' as const, path: op.endpoint.path, json: body };
        const template: IdentityConfig = source === 'cookie' ? { name: 'template', role: 'user', cookie: { request } } : { name: 'template', role: 'user', login: { request, token: source } };
        return (name: string, a: CreatedAccount) => loginFor(template, name, a, this.deps.place);
      })();
    }
    return this.recipe;
  }

  /** Registers a user and logs it in: a new session in the scan, with what the API says it is. */
  async create(purpose: string, extra: Record<string, unknown> = {}): Promise<CreateResult> {
    const reg = await this.register(purpose, extra);
    if ('error' in reg) return reg;
    const recipe = await this.loginRecipe(reg.account);
    if (typeof recipe === 'string') return { error: recipe, registration: reg.registration };
    const session = this.deps.addSession(recipe(`created-${reg.number}`, reg.account), reg.account);
    session.registration = reg.registration;
    try {
      await session.start();
    } catch (err) {
      return { error: `the created user could not log in: ${err instanceof ObtainError ? err.message : (err as Error).message}`, registration: reg.registration };
    }
    const me = await this.deps.profile(session);
    // A built credential is never refused at a login: the user's own profile is where it is.
    if (this.built && me && !me.ok) return { error: `the created user's credential, built from its name and password the way key 1's is, was refused (GET ${new URL(me.request.url).pathname} answered ${answerExcerpt(me)})`, registration: reg.registration };
    const values = me?.ok ? identityValues(me.json()) : {};
    session.values = values;
    reg.account.id ??= values.id ?? values.user_id ?? values.userId ?? null;
    const who = values.username ?? values.email ?? reg.account.username ?? reg.account.email;
    session.verifiedAs = `${who} (registered by the scan)`;
    return { session, account: reg.account, registration: reg.registration };
  }

  /**
   * The user the account checks act as: one for the whole scan, registered on first use (its own
   * account is only ever harmed by an API that applies a change to the caller instead of the target).
   */
  attacker(): Promise<CreateResult> {
    this.attackerMemo ??= this.create('attacker of the account checks');
    return this.attackerMemo;
  }

  /** A session's own profile (a /me-like read as it): what it is, for proofs. */
  profile(session: IdentitySession): Promise<Exchange | null> {
    return this.deps.profile(session);
  }

  /**
   * A one-off login as a created user with a given password (the proof of an account takeover):
   * the exchanges of the attempt and whether it gave a credential.
   */
  async tryLogin(account: CreatedAccount, password: string): Promise<{ ok: boolean; exchanges: Exchange[]; error: string | null }> {
    const recipe = await this.loginRecipe(account);
    if (typeof recipe === 'string') return { ok: false, exchanges: [], error: recipe };
    // Any credential is "obtained" without a request: only a read as it could tell, and no login proves a password here.
    if (this.built) return { ok: false, exchanges: [], error: 'created users send a credential built from their name and password; there is no login to prove a password with' };
    // A password a check set is a credential of a real account on the target: redacted like the others.
    this.deps.addSecrets([password], 'password');
    const config = recipe('login-proof', { ...account, password });
    const exchanges: Exchange[] = [];
    try {
      const c = await obtainCredential(config, {
        send: async (r) => {
          const ex = await this.deps.send({ method: r.method, url: r.url, headers: r.headers, body: r.body, auth: { kind: 'none' }, noRenew: true, login: true });
          exchanges.push(ex);
          return ex;
        },
        resolve: this.deps.resolve,
        specTokenUrl: this.deps.specTokenUrl,
        allowCommand: false,
        signal: new AbortController().signal,
      });
      this.deps.addSecrets(c.secrets);
      return { ok: true, exchanges, error: null };
    } catch (err) {
      return { ok: false, exchanges, error: (err as Error).message };
    }
  }
}
