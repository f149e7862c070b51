// Sign-up, login, logout, forgot and reset password, social sign-in (spec section 7).

import type { GoogleLoginRequest, LoginRequest, SignupRequest } from '../../../shared/contract';
import { call } from './client';

export const login = (body: LoginRequest) => call('POST /api/auth/login', { body });

export const loginTwoFactor = (challenge: string, code: string) => call('POST /api/auth/login/2fa', { body: { challenge, code } });

export const signup = (body: SignupRequest) => call('POST /api/auth/signup', { body });

export const logout = (token: string) => call('POST /api/auth/logout', { body: {}, token });

export const forgotPassword = (email: string) => call('POST /api/auth/forgot-password', { body: { email } });

export const resetPassword = (token: string, password: string) =>
  call('POST /api/auth/reset-password', { body: { token, password } });

export const googleLogin = (body: GoogleLoginRequest) => call('POST /api/auth/google-login', { body });

export const oidcStart = (redirectUri: string) => call('POST /api/auth/oidc/start', { body: { redirectUri } });

export const oidcCallback = (body: { code: string; state: string; iss?: string }) => call('POST /api/auth/oidc/callback', { body });
