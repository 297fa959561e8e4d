import type { Database } from '../db/database.ts';
import type { UsersTable } from '../db/schema.ts';

/** A user as every reply shows it. */
export interface PublicUser {
  id: string;
  email: string;
  name: string;
  plan: 'free' | 'subscriber';
  restrictedMode: boolean;
  credits: number;
  purchasedCredits: number;
}

/** Maps a users row to the public shape (never the password hash). */
export function toPublicUser(row: UsersTable): PublicUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    plan: row.plan,
    restrictedMode: row.restricted_mode === 1,
    credits: Number(row.credits),
    purchasedCredits: Number(row.purchased_credits),
  };
}

/** Inserts a user with zero balance; credits arrive through the ledger. */
export async function insertUser(
  db: Database,
  user: {
    id: string;
    email: string;
    name: string;
    passwordHash: string;
    plan: 'free' | 'subscriber';
    createdAt: string;
  },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      name: user.name,
      password_hash: user.passwordHash,
      plan: user.plan,
      restricted_mode: 0,
      credits: 0,
      purchased_credits: 0,
      created_at: user.createdAt,
    })
    .execute();
}

/** The user with this (normalised) email, if any. */
export async function findUserByEmail(db: Database, email: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** The user with this id, if any. */
export async function findUserById(db: Database, id: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sets plan and/or restricted mode; returns false when the user does not exist. */
export async function updateUserFlags(
  db: Database,
  id: string,
  flags: { plan?: 'free' | 'subscriber'; restrictedMode?: boolean },
): Promise<boolean> {
  const set: Partial<UsersTable> = {};
  if (flags.plan !== undefined) set.plan = flags.plan;
  if (flags.restrictedMode !== undefined) set.restricted_mode = flags.restrictedMode ? 1 : 0;
  if (Object.keys(set).length === 0) return (await findUserById(db, id)) !== undefined;
  const result = await db.updateTable('users').set(set).where('id', '=', id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
