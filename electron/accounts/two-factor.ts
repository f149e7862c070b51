// TOTP two-factor sign-in (RFC 6238): enrolment confirmed by a first valid code, ten single-use
// recovery codes stored hashed, a short-lived challenge between the password and the code, codes
// that work once, and throttled attempts. The TOTP secret is kept in the SecretStore (the OS
// keychain, or encrypted with the server key), never in the database.

import { createHash, randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { ApiError, badRequest, conflict, tooManyRequests } from '../api/errors';
import type { Clock } from '../clock';
import type { CoreConfig } from '../config';
import type { Logger } from '../log';
import type { SecretStore } from '../secrets/types';
import type { Repos } from '../store/index';
import type { UserRow } from '../store/users';
import { verifyPassword, type HashGate } from './passwords';
import { FailureThrottle } from './throttle';
import { hashToken, newToken } from './tokens';

export const TWO_FACTOR_TEXT = {
  required: 'Enter the 6-digit code from your authenticator app, or a recovery code.',
  invalidCode: 'Invalid code. Please try again.',
  challengeExpired: 'This sign-in has expired. Please log in again.',
  alreadyOn: 'Two-factor authentication is already on.',
  notOn: 'Two-factor authentication is not on.',
  noPending: 'Start the set-up again: there is no pending authenticator secret.',
  enabled: 'Two-factor authentication is on. Keep your recovery codes somewhere safe: they are shown only once.',
  disabled: 'Two-factor authentication is off.',
  setup: 'Scan the QR code with your authenticator app, then enter the code it shows.',
  invalidPasswordOrCode: 'Invalid password or code.',
  codesRenewed: 'New recovery codes created. The old ones no longer work.',
} as const;

const ISSUER = 'Portcullis';
const DIGITS = 6;
const PERIOD = 30;
/** Codes one step either side of now are accepted (clock skew of up to 30 s). */
const WINDOW = 1;
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const RECOVERY_CODES = 10;

const secretRef = (userId: string) => `totp:${userId}`;
const pendingRef = (userId: string) => `totp-pending:${userId}`;

/** "k7m2q-x9p4d": 50 random bits in an unambiguous alphabet. */
function recoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const normaliseRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');
const hashRecovery = (code: string) => createHash('sha256').update(normaliseRecovery(code)).digest('hex');

export interface TwoFactorDeps {
  repos: Repos;
  secrets: SecretStore;
  config: CoreConfig;
  clock: Clock;
  logger: Logger;
  /** Bounds the password hashes in flight (shared with sign-in). */
  hashGate: HashGate;
}

export function createTwoFactor({ repos, secrets, config, clock, logger, hashGate }: TwoFactorDeps) {
  const throttle = new FailureThrottle(clock, { code: config.throttle.account }, repos.throttle, (err) =>
    logger.error('Could not store a two-factor throttle count', { error: String(err) }),
  );

  function totp(user: UserRow, secret: string): OTPAuth.TOTP {
    return new OTPAuth.TOTP({ issuer: ISSUER, label: user.email, secret: OTPAuth.Secret.fromBase32(secret), digits: DIGITS, period: PERIOD });
  }

  /** The time step a TOTP code stands for, or null when it matches none in the window. */
  function stepOf(user: UserRow, secret: string, code: string): number | null {
    const t = totp(user, secret);
    const now = clock.now().getTime();
    const delta = t.validate({ token: code, timestamp: now, window: WINDOW });
    return delta === null ? null : t.counter({ timestamp: now }) + delta;
  }

  async function newRecoveryCodes(userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    await repos.twoFactor.replaceRecoveryCodes(userId, codes.map(hashRecovery), clock.now());
    return codes;
  }

  /** Reserves one guess of the user's second factor (before any slow check); 429 while throttled. */
  async function reserveGuess(user: UserRow) {
    // Counted before the (asynchronous) check, so parallel guesses cannot outrun the count.
    const attempt = await throttle.reserve([{ kind: 'code', value: user.id }]);
    if (attempt.blocked) throw tooManyRequests(attempt.retryAfterSeconds);
    return attempt;
  }

  /** A TOTP code (once per time step) or an unused recovery code; throttled per user. */
  async function checkCode(user: UserRow, code: string): Promise<boolean> {
    const attempt = await reserveGuess(user);
    const ok = await codeMatches(user, code);
    if (ok) {
      await attempt.release();
      await throttle.reset('code', user.id);
    }
    return ok;
  }

  /** The code itself, unthrottled: callers reserve a guess first. */
  async function codeMatches(user: UserRow, code: string): Promise<boolean> {
    const trimmed = code.trim();
    let ok = false;
    if (/^\d{6}$/.test(trimmed)) {
      const secret = await secrets.get(secretRef(user.id));
      const step = secret ? stepOf(user, secret, trimmed) : null;
      ok = step !== null && (await repos.twoFactor.takeStep(user.id, step));
    } else if (normaliseRecovery(trimmed).length === 10) {
      ok = await repos.twoFactor.useRecoveryCode(user.id, hashRecovery(trimmed), clock.now());
      if (ok) logger.info('Recovery code used', { user: user.id });
    }
    if (!ok) logger.warn('Wrong two-factor code', { user: user.id });
    return ok;
  }

  return {
    async status(user: UserRow): Promise<{ enabled: boolean; recovery_codes_left: number }> {
      return { enabled: user.totp_enabled === 1, recovery_codes_left: user.totp_enabled ? await repos.twoFactor.recoveryCodesLeft(user.id) : 0 };
    },

    /** A new secret, pending until a valid code confirms it. */
    async setup(user: UserRow): Promise<{ secret: string; otpauth_url: string; qr_data_url: string }> {
      if (user.totp_enabled) throw conflict(TWO_FACTOR_TEXT.alreadyOn);
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      await secrets.set(pendingRef(user.id), secret);
      const url = totp(user, secret).toString();
      return { secret, otpauth_url: url, qr_data_url: await QRCode.toDataURL(url, { errorCorrectionLevel: 'M', margin: 2, width: 240 }) };
    },

    /** Turns two-factor on with the pending secret; returns the recovery codes (shown once). */
    async enable(user: UserRow, code: string): Promise<string[]> {
      if (user.totp_enabled) throw conflict(TWO_FACTOR_TEXT.alreadyOn);
      const attempt = await throttle.reserve([{ kind: 'code', value: user.id }]);
      if (attempt.blocked) throw tooManyRequests(attempt.retryAfterSeconds);
      const pending = await secrets.get(pendingRef(user.id));
      if (!pending) {
        await attempt.release();
        throw badRequest(TWO_FACTOR_TEXT.noPending);
      }
      const step = stepOf(user, pending, code.trim());
      if (step === null) throw badRequest(TWO_FACTOR_TEXT.invalidCode, 'code');
      await attempt.release();
      await secrets.set(secretRef(user.id), pending);
      await secrets.delete(pendingRef(user.id));
      await repos.twoFactor.setEnabled(user.id, true);
      await repos.twoFactor.takeStep(user.id, step);
      logger.info('Two-factor authentication turned on', { user: user.id });
      return newRecoveryCodes(user.id);
    },

    /** Needs the password (accounts that have one) and a code. */
    async disable(user: UserRow, password: string, code: string): Promise<void> {
      if (!user.totp_enabled) throw badRequest(TWO_FACTOR_TEXT.notOn);
      // One guess of both factors, counted before the password hash: a wrong password counts like a wrong
      // code, so a stolen session cannot guess the password here (a right code would reset the count).
      const attempt = await reserveGuess(user);
      const stored = user.password_hash;
      let passwordOk: boolean;
      try {
        passwordOk = stored ? await hashGate.run(() => verifyPassword(password, stored)) : true;
      } catch (err) {
        await attempt.release();
        throw err;
      }
      // A wrong password does not spend the code's time step.
      const codeOk = passwordOk && (await codeMatches(user, code));
      if (!passwordOk || !codeOk) {
        logger.warn('Two-factor sign-in not turned off: wrong password or code', { user: user.id });
        throw badRequest(TWO_FACTOR_TEXT.invalidPasswordOrCode);
      }
      await attempt.release();
      await throttle.reset('code', user.id);
      await repos.twoFactor.setEnabled(user.id, false);
      await repos.twoFactor.replaceRecoveryCodes(user.id, [], clock.now());
      await secrets.delete(secretRef(user.id));
      logger.info('Two-factor authentication turned off', { user: user.id });
    },

    /** New recovery codes for a valid code; the old ones stop working. */
    async renewRecoveryCodes(user: UserRow, code: string): Promise<string[]> {
      if (!user.totp_enabled) throw badRequest(TWO_FACTOR_TEXT.notOn);
      if (!(await checkCode(user, code))) throw badRequest(TWO_FACTOR_TEXT.invalidCode, 'code');
      return newRecoveryCodes(user.id);
    },

    /** After a correct first factor: the challenge the client answers with a code. */
    async challenge(user: UserRow, method: string, info: { client: string | null; ip: string }): Promise<string> {
      const token = newToken();
      const now = clock.now();
      await repos.twoFactor.createChallenge(
        {
          user_id: user.id,
          token_hash: hashToken(token),
          method,
          client: info.client?.slice(0, 200) ?? null,
          ip: info.ip,
          expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
        },
        now,
      );
      return token;
    },

    /** The user and first-factor method once the challenge is answered with a valid code. */
    async answer(challenge: string, code: string): Promise<{ user: UserRow; method: string }> {
      const row = await repos.twoFactor.findChallenge(hashToken(challenge), clock.now());
      if (!row) throw new ApiError(401, TWO_FACTOR_TEXT.challengeExpired);
      const user = await repos.users.findById(row.user_id);
      if (!user?.totp_enabled) throw new ApiError(401, TWO_FACTOR_TEXT.challengeExpired);
      if (!(await checkCode(user, code))) throw new ApiError(401, TWO_FACTOR_TEXT.invalidCode);
      await repos.twoFactor.deleteChallenge(row.id);
      return { user, method: row.method };
    },
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;

