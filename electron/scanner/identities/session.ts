// One identity during a scan: its current credential, put on the requests made as it, renewed
// before a known expiry and after a 401 where its canary (a request that worked as it before) now
// fails too — one login in flight however many requests wait — and counted for the scan result.
// A configured identity whose fresh login fails (or whose static key stops working) stops the scan.

import { describeObtain, type IdentityConfig, type IdentityRole } from '../../../shared/identities';
import { placeCredential, type HttpEngine, type ProbeRequest } from '../http/engine';
import type { Exchange, KeyNumber } from '../http/exchange';
import { obtainCredential, ObtainError, renewable, type Credential, type LoginWireRequest, type ObtainDeps } from './obtain';
import { setCookies } from './answers';
import { addCookie, type CredentialPlacement } from './placement';
import { sleep } from '../http/limits';

/** A request that worked as the identity: re-sent to tell an expired credential from an endpoint that refuses it. */
export interface Canary {
  /** "GET /me". */
  label: string;
  probe: ProbeRequest;
  /** The status it got when it was chosen. */
  status: number;
}

export interface CreatedAccount {
  /** The operation that registered it ("POST /users/v1/register"). */
  operation: string;
  username: string | null;
  email: string | null;
  password: string;
  /** The id the API gave it, when the answer said. */
  id: string | null;
  /** What the scan uses it for ("key 2", "victim of an account check"). */
  purpose: string;
}

export interface SessionDeps {
  obtain: ObtainDeps;
  /** Sends a request as this identity without renewal (the canary). */
  sendAs(probe: ProbeRequest): Promise<Exchange>;
  /** New secrets (a fresh token, cookies) for the redactor, before they are used. */
  /** `field` names what the values are ("password"); tokens by default. */
  addSecrets(values: string[], field?: string): void;
  /** Stops the scan with a reason (a configured identity is dead); `login`: the failed login's answer, when a login failed. */
  fail(reason: string, login?: ObtainError): void;
}

/**
 * A session's dependencies over one engine: its logins go out without a scan credential, in login
 * scope, never renewed; its canary as itself, never renewed. `onLogin` sees each login exchange.
 */
export function sessionDepsOver(
  engine: HttpEngine,
  o: Pick<SessionDeps, 'addSecrets' | 'fail'> & Pick<ObtainDeps, 'specTokenUrl' | 'allowCommand' | 'signal'> & { onLogin?(request: LoginWireRequest, ex: Exchange): void },
): SessionDeps {
  return {
    obtain: {
      send: async (r) => {
        const ex = await engine.send({ method: r.method, url: r.url, headers: r.headers, body: r.body, auth: { kind: 'none' }, noRenew: true, login: true, followRedirects: false });
        o.onLogin?.(r, ex);
        return ex;
      },
      resolve: (p) => engine.resolve(p),
      specTokenUrl: o.specTokenUrl,
      allowCommand: o.allowCommand,
      signal: o.signal,
    },
    sendAs: (probe) => engine.send({ ...probe, noRenew: true }),
    addSecrets: o.addSecrets,
    fail: o.fail,
  };
}

/** How long a passing canary vouches for the credential: 401s within it are the endpoint's refusals. */
const CANARY_TRUST_MS = 1000;
const MAX_MARGIN_MS = 30_000;
/** Pauses before a failed renewal login is sent again. */
const RENEWAL_PAUSES_MS = [500, 2000];
/** Cookies kept per identity from the API's answers: a few sessions, not a tracker's worth. */
const MAX_JAR = 8;

function hasCookie(header: string | undefined, name: string): boolean {
  return !!header && header.split(';').some((p) => p.trim().split('=', 1)[0] === name);
}

