import { describe, expect, it } from 'vitest';
import { SOCIAL_MESSAGES } from '../../../shared/messages';
import { oauthErrorFromUrl, oauthReturnFromUrl, withoutOauthParams } from './social';
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
    expect(withoutOauthParams('/login', '?code=c&state=s&iss=https%3A%2F%2Fidp&scope=openid&authuser=0&prompt=none')).toBe('/login');
  });
});

describe('oauthReturnFromUrl', () => {
  it('reads the authorization response, and nothing when it is incomplete or an error', () => {
    expect(oauthReturnFromUrl('?code=abc&state=xyz')).toEqual({ code: 'abc', state: 'xyz' });
    expect(oauthReturnFromUrl('?code=abc&state=xyz&iss=https%3A%2F%2Faccounts.google.com')).toEqual({ code: 'abc', state: 'xyz', iss: 'https://accounts.google.com' });
    expect(oauthReturnFromUrl('?code=abc')).toBeNull();
    expect(oauthReturnFromUrl('?state=xyz')).toBeNull();
    expect(oauthReturnFromUrl('?code=abc&state=xyz&error=access_denied')).toBeNull();
    expect(oauthReturnFromUrl('')).toBeNull();
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
