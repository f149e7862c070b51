// Social sign-in, relying-party side: OpenID Connect authorization code + PKCE with openid-client,
// and the one place an ID token is trusted: verified against the issuer's key set (jose), with
// issuer, audience, expiry and a nonce this server issued and that is spent on first use.

import * as client from 'openid-client';
import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { GoogleLoginRequest } from '../../shared/contract';
import { OIDC_MESSAGES, SOCIAL_MESSAGES } from '../../shared/messages';
import { singleLine } from '../../shared/validation';
import type { Clock } from '../clock';
import type { CoreConfig, OidcSettings } from '../config';
import type { Logger } from '../log';
import { ApiError, badRequest, unauthorized } from '../api/errors';

/** How long a started sign-in may take (authorization, then the token check). */
export const OIDC_FLOW_TTL_MS = 10 * 60 * 1000;
/** Pending sign-ins kept at most; the oldest go first (a flood of starts cannot grow memory). */
const MAX_PENDING = 2000;
/** The key set is cached this long (as the spec's identity-provider library does). */
const JWKS_CACHE_MS = 10 * 60 * 1000;
/** Clock skew tolerated on exp/iat/nbf. */
const CLOCK_TOLERANCE_S = 60;
const SCOPES = 'openid email profile';
const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);

interface Pending {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
  expiresAt: number;
  exchanged: boolean;
}

/** The spec's social login payload, filled from verified claims. */
export type SocialProfile = Omit<GoogleLoginRequest, 'idToken' | 'nonce'>;

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  /** true/false as the provider said; undefined when it did not say. */
  emailVerified: boolean | undefined;
  profile: SocialProfile;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
/** A provider's name claim as one line of visible text (shared/validation's singleLine). */
const name = (v: unknown): string | undefined => str(typeof v === 'string' ? singleLine(v) : undefined);

/** Names as the spec says: given/family name, else the full name split at the first space; name falls back to the email's local part. */
export function profileFromClaims(claims: JWTPayload): SocialProfile {
  const email = (str(claims.email) ?? '').toLowerCase();
  const full = name(claims.name);
  let firstName = name(claims.given_name);
  let lastName = name(claims.family_name);
  if (!firstName && !lastName && full) {
    const i = full.indexOf(' ');
    firstName = i === -1 ? full : full.slice(0, i);
    lastName = i === -1 ? '' : full.slice(i + 1).trim();
  }
  const local = email.split('@')[0] ?? '';
  const picture = str(claims.picture);
  return {
    email,
    firstName: (firstName ?? '').slice(0, 50),
    lastName: (lastName ?? '').slice(0, 50),
    name: (full ?? local).slice(0, 100),
    profilePicture: picture && /^https:\/\//i.test(picture) ? picture.slice(0, 2000) : null,
    googleId: String(claims.sub ?? ''),
    provider: 'google',
  };
}

export interface OidcDeps {
  config: CoreConfig;
  clock: Clock;
  logger: Logger;
}

