// /api/auth/*: sign-up, login, logout, forgot and reset password, social sign-in.

import type { Context, Hono } from 'hono';
import type { SignInResult } from '../../accounts/service';
import { TWO_FACTOR_TEXT } from '../../accounts/two-factor';
import { LIMITS } from '../../../shared/constants';
import { FORGOT_MESSAGES, LOGIN_MESSAGES, OIDC_MESSAGES, RESET_MESSAGES, SERVER_MESSAGES, SIGNUP_MESSAGES, SOCIAL_MESSAGES } from '../../../shared/messages';
import { isValidEmail, signupPayload, validateReset, validateSignup, type ValidationError } from '../../../shared/validation';
import { createOidc } from '../../accounts/oidc';
import { socialSignIn } from '../../accounts/social';
import { toUser } from '../../store/users';
import type { Services } from '../../services';
import { clientInfo } from '../client-info';
import type { AppEnv } from '../env';
import { ApiError, badRequest, unauthorized, validationError } from '../errors';
import { jsonBody } from '../input';
import { ok } from '../respond';

/** Sign-up usernames: the spec asks only for 3 characters; '@' and spaces would break login by identifier. */
const SIGNUP_USERNAME = /^[A-Za-z0-9._-]+$/;
const SIGNUP_USERNAME_MAX = 64;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A session (data.token), or the two-factor step (data.two_factor_required + data.challenge). */
export function signInResponse(c: Context<AppEnv>, result: SignInResult): Response {
  if ('challenge' in result) {
    return ok(c, TWO_FACTOR_TEXT.required, { two_factor_required: true, challenge: result.challenge });
  }
  return ok(c, SERVER_MESSAGES.loginOk, { token: result.token, user: toUser(result.user) });
}

