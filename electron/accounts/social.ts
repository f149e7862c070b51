// Social sign-in, account side: a verified identity (issuer + subject) signs in the account it is
// linked to; else it is linked to the account with the same, provider-verified email; else a new
// account (without a password) is created and linked. Only verified claims are used.

import { randomInt } from 'node:crypto';
import { OIDC_MESSAGES } from '../../shared/messages';
import { conflict } from '../api/errors';
import type { Clock } from '../clock';
import type { Logger } from '../log';
import type { Db } from '../store/database';
import { isUniqueViolation } from '../store/dialect';
import type { Repos } from '../store/index';
import { createUsersRepo, type UserRow } from '../store/users';
import type { VerifiedIdentity } from './oidc';
import type { ClientInfo, SignInResult } from './service';

export interface SocialDeps {
  db: Db;
  repos: Repos;
  clock: Clock;
  logger: Logger;
  /** The accounts service's sign-in: a session, or the two-factor challenge when TOTP is on. */
  signIn(user: UserRow, info: ClientInfo, method: string): Promise<SignInResult>;
}

/** A username from the email's local part: the sign-up alphabet, 3 to 30 characters, made unique. */
async function freeUsername(repos: Repos, email: string): Promise<string> {
  let base = (email.split('@')[0] ?? '').toLowerCase().replace(/[^a-z0-9._-]/g, '').slice(0, 24);
  if (base.length < 3) base = `user${base}`;
  if (!(await repos.users.findByUsername(base))) return base;
  for (let i = 0; i < 20; i += 1) {
    const candidate = `${base}-${randomInt(1000, 1_000_000)}`;
    if (!(await repos.users.findByUsername(candidate))) return candidate;
  }
  throw conflict('Could not choose a username for this account. Please sign up with a password.');
}

export async function socialSignIn(deps: SocialDeps, identity: VerifiedIdentity, info: ClientInfo): Promise<SignInResult> {
  const { db, repos, clock, logger } = deps;
  const now = clock.now();
  let user = await repos.users.findByIdentity(identity.issuer, identity.subject);
  let how = 'linked identity';
  if (!user) {
    const existing = await repos.users.findByEmail(identity.email);
    if (existing) {
      // Only an email the provider vouches for may attach a new identity to an existing account.
      if (identity.emailVerified !== true) throw conflict(OIDC_MESSAGES.emailLinkRefused, 'email');
      await repos.users.linkIdentity(existing.id, identity.issuer, identity.subject, now);
      user = existing;
      how = 'identity linked to the account with the same verified email';
    } else {
      const username = await freeUsername(repos, identity.email);
      const p = identity.profile;
      const create = db.transaction().execute(async (trx) => {
        const users = createUsersRepo(trx);
        const created = await users.create(
          {
            email: identity.email,
            username,
            firstName: p.firstName || p.name || username,
            lastName: p.lastName,
            passwordHash: null,
            profilePicture: p.profilePicture,
          },
          now,
        );
        await users.linkIdentity(created.id, identity.issuer, identity.subject, now);
        return created;
      });
      user = await create.catch((err: unknown) => {
        // A sign-up or another sign-in took the email or username in between.
        if (isUniqueViolation(err)) throw conflict(OIDC_MESSAGES.emailLinkRefused, 'email');
        throw err;
      });
      how = 'new account';
    }
  }
  logger.info('Identity provider sign-in accepted', { user: user.id, issuer: identity.issuer, how, ip: info.ip });
  // The provider is a first factor like a password: an account with two-factor sign-in still answers a code.
  return deps.signIn(user, info, 'oidc');
}