/** The first login is tried once more after this pause: a target still seeding or resetting its data. */
const FIRST_LOGIN_PAUSES_MS = [1000];

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export class IdentitySession {
  credential: Credential | null = null;
  /** Bumped on every new credential: a request's stamp tells whether it left with an older one. */
  generation = 0;
  /** Logins after the first. */
  refreshes = 0;
  /** Logins that failed. */
  failures = 0;
  /** Who the API says it is ("name1 (GET /me)"). */
  verifiedAs: string | null = null;
  /** Identity values the API gave it (id, username, email...), from a /me-like answer. */
  values: Record<string, string> = {};
  /** For a user the scan registered: the registration's exchange (a finding's steps start with it). */
  registration: Exchange | null = null;
  canary: Canary | null = null;
  dead: string | null = null;
  private inflight: Promise<void> | null = null;
  /**
   * Cookies the API set in its answers to this identity's requests (a session a GET /login-like route opens
   * for the token it was sent), sent back as a browser would; the login's own cookies stay in the credential.
   */
  private readonly jar = new Map<string, string>();
  private canaryCheck: Promise<boolean | null> | null = null;
  private canaryPassedAt = -Infinity;
  private canaryPassedGeneration = -1;

  constructor(
    readonly config: IdentityConfig,
    /** The check slot it fills (1 primary user, 2 second user, 3 privileged, 4 lower), or null. */
    public slot: KeyNumber | null,
    /** Its own placement (the identity's `place`); null: where the spec says. */
    readonly placements: CredentialPlacement[] | null,
    private readonly deps: SessionDeps,
    /** Set for users the scan registered itself. */
    readonly account: CreatedAccount | null = null,
  ) {}

  get name(): string {
    return this.config.name;
  }

  get role(): IdentityRole {
    return this.config.role;
  }

  get renewable(): boolean {
    return renewable(this.config);
  }

  /** How the credential is obtained, for the identity table. */
  get obtained(): string {
    return this.account ? `created by the scan (${this.account.operation})` : describeObtain(this.config);
  }

  /** The current token (checks that tamper with it, the redactor); null for a cookie session. */
  get token(): string | null {
    return this.credential?.token ?? null;
  }

  /** The exchanges of the current credential's login (what the API answered when it issued it). */
  get loginExchanges(): readonly Exchange[] {
    return this.credential?.exchanges ?? [];
  }

  /** The first login. Throws ObtainError with what the API answered. */
  async start(): Promise<void> {
    await this.login(false);
  }

  private login(isRefresh: boolean): Promise<void> {
    if (this.inflight) return this.inflight;
    this.inflight = (async () => {
      try {
        const fresh = await this.obtainPatiently(isRefresh ? RENEWAL_PAUSES_MS : FIRST_LOGIN_PAUSES_MS, !isRefresh);
        this.deps.addSecrets(fresh.secrets);
        this.credential = fresh;
        this.generation += 1;
        if (isRefresh) this.refreshes += 1;
      } catch (err) {
        this.failures += 1;
        throw err;
      }
    })().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /**
   * A login, tried again after each pause when it fails: a login that worked before and fails now is
   * often the API's passing trouble (a database being reset or locked, a restart), and giving up stops
   * the scan; a first login gets one more try too (a target still seeding its data).
   */
  private async obtainPatiently(pauses: readonly number[], first = false): Promise<Credential> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await obtainCredential(this.config, this.deps.obtain, this.credential);
      } catch (err) {
        if (attempt >= pauses.length || this.deps.obtain.signal.aborted) throw err;
        // A first login whose answer holds a token, only not where the recipe looks: the recipe's mistake, the same next time.
        // (An answer with no token at all may be an API still seeding its users: that one is tried again.)
        if (first && err instanceof ObtainError && err.candidates.length > 0) throw err;
        await sleep(pauses[attempt]!, this.deps.obtain.signal);
      }
    }
  }

  /** The credential expires within the margin (a fifth of its life, at most 30 s) and can be renewed. */
  stale(now = Date.now()): boolean {
    const c = this.credential;
    if (!c || c.expiresAt === null || this.dead || !this.renewable) return false;
    const life = c.expiresAt - c.obtainedAt;
    const margin = Math.max(1000, Math.min(MAX_MARGIN_MS, life / 5));
    return now >= c.expiresAt - margin;
  }

  /** Renews a credential about to expire before a request goes out with it. */
  async ensureFresh(): Promise<void> {
    try {
      await this.login(true);
    } catch (err) {
      this.kill(this.loginFailed(err), err);
    }
  }

  /**
   * Puts the credential on a request: the token where the placements say (the identity's own,
   * else the endpoint's), the session's cookies and CSRF header. Returns the credential's stamp.
   */
  apply(headers: Record<string, string>, url: URL, specPlacements: readonly CredentialPlacement[]): { url: URL; stamp: number } {
    const c = this.credential;
    if (!c) return { url, stamp: this.generation };
    const target = c.token === null ? url : placeCredential(c.token, headers, url, this.placements ?? specPlacements, c.vars);
    for (const name in c.cookies) addCookie(headers, name, c.cookies[name]!);
    for (const [name, value] of this.jar) if (!(name in c.cookies) && !hasCookie(headers.cookie, name)) addCookie(headers, name, value);
    for (const name in c.headers) headers[name] = c.headers[name]!;
    return { url: target, stamp: this.generation };
  }

  /** Keeps the cookies an answer to this identity's request sets (and drops those it deletes); their values are secrets. */
  keepCookies(ex: Pick<Exchange, 'header'>): void {
    const set = setCookies(ex);
    if (!set.length) return;
    const fresh: string[] = [];
    for (const c of set) {
      if (c.deleted) this.jar.delete(c.name);
      else if (this.jar.size < MAX_JAR || this.jar.has(c.name)) {
        if (this.jar.get(c.name) !== c.value) fresh.push(c.value);
        this.jar.set(c.name, c.value);
      }
    }
    if (fresh.length) this.deps.addSecrets(fresh.filter((v) => v.length >= 8));
  }

  /** Takes the first request that worked as this identity as its canary, if it has none. */
  observe(ex: Exchange): void {
    if (this.canary || !ex.ok || ex.request.method !== 'GET') return;
    this.canary = {
      label: `GET ${new URL(ex.request.url).pathname}`,
      probe: { method: 'GET', url: ex.request.url, headers: stripCredentials(ex.request.headers), auth: ex.request.auth, placements: ex.request.placements },
      status: ex.status,
    };
  }

  /**
   * A request sent with credential `stamp` got 401. True when the credential has been renewed since
   * (the caller retries once); false when the 401 is the endpoint's own answer, or nothing could
   * be renewed (then a configured identity stops the scan).
   */
  async renewAfter401(stamp: number): Promise<boolean> {
    if (this.dead || this.account) return false;
    if (stamp !== this.generation) return true;
    if (this.inflight) return this.inflight.then(() => true, () => false);
    const expiresAt = this.credential?.expiresAt ?? null;
    const expired = expiresAt !== null && Date.now() >= expiresAt;
    if (!expired) {
      const passes = await this.canaryPasses();
      if (stamp !== this.generation) return true;
      if (passes !== false) return false;
    }
    if (!this.renewable) {
      const canary = this.canary;
      this.kill(
        `${capitalized(this.name)} stopped working during the scan: ${canary ? `${canary.label} answered 401 where it answered ${canary.status} earlier` : 'its token has expired'}. ` +
          'The key may have expired or been revoked. Findings recorded before this point are kept.',
      );
      return false;
    }
    try {
      await this.login(true);
      return true;
    } catch (err) {
      this.kill(this.loginFailed(err), err);
      return false;
    }
  }

  /** true: the canary still works (the credential is fine); false: it gets 401 now; null: no canary to tell. */
  private canaryPasses(): Promise<boolean | null> {
    if (!this.canary) return Promise.resolve(null);
    if (this.canaryPassedGeneration === this.generation && performance.now() - this.canaryPassedAt < CANARY_TRUST_MS) return Promise.resolve(true);
    if (this.canaryCheck) return this.canaryCheck;
    const generation = this.generation;
    this.canaryCheck = this.deps
      .sendAs(this.canary.probe)
      .then((ex) => {
        if (ex.status === 401) return false;
        if (ex.response) {
          this.canaryPassedAt = performance.now();
          this.canaryPassedGeneration = generation;
        }
        return true;
      })
      .catch(() => null)
      .finally(() => {
        this.canaryCheck = null;
      });
    return this.canaryCheck;
  }

  private loginFailed(err: unknown): string {
    const why = err instanceof ObtainError ? err.message : (err as Error)?.message ?? String(err);
    return `${capitalized(this.name)}'s credential stopped working during the scan and logging in again failed: ${why} Findings recorded before this point are kept.`;
  }

  private kill(reason: string, err?: unknown): void {
    if (this.dead) return;
    this.dead = reason;
    // Users the scan created may be taken over by its own account checks: that is not a reason to stop.
    if (!this.account) this.deps.fail(reason, err instanceof ObtainError ? err : undefined);
  }
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** A recorded request's headers without the credential (the session puts the current one back). */
function stripCredentials(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in headers) if (!CREDENTIAL_HEADERS.has(k) && !/token|api[-_]?key|csrf|xsrf|session/i.test(k)) out[k] = headers[k]!;
  return out;
}
