// Accounts: sign-up, password login with throttling, sessions with idle and absolute expiry,
// password change, and the forgot/reset flow. Routes call this; it calls the repositories.

import { PASSWORD_CHANGE_MESSAGES, RESET_MESSAGES, SERVER_MESSAGES } from '../../shared/messages';
import type { Clock } from '../clock';
import type { CoreConfig } from '../config';
import type { Logger } from '../log';
import { isUniqueViolation } from '../store/dialect';
import { databaseTroubleOf } from '../store/health';
import type { Repos } from '../store/index';
import type { SessionRow } from '../store/sessions';
import type { UserRow } from '../store/users';
import { ApiError, badRequest, conflict, tooManyRequests, unauthorized } from '../api/errors';
import type { Mailer } from './mailer';
import type { TwoFactor } from './two-factor';
import { burnVerification, hashPassword, verifyPassword, type HashGate } from './passwords';
import { FailureThrottle } from './throttle';
import { hashToken, newToken } from './tokens';

export interface ClientInfo {
  /** User-Agent or the shell's name. */
  client: string | null;
  ip: string;
}

/** Sessions are touched at most this often, so reads do not turn into a write per request. */
const TOUCH_INTERVAL_MS = 15_000;

export interface AccountsDeps {
  repos: Repos;
  config: CoreConfig;
  clock: Clock;
  logger: Logger;
  mailer: Mailer | null;
  twoFactor: TwoFactor;
  /** Bounds the password hashes in flight: beyond its queue a hash is refused with 503. */
  hashGate: HashGate;
}

/** The throttle key of an account: its user id (shared by its username and e-mail), else the identifier typed. */
function accountKey(user: UserRow | undefined | null, typed: string): string {
  return user ? `user:${user.id}` : `name:${typed}`;
}

/** What a correct first factor yields: a session, or a two-factor challenge to answer first. */
export type SignInResult = { token: string; user: UserRow } | { challenge: string; user: UserRow };