export function createOidc({ config, clock, logger }: OidcDeps) {
  const settings: OidcSettings | null = config.oidc;
  const pending = new Map<string, Pending>();
  const byNonce = new Map<string, string>();
  let discovered: Promise<{ rp: client.Configuration; jwks: ReturnType<typeof createRemoteJWKSet> }> | null = null;

  function requireSettings(): OidcSettings {
    if (!settings) throw new ApiError(404, SOCIAL_MESSAGES.notConfigured);
    return settings;
  }

  /** Discovery once; a failure is forgotten so the next sign-in tries again. */
  function provider() {
    const s = requireSettings();
    if (!discovered) {
      const insecure = new URL(s.issuer).protocol === 'http:';
      discovered = (async () => {
        const rp = await client.discovery(new URL(s.issuer), s.clientId, s.clientSecret, s.clientSecret ? undefined : client.None(), {
          execute: insecure ? [client.allowInsecureRequests] : [],
          timeout: 10,
        });
        const jwksUri = rp.serverMetadata().jwks_uri;
        if (!jwksUri) throw new Error('The provider publishes no jwks_uri.');
        return { rp, jwks: createRemoteJWKSet(new URL(jwksUri), { cacheMaxAge: JWKS_CACHE_MS, timeoutDuration: 10_000 }) };
      })();
      discovered.catch((err: unknown) => {
        logger.warn('OpenID provider discovery failed', { issuer: s.issuer, error: err instanceof Error ? err.message : String(err) });
        discovered = null;
      });
    }
    return discovered.catch(() => {
      throw new ApiError(503, OIDC_MESSAGES.providerUnavailable);
    });
  }

  function sweep(now: number): void {
    for (const [state, p] of pending) if (p.expiresAt <= now) forget(state);
    while (pending.size >= MAX_PENDING) {
      const oldest = pending.keys().next().value;
      if (oldest === undefined) break;
      forget(oldest);
    }
  }

  function forget(state: string): void {
    const p = pending.get(state);
    if (!p) return;
    pending.delete(state);
    byNonce.delete(p.nonce);
  }

  /**
   * Where the provider may send the browser back: this server's (or a trusted origin's) login and
   * sign-up pages, or a loopback /callback of the desktop app (RFC 8252: IP literal, any port).
   */
  function redirectAllowed(value: string): boolean {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.username || url.password || url.search || url.hash || url.href !== value) return false;
    if (url.protocol === 'http:' && LOOPBACK_IPS.has(url.hostname) && url.port !== '' && url.pathname === '/callback') return true;
    if (url.pathname !== '/login' && url.pathname !== '/signup') return false;
    const origins = new Set([new URL(config.publicUrl).origin, ...config.corsOrigins]);
    return (url.protocol === 'http:' || url.protocol === 'https:') && origins.has(url.origin);
  }

  function failVerification(err: unknown): never {
    if (err instanceof joseErrors.JWTExpired) throw unauthorized(OIDC_MESSAGES.expired);
    if (err instanceof joseErrors.JWTClaimValidationFailed) {
      if (err.claim === 'aud') throw unauthorized(OIDC_MESSAGES.wrongAudience);
      if (err.claim === 'iss') throw unauthorized(OIDC_MESSAGES.wrongIssuer);
      if (err.claim === 'nbf' || err.claim === 'iat') throw unauthorized(OIDC_MESSAGES.expired);
      throw unauthorized(OIDC_MESSAGES.badSignature);
    }
    if (err instanceof ApiError) throw err;
    if (err instanceof joseErrors.JWKSTimeout) throw new ApiError(503, OIDC_MESSAGES.providerUnavailable);
    // Signature mismatch, no matching key, malformed token, disallowed algorithm.
    throw unauthorized(OIDC_MESSAGES.badSignature);
  }

  return {
    get configured(): boolean {
      return settings !== null;
    },

    redirectAllowed,

    /** Starts a sign-in: state, nonce and PKCE verifier stay here; the URL goes to the browser. */
    async start(redirectUri: string): Promise<{ authorizationUrl: string; state: string }> {
      requireSettings();
      if (!redirectAllowed(redirectUri)) throw badRequest(OIDC_MESSAGES.redirectNotAllowed, 'redirectUri');
      const { rp } = await provider();
      const now = clock.now().getTime();
      sweep(now);
      const entry: Pending = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
        redirectUri,
        expiresAt: now + OIDC_FLOW_TTL_MS,
        exchanged: false,
      };
      pending.set(entry.state, entry);
      byNonce.set(entry.nonce, entry.state);
      const url = client.buildAuthorizationUrl(rp, {
        redirect_uri: redirectUri,
        scope: SCOPES,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(entry.codeVerifier),
        code_challenge_method: 'S256',
        state: entry.state,
        nonce: entry.nonce,
        prompt: 'select_account',
      });
      return { authorizationUrl: url.href, state: entry.state };
    },

    /**
     * The provider sent the browser back with a code: exchange it (PKCE verifier, client secret) for
     * an ID token. The nonce stays pending for the sign-in call, which verifies the token again.
     */
    async exchange(input: { code: string; state: string; iss?: string }): Promise<{ idToken: string; nonce: string; profile: SocialProfile }> {
      requireSettings();
      const entry = pending.get(input.state);
      const now = clock.now().getTime();
      if (!entry || entry.exchanged || entry.expiresAt <= now) throw badRequest(OIDC_MESSAGES.flowExpired);
      entry.exchanged = true;
      const { rp } = await provider();
      const callback = new URL(entry.redirectUri);
      callback.searchParams.set('code', input.code);
      callback.searchParams.set('state', input.state);
      if (input.iss) callback.searchParams.set('iss', input.iss);
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(rp, callback, {
          pkceCodeVerifier: entry.codeVerifier,
          expectedState: entry.state,
          expectedNonce: entry.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        forget(entry.state);
        logger.warn('OpenID code exchange refused', { error: err instanceof Error ? err.message : String(err) });
        throw badRequest(OIDC_MESSAGES.exchangeFailed);
      }
      const idToken = tokens.id_token;
      const claims = tokens.claims();
      if (!idToken || !claims) {
        forget(entry.state);
        throw badRequest(OIDC_MESSAGES.exchangeFailed);
      }
      return { idToken, nonce: entry.nonce, profile: profileFromClaims(claims) };
    },

    /**
     * The only trust decision: signature against the issuer's keys, issuer, audience (and azp), expiry,
     * and a nonce this server issued, not yet used and not expired. The nonce is spent either way once
     * the token itself checks out, so a token can never sign in twice.
     */
    async verify(idToken: string, nonce: string): Promise<VerifiedIdentity> {
      const s = requireSettings();
      let unverified: JWTPayload;
      try {
        unverified = decodeJwt(idToken);
      } catch {
        throw unauthorized(OIDC_MESSAGES.badSignature);
      }
      // Refuse a stranger's token before fetching anyone's keys for it.
      if (unverified.iss !== s.issuer) throw unauthorized(OIDC_MESSAGES.wrongIssuer);
      const { rp, jwks } = await provider();
      const algorithms = rp.serverMetadata().id_token_signing_alg_values_supported?.filter((a) => a !== 'none') ?? ['RS256'];
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(idToken, jwks, {
          issuer: s.issuer,
          audience: s.clientId,
          algorithms,
          currentDate: clock.now(),
          clockTolerance: CLOCK_TOLERANCE_S,
          requiredClaims: ['sub', 'iat', 'exp'],
        }));
      } catch (err) {
        failVerification(err);
      }
      // OpenID Connect Core 3.1.3.7: with several audiences the authorised party must be us.
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== s.clientId) {
        throw unauthorized(OIDC_MESSAGES.wrongAudience);
      }
      const state = typeof payload.nonce === 'string' && payload.nonce === nonce ? byNonce.get(nonce) : undefined;
      const entry = state ? pending.get(state) : undefined;
      if (entry) forget(entry.state);
      if (!entry || entry.expiresAt <= clock.now().getTime()) throw unauthorized(OIDC_MESSAGES.nonceReplayed);
      const email = str(payload.email)?.toLowerCase();
      if (!email) throw unauthorized(OIDC_MESSAGES.emailMissing);
      const ev = payload.email_verified;
      const emailVerified = ev === undefined ? undefined : ev === true || ev === 'true';
      if (emailVerified === false) throw unauthorized(OIDC_MESSAGES.emailUnverified);
      return { issuer: s.issuer, subject: String(payload.sub), email, emailVerified, profile: profileFromClaims(payload) };
    },
  };
}

export type Oidc = ReturnType<typeof createOidc>;
