import type { Database } from '../db/database.ts';
import type { UsersTable } from '../db/schema.ts';
import { precompiled } from './precompiled.ts';

/** Stores a session by the hash of its token. */
export async function insertSession(
  db: Database,
  session: { tokenHash: string; userId: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

const sessionUser = precompiled((db: Database, tokenHash: string, nowIso: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', nowIso),
);

/** The user owning an unexpired session, if any (runs on every signed-in request). */
export async function findSessionUser(
  db: Database,
  tokenHash: string,
  nowIso: string,
): Promise<UsersTable | undefined> {
  return (await sessionUser(db, tokenHash, nowIso))[0];
}

/** Ends one session. */
export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Drops sessions past their expiry. */
export async function deleteExpiredSessions(db: Database, nowIso: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', nowIso).execute();
}