export function createAccounts({ repos, config, clock, logger, mailer, twoFactor, hashGate }: AccountsDeps) {
  // Counted attempts live in the database: every node sharing it holds one limit, a restart keeps lockouts.
  const rules = { ...config.throttle, signup: config.signupThrottle };
  const throttle = new FailureThrottle(clock, rules, repos.throttle, (err) =>
    logger[databaseTroubleOf(err) ? 'debug' : 'error']('Could not store a sign-in throttle count', { error: String(err) }),
  );

  async function idleTimeoutOf(userId: string): Promise<number> {
    const prefs = await repos.userSettings.getPreferences(userId);
    const minutes = Number.parseInt(prefs.security.sessionTimeout, 10);
    return Number.isFinite(minutes) && minutes > 0 ? minutes : 30;
  }

  async function startSession(user: UserRow, info: ClientInfo, method: string): Promise<string> {
    const now = clock.now();
    const token = newToken();
    await repos.sessions.create(
      {
        userId: user.id,
        tokenHash: hashToken(token),
        idleTimeoutMinutes: await idleTimeoutOf(user.id),
        expiresAt: new Date(now.getTime() + config.sessionMaxAgeMs),
        client: info.client?.slice(0, 200) ?? null,
        ip: info.ip,
      },
      now,
    );
    await notifySignIn(user, info, method, now);
    return token;
  }

  /** With login notifications on: the sign-in is recorded, and emailed where SMTP is configured. */
  async function notifySignIn(user: UserRow, info: ClientInfo, method: string, now: Date): Promise<void> {
    const prefs = await repos.userSettings.getPreferences(user.id);
    if (!prefs.security.loginNotifications) return;
    await repos.loginEvents.record(user.id, method, info, now);
    await mailer?.send({
      to: user.email,
      subject: 'New sign-in to your Portcullis account',
      text: `Your Portcullis account signed in on ${now.toISOString()} (UTC)\nfrom ${info.ip}${info.client ? ` using ${info.client}` : ''}, by ${method}.\n\nIf this was not you, change your password and sign out of every other session in Settings > Security.`,
    });
  }

  /** A correct first factor: a session, or a challenge when two-factor sign-in is on. */
  async function signIn(user: UserRow, info: ClientInfo, method: string): Promise<SignInResult> {
    if (user.totp_enabled) return { challenge: await twoFactor.challenge(user, method, info), user };
    return { token: await startSession(user, info, method), user };
  }

  return {
    startSession,
    signIn,

    /**
     * Counts every sign-up per client address (429 beyond the limit). The place in the hash queue comes
     * first: a sign-up refused as busy (503) is never counted, not even for the moment it takes to refuse.
     */
    async signup(
      input: { firstName: string; lastName: string; email: string; username: string; password: string },
      info: ClientInfo,
    ) {
      const key = [{ kind: 'signup', value: info.ip }];
      const early = await throttle.check(key);
      if (early.blocked) {
        logger.warn('Sign-ups throttled', { ip: info.ip });
        throw tooManyRequests(early.retryAfterSeconds, SERVER_MESSAGES.tooManySignups);
      }
      const passwordHash = await hashGate.run(async () => {
        const attempt = await throttle.reserve(key);
        if (attempt.blocked) {
          logger.warn('Sign-ups throttled', { ip: info.ip });
          throw tooManyRequests(attempt.retryAfterSeconds, SERVER_MESSAGES.tooManySignups);
        }
        if (await repos.users.findByEmail(input.email)) throw conflict(SERVER_MESSAGES.emailTaken, 'email');
        if (await repos.users.findByUsername(input.username)) throw conflict(SERVER_MESSAGES.usernameTaken, 'username');
        return hashPassword(input.password, config.scryptCost);
      });
      try {
        return await repos.users.create({ ...input, passwordHash }, clock.now());
      } catch (err) {
        // Two sign-ups raced for the same email or username.
        if (isUniqueViolation(err, 'users.email')) throw conflict(SERVER_MESSAGES.emailTaken, 'email');
        if (isUniqueViolation(err, 'users.username')) throw conflict(SERVER_MESSAGES.usernameTaken, 'username');
        throw err;
      }
    },

    /**
     * Checks the password; answers 429 while the account or the client is throttled. The attempt is
     * counted before the hash (and taken back on success), so parallel guesses cannot outrun the count;
     * a username and its e-mail are one account. It is counted only once it holds a place in the hash
     * queue: a sign-in refused as busy (503) never counts, not even while it is being refused. (Counted
     * first, a burst of refused sign-ins from one address, a load balancer's, held the client's count
     * at its limit on PostgreSQL, where they are counted side by side, and locked everyone out.)
     */
    async login(identifier: { email?: string; username?: string }, password: string, info: ClientInfo): Promise<SignInResult> {
      const id = (identifier.email ?? identifier.username ?? '').trim().toLowerCase();
      const user = identifier.email !== undefined ? await repos.users.findByEmail(id) : await repos.users.findByUsername(id);
      const account = accountKey(user, id);
      const keys = [
        { kind: 'account', value: account },
        { kind: 'client', value: info.ip },
      ];
      // A throttled caller is told so at once, without waiting for a place in the hash queue.
      const early = await throttle.check(keys);
      if (early.blocked) throw tooManyRequests(early.retryAfterSeconds);
      const stored = user?.password_hash;
      const { valid, attempt } = await hashGate.run(async () => {
        const reserved = await throttle.reserve(keys);
        if (reserved.blocked) throw tooManyRequests(reserved.retryAfterSeconds);
        try {
          return { valid: stored ? await verifyPassword(password, stored) : (await burnVerification(password, config.scryptCost), false), attempt: reserved };
        } catch (err) {
          await reserved.release(); // not evaluated: not a failure
          throw err;
        }
      });
      if (!user || !valid) {
        logger.warn('Failed sign-in', { ip: info.ip });
        throw unauthorized(SERVER_MESSAGES.invalidCredentials);
      }
      await attempt.release();
      await throttle.reset('account', account);
      logger.info('Password accepted', { user: user.id, ip: info.ip, second_factor: user.totp_enabled === 1 });
      return signIn(user, info, 'password');
    },

    /** The session and user a bearer token stands for; 401 when unknown, idle too long or past its end. */
    async authenticate(token: string): Promise<{ user: UserRow; session: SessionRow }> {
      const session = await repos.sessions.findByTokenHash(hashToken(token));
      if (!session) throw unauthorized(SERVER_MESSAGES.sessionExpired);
      const now = clock.now();
      const idleEnd = new Date(session.last_used_at).getTime() + session.idle_timeout_minutes * 60_000;
      if (now.getTime() >= idleEnd || now.toISOString() >= session.expires_at) {
        await repos.sessions.delete(session.id);
        throw unauthorized(SERVER_MESSAGES.sessionExpired);
      }
      const user = await repos.users.findById(session.user_id);
      if (!user) throw unauthorized(SERVER_MESSAGES.sessionExpired);
      if (now.getTime() - new Date(session.last_used_at).getTime() >= TOUCH_INTERVAL_MS) {
        await repos.sessions.touch(session.id, now);
      }
      return { user, session };
    },

    /** Whether a session is still open (not ended, idle too long or past its end), without touching it. */
    async sessionLive(sessionId: string): Promise<boolean> {
      const session = await repos.sessions.findById(sessionId);
      if (!session) return false;
      const now = clock.now();
      const idleEnd = new Date(session.last_used_at).getTime() + session.idle_timeout_minutes * 60_000;
      return now.getTime() < idleEnd && now.toISOString() < session.expires_at;
    },

    async logout(session: SessionRow): Promise<void> {
      await repos.sessions.delete(session.id);
    },

    /** Always ends quietly: whether the account exists is never revealed. */
    async forgotPassword(email: string, info: ClientInfo): Promise<void> {
      const key = [{ kind: 'resetRequests', value: email }];
      if ((await throttle.reserve(key)).blocked) {
        logger.warn('Password reset requests throttled', { ip: info.ip });
        return;
      }
      const user = await repos.users.findByEmail(email);
      if (!user) {
        logger.info('Password reset requested for an unknown email', { ip: info.ip });
        return;
      }
      const now = clock.now();
      const token = newToken();
      await repos.passwordResets.create(user.id, hashToken(token), new Date(now.getTime() + config.resetTokenTtlMs), now);
      const link = `${config.publicUrl}/recover?token=${token}`;
      // By design (spec: "the link from your email (or server console)"): the console gets the link.
      logger.info(`Password reset link for ${user.email}: ${link}`);
      if (mailer) {
        await mailer.send({
          to: user.email,
          subject: 'Reset your Portcullis password',
          text: `Someone asked to reset the password of your Portcullis account.\n\nOpen this link within one hour to choose a new password:\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.`,
        });
      }
    },

    async resetPassword(token: string, password: string): Promise<void> {
      const now = clock.now();
      const row = await repos.passwordResets.consume(hashToken(token), now);
      if (!row) throw badRequest(RESET_MESSAGES.failed);
      await repos.users.setPasswordHash(row.user_id, await hashGate.run(() => hashPassword(password, config.scryptCost)), now);
      await repos.passwordResets.invalidateForUser(row.user_id, now);
      await repos.sessions.deleteForUser(row.user_id);
      logger.info('Password reset', { user: row.user_id });
    },

    /** Keeps the current session, signs out every other one. */
    async changePassword(user: UserRow, session: SessionRow, current: string, next: string, info: ClientInfo) {
      const attempt = await throttle.reserve([{ kind: 'account', value: accountKey(user, '') }]);
      if (attempt.blocked) throw tooManyRequests(attempt.retryAfterSeconds);
      const stored = user.password_hash;
      let valid: boolean;
      try {
        valid = !!stored && (await hashGate.run(() => verifyPassword(current, stored)));
      } catch (err) {
        await attempt.release();
        throw err;
      }
      if (!valid) {
        logger.warn('Password change with a wrong current password', { user: user.id, ip: info.ip });
        throw new ApiError(400, PASSWORD_CHANGE_MESSAGES.currentIncorrect, [
          { field: 'currentPassword', message: PASSWORD_CHANGE_MESSAGES.currentIncorrect },
        ]);
      }
      await attempt.release();
      const now = clock.now();
      await repos.users.setPasswordHash(user.id, await hashGate.run(() => hashPassword(next, config.scryptCost)), now);
      await repos.sessions.deleteForUser(user.id, session.id);
      logger.info('Password changed', { user: user.id });
    },

    /** Applies a new idle timeout to the user's open sessions too. */
    async applySessionTimeout(userId: string): Promise<void> {
      await repos.sessions.setIdleTimeoutForUser(userId, await idleTimeoutOf(userId));
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
