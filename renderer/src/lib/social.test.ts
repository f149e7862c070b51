import { describe, expect, it } from 'vitest';
import { SOCIAL_MESSAGES } from '../../../shared/messages';
import { oauthErrorFromUrl, startSocialSignIn, withoutOauthParams } from './social';
import { returnPath } from './return-to';

describe('oauthErrorFromUrl', () => {
  it('maps the spec errors per page', () => {
    expect(oauthErrorFromUrl('?error=access_denied', '', 'login')).toBe(SOCIAL_MESSAGES.loginCancelled);
    expect(oauthErrorFromUrl('?error=access_denied', '', 'signup')).toBe(SOCIAL_MESSAGES.signupCancelled);
    expect(oauthErrorFromUrl('', '#error=invalid_request', 'login')).toBe(SOCIAL_MESSAGES.loginInvalidRequest);
    expect(oauthErrorFromUrl('', '#error=invalid_request', 'signup')).toBe(SOCIAL_MESSAGES.signupInvalidRequest);
    expect(oauthErrorFromUrl('?error=server_error&error_description=Provider+down', '', 'login')).toBe('Provider down');
    expect(oauthErrorFromUrl('?error=server_error', '', 'login')).toBe(SOCIAL_MESSAGES.loginFailed);
    expect(oauthErrorFromUrl('?error=server_error', '', 'signup')).toBe(SOCIAL_MESSAGES.signupFailed);
    expect(oauthErrorFromUrl('?next=1', '', 'login')).toBeNull();
  });

  it('cleans the OAuth parameters and keeps the others', () => {
    expect(withoutOauthParams('/login', '?error=access_denied&error_description=x&keep=1')).toBe('/login?keep=1');
    expect(withoutOauthParams('/signup', '?error=access_denied')).toBe('/signup');
  });

  it('says the provider is not configured instead of signing in', async () => {
    expect(await startSocialSignIn('login')).toEqual({
      message: SOCIAL_MESSAGES.notConfigured,
      hint: SOCIAL_MESSAGES.loginFallbackHint,
    });
    expect((await startSocialSignIn('signup'))?.hint).toBe(SOCIAL_MESSAGES.signupFallbackHint);
  });
});

describe('returnPath', () => {
  it('returns in-app paths with their query and fragment', () => {
    expect(returnPath({ from: { pathname: '/settings', search: '?tab=security', hash: '#pw' } })).toBe('/settings?tab=security#pw');
  });
  it('refuses other origins, auth pages and junk', () => {
    expect(returnPath({ from: { pathname: '//evil.example/x' } })).toBeNull();
    expect(returnPath({ from: { pathname: 'https://evil.example' } })).toBeNull();
    expect(returnPath({ from: { pathname: '/login' } })).toBeNull();
    expect(returnPath(null)).toBeNull();
    expect(returnPath({ from: 'x' })).toBeNull();
  });
});