export function registerAuthRoutes(app: Hono<AppEnv>, s: Services): void {
  app.post('/api/auth/signup', async (c) => {
    const body = await jsonBody(c);
    const input = signupPayload(body);
    // The rules see the names as stored: one line, no invisible characters.
    const errors: ValidationError[] = validateSignup({ ...body, firstName: input.firstName, lastName: input.lastName }, { form: false });
    if (!errors.some((e) => e.field === 'username') && input.username) {
      if (input.username.length > SIGNUP_USERNAME_MAX)
        errors.push({ field: 'username', message: `Username must be less than ${SIGNUP_USERNAME_MAX} characters` });
      else if (!SIGNUP_USERNAME.test(input.username))
        errors.push({ field: 'username', message: 'Username can only contain letters, numbers, dots, underscores, and dashes' });
    }
    if (input.firstName.length > LIMITS.nameMax) errors.push({ field: 'firstName', message: 'First name must be less than 50 characters' });
    if (input.lastName.length > LIMITS.nameMax) errors.push({ field: 'lastName', message: 'Last name must be less than 50 characters' });
    if (input.password.length > LIMITS.passwordMax) errors.push({ field: 'password', message: 'Password is too long.' });
    if (errors.length) throw validationError(errors);
    const user = await s.accounts.signup(input, clientInfo(c));
    return ok(c, SERVER_MESSAGES.signupOk, { user: toUser(user) }, 201);
  });

  app.post('/api/auth/login', async (c) => {
    const body = await jsonBody(c);
    const email = str(body.email)?.trim();
    const username = str(body.username)?.trim();
    const password = str(body.password);
    if ((!email && !username) || !password) throw badRequest(LOGIN_MESSAGES.bothRequired, 'identifier');
    if (password.length > LIMITS.passwordMax) throw new ApiError(401, SERVER_MESSAGES.invalidCredentials);
    const result = await s.accounts.login(email ? { email } : { username: username! }, password, clientInfo(c));
    return signInResponse(c, result);
  });

  // The second step of a two-factor sign-in: the challenge from the first step and a code.
  app.post('/api/auth/login/2fa', async (c) => {
    const body = await jsonBody(c);
    const challenge = str(body.challenge)?.trim();
    const code = str(body.code)?.trim();
    if (!challenge || !code || code.length > 64) throw badRequest(TWO_FACTOR_TEXT.invalidCode, 'code');
    const { user, method } = await s.twoFactor.answer(challenge, code);
    const token = await s.accounts.startSession(user, clientInfo(c), `${method}+totp`);
    return ok(c, SERVER_MESSAGES.loginOk, { token, user: toUser(user) });
  });

  app.post('/api/auth/logout', async (c) => {
    await s.accounts.logout(c.get('session'));
    return ok(c, SERVER_MESSAGES.logoutOk);
  });

  app.post('/api/auth/forgot-password', async (c) => {
    const body = await jsonBody(c);
    const email = (str(body.email) ?? '').trim().toLowerCase();
    if (!email) throw badRequest(SIGNUP_MESSAGES.emailRequired, 'email');
    if (!isValidEmail(email)) throw badRequest(SIGNUP_MESSAGES.emailInvalid, 'email');
    await s.accounts.forgotPassword(email, clientInfo(c));
    return ok(c, FORGOT_MESSAGES.generic);
  });

  app.post('/api/auth/reset-password', async (c) => {
    const body = await jsonBody(c);
    const errors = validateReset(body, { form: false });
    const password = str(body.password) ?? '';
    if (password.length > LIMITS.passwordMax) errors.push({ field: 'password', message: 'Password is too long.' });
    if (errors.length) throw validationError(errors);
    await s.accounts.resetPassword(str(body.token)!.trim(), password);
    return ok(c, RESET_MESSAGES.success);
  });

  // Social sign-in (OpenID Connect + PKCE). Without a configured client every call answers 404 with
  // the spec's "not configured" text: a deployment choice, not a server fault (docs/decisions.md).
  const oidc = createOidc(s);
  const notConfigured = () => new ApiError(404, SOCIAL_MESSAGES.notConfigured);
  const bounded = (v: unknown, max: number): string | undefined => {
    const t = str(v)?.trim();
    return t && t.length <= max ? t : undefined;
  };

  app.post('/api/auth/oidc/start', async (c) => {
    if (!oidc.configured) throw notConfigured();
    const body = await jsonBody(c);
    const redirectUri = bounded(body.redirectUri, 2000);
    if (!redirectUri) throw badRequest(OIDC_MESSAGES.redirectNotAllowed, 'redirectUri');
    return ok(c, SERVER_MESSAGES.ok, await oidc.start(redirectUri));
  });

  app.post('/api/auth/oidc/callback', async (c) => {
    if (!oidc.configured) throw notConfigured();
    const body = await jsonBody(c);
    const code = bounded(body.code, 4096);
    const state = bounded(body.state, 512);
    if (!code || !state) throw badRequest(OIDC_MESSAGES.flowExpired);
    const iss = bounded(body.iss, 2000);
    return ok(c, SERVER_MESSAGES.ok, await oidc.exchange({ code, state, ...(iss ? { iss } : {}) }));
  });

  // The spec's payload (email, names, picture, googleId, provider) plus idToken and nonce. The profile
  // fields the client posts are never trusted: identity and names come from the verified token.
  app.post('/api/auth/google-login', async (c) => {
    if (!oidc.configured) throw notConfigured();
    const body = await jsonBody(c);
    const idToken = bounded(body.idToken, 16_384);
    const nonce = bounded(body.nonce, 512);
    if (!idToken) throw badRequest(OIDC_MESSAGES.tokenMissing, 'idToken');
    if (!nonce) throw unauthorized(OIDC_MESSAGES.nonceReplayed);
    const identity = await oidc.verify(idToken, nonce);
    const result = await socialSignIn({ db: s.db, repos: s.repos, clock: s.clock, logger: s.logger, signIn: s.accounts.signIn }, identity, clientInfo(c));
    return signInResponse(c, result);
  });
}
