// Social sign-in (spec sections 4 and 8) with OpenID Connect: authorization code + PKCE, the code
// exchanged and the ID token verified by the server (docs/desktop.md). In a browser the page goes to
// the provider and comes back to itself with ?code&state; in the desktop app the provider opens in the
// system browser and returns to a loopback listener of the main process (RFC 8252). Either way the
// page then posts the code to the server and the verified payload to /api/auth/google-login.

import type { User } from '../../../shared/contract';
import { SOCIAL_MESSAGES } from '../../../shared/messages';
import * as authApi from '../api/auth';
import { desktopBridge, type PortcullisBridge } from '../api/request';
import { authStore } from '../stores/useAuthStore';

export type SocialPage = 'login' | 'signup';

export interface SocialError {
  message: string;
  /** "...or use regular login." / "...or use regular signup." */
  hint: string;
}

export type SocialOutcome =
  | { kind: 'signedIn'; user: User }
  /** The browser is on its way to the provider. */
  | { kind: 'redirecting' }
  /** A newer sign-in replaced this one (a second click): nothing to show. */
  | { kind: 'superseded' }
  /** The account has two-factor sign-in: the page asks for a code to answer `challenge` with. */
  | { kind: 'twoFactor'; challenge: string; prompt: string }
  | ({ kind: 'error' } & SocialError);

export const fallbackHint = (page: SocialPage): string =>
  page === 'login' ? SOCIAL_MESSAGES.loginFallbackHint : SOCIAL_MESSAGES.signupFallbackHint;

const failure = (page: SocialPage, message: string): SocialOutcome => ({ kind: 'error', message, hint: fallbackHint(page) });

/** The spec's message for an OAuth error code (and its description), per page. */
export function oauthErrorMessage(error: string, description: string | null | undefined, page: SocialPage): string {
  if (error === 'access_denied') return page === 'login' ? SOCIAL_MESSAGES.loginCancelled : SOCIAL_MESSAGES.signupCancelled;
  if (error === 'invalid_request') return page === 'login' ? SOCIAL_MESSAGES.loginInvalidRequest : SOCIAL_MESSAGES.signupInvalidRequest;
  if (description) return description;
  return page === 'login' ? SOCIAL_MESSAGES.loginFailed : SOCIAL_MESSAGES.signupFailed;
}

/**
 * The message for an OAuth error the provider put in the return URL (query or fragment), or null when
 * the URL holds none.
 */
export function oauthErrorFromUrl(search: string, hash: string, page: SocialPage): string | null {
  const fromQuery = new URLSearchParams(search);
  const fromHash = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const error = fromQuery.get('error') ?? fromHash.get('error');
  if (!error) return null;
  return oauthErrorMessage(error, fromQuery.get('error_description') ?? fromHash.get('error_description'), page);
}

/** The authorization response in the return URL (?code&state[&iss]), or null. */
export function oauthReturnFromUrl(search: string): { code: string; state: string; iss?: string } | null {
  const q = new URLSearchParams(search);
  const code = q.get('code');
  const state = q.get('state');
  if (!code || !state || q.get('error')) return null;
  const iss = q.get('iss');
  return { code, state, ...(iss ? { iss } : {}) };
}

/** The URL without the OAuth parameters, to replace the current entry once they are read. */
export function withoutOauthParams(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const k of ['error', 'error_description', 'error_code', 'error_uri', 'code', 'state', 'iss', 'scope', 'authuser', 'prompt', 'hd'])
    params.delete(k);
  const qs = params.toString();
  return pathname + (qs ? `?${qs}` : '');
}

export interface SocialEnv {
  /** The desktop bridge with its oauth helpers, when running in the desktop app. */
  bridge: PortcullisBridge | undefined;
  /** This page's origin (the browser flow comes back to <origin>/login or /signup). */
  origin: string;
  /** Leaves for the provider (browser flow). */
  assign(url: string): void;
}

function browserEnv(): SocialEnv {
  return {
    bridge: desktopBridge(),
    origin: window.location.origin,
    assign: (url) => window.location.assign(url),
  };
}

/** Server message, else the spec's backend fallback. */
const backendFailure = (page: SocialPage, message: string): SocialOutcome => failure(page, message || SOCIAL_MESSAGES.backendFailed);

/** Code -> verified token -> session; stores the token and user like a password login. */
export async function completeSocialSignIn(response: { code: string; state: string; iss?: string }, page: SocialPage): Promise<SocialOutcome> {
  try {
    const exchanged = await authApi.oidcCallback(response);
    if (!exchanged.ok) return backendFailure(page, exchanged.message);
    const { idToken, nonce, profile } = exchanged.data;
    const login = await authApi.googleLogin({ ...profile, idToken, nonce });
    if (!login.ok || !login.data) return backendFailure(page, login.message);
    if ('two_factor_required' in login.data) return { kind: 'twoFactor', challenge: login.data.challenge, prompt: login.message };
    if (!login.data.token || !login.data.user) return backendFailure(page, login.message);
    authStore.getState().acceptSession(login.data.token, login.data.user);
    return { kind: 'signedIn', user: login.data.user };
  } catch {
    return backendFailure(page, '');
  }
}

/** Starts Google (or the configured provider's) sign-in from the login or sign-up page. */
export async function startSocialSignIn(page: SocialPage, env: SocialEnv = browserEnv()): Promise<SocialOutcome> {
  const startFailed = page === 'login' ? SOCIAL_MESSAGES.loginStartFailed : SOCIAL_MESSAGES.signupStartFailed;
  try {
    const oauth = env.bridge?.oauth;
    let redirectUri = `${env.origin}/${page}`;
    if (oauth) {
      const listening = await oauth.listen();
      if (!listening.ok) return failure(page, SOCIAL_MESSAGES.initiateFailed);
      redirectUri = listening.redirectUri;
    }
    const started = await authApi.oidcStart(redirectUri);
    if (!started.ok) {
      if (started.status === 404 && started.message === SOCIAL_MESSAGES.notConfigured) return failure(page, SOCIAL_MESSAGES.notConfigured);
      return failure(page, SOCIAL_MESSAGES.initiateFailed);
    }
    if (!oauth) {
      env.assign(started.data.authorizationUrl);
      return { kind: 'redirecting' };
    }
    const back = await oauth.authorize(started.data.authorizationUrl);
    if (!back.ok) {
      if (back.error === 'cancelled') return { kind: 'superseded' };
      return failure(page, oauthErrorMessage(back.error, back.errorDescription, page));
    }
    return await completeSocialSignIn(back, page);
  } catch {
    return failure(page, startFailed);
  }
}
