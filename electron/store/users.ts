// Users repository: accounts and their linked identity-provider subjects.

import { randomUUID } from 'node:crypto';
import type { User } from '../../shared/contract';
import type { Db } from './database';
import type { Insertable, Selectable } from 'kysely';
import type { UsersTable } from './schema';

export type UserRow = Selectable<UsersTable>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    profilePicture: row.profile_picture,
  };
}

export interface NewUser {
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  profilePicture?: string | null;
}

export function createUsersRepo(db: Db) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    },
    async findByUsername(username: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('username', '=', username.toLowerCase()).executeTakeFirst();
    },
    async create(input: NewUser, now: Date): Promise<UserRow> {
      const row: Insertable<UsersTable> & UserRow = {
        id: randomUUID(),
        totp_enabled: 0,
        totp_last_step: 0,
        email: input.email.toLowerCase(),
        username: input.username.toLowerCase(),
        first_name: input.firstName,
        last_name: input.lastName,
        password_hash: input.passwordHash,
        profile_picture: input.profilePicture ?? null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      await db.insertInto('users').values(row).execute();
      return row;
    },
    async updateNames(
      id: string,
      fields: { firstName: string; lastName: string; username?: string },
      now: Date,
    ): Promise<void> {
      await db
        .updateTable('users')
        .set({
          first_name: fields.firstName,
          last_name: fields.lastName,
          ...(fields.username ? { username: fields.username.toLowerCase() } : {}),
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .execute();
    },
    async setPasswordHash(id: string, hash: string, now: Date): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: hash, updated_at: now.toISOString() })
        .where('id', '=', id)
        .execute();
    },
    async findByIdentity(issuer: string, subject: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('identities')
        .innerJoin('users', 'users.id', 'identities.user_id')
        .selectAll('users')
        .where('identities.issuer', '=', issuer)
        .where('identities.subject', '=', subject)
        .executeTakeFirst();
    },
    async linkIdentity(userId: string, issuer: string, subject: string, now: Date): Promise<void> {
      await db
        .insertInto('identities')
        .values({ user_id: userId, issuer, subject, created_at: now.toISOString() })
        .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
        .execute();
    },
    async count(): Promise<number> {
      const r = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
