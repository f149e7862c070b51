// Social sign-in (spec sections 4 and 8). The OpenID Connect flow belongs to a later issue; until a
// provider is configured the buttons say so with the spec's text and never pretend to sign anyone in.

import { SOCIAL_MESSAGES } from '../../../shared/messages';

export type SocialPage = 'login' | 'signup';

export interface SocialError {
  message: string;
  /** "...or use regular login." / "...or use regular signup." */
  hint: string;
}

export const fallbackHint = (page: SocialPage): string =>
  page === 'login' ? SOCIAL_MESSAGES.loginFallbackHint : SOCIAL_MESSAGES.signupFallbackHint;

/** Is an identity provider configured for this app? None is, until the OIDC issue lands. */
export function socialProviderConfigured(): boolean {
  return false;
}

/** Starts Google sign-in; answers the error to show when it cannot start. */
export async function startSocialSignIn(page: SocialPage): Promise<SocialError | null> {
  if (!socialProviderConfigured()) return { message: SOCIAL_MESSAGES.notConfigured, hint: fallbackHint(page) };
  return { message: SOCIAL_MESSAGES.initiateFailed, hint: fallbackHint(page) };
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
  const description = fromQuery.get('error_description') ?? fromHash.get('error_description');
  if (error === 'access_denied') return page === 'login' ? SOCIAL_MESSAGES.loginCancelled : SOCIAL_MESSAGES.signupCancelled;
  if (error === 'invalid_request')
    return page === 'login' ? SOCIAL_MESSAGES.loginInvalidRequest : SOCIAL_MESSAGES.signupInvalidRequest;
  if (description) return description;
  return page === 'login' ? SOCIAL_MESSAGES.loginFailed : SOCIAL_MESSAGES.signupFailed;
}

/** The URL without the OAuth parameters, to replace the current entry once the error is shown. */
export function withoutOauthParams(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const k of ['error', 'error_description', 'error_code', 'error_uri', 'code', 'state']) params.delete(k);
  const qs = params.toString();
  return pathname + (qs ? `?${qs}` : '');
}
