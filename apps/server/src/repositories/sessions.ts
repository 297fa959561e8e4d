import { sql } from 'kysely';
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
      last_seen_at: session.createdAt,
    })
    .execute();
}

const sessionUser = precompiled((db: Database, tokenHash: string, nowIso: string, idleSinceIso: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select('sessions.last_seen_at as session_seen_at')
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', nowIso)
    .where(sql<string>`coalesce(sessions.last_seen_at, sessions.created_at)`, '>', idleSinceIso),
);

/**
 * The user owning a session that is neither past its absolute expiry nor idle since `idleSinceIso` (runs on every
 * signed-in request), with when the session was last seen.
 */
export async function findSessionUser(
  db: Database,
  tokenHash: string,
  nowIso: string,
  idleSinceIso: string,
): Promise<(UsersTable & { session_seen_at: string | null }) | undefined> {
  return (await sessionUser(db, tokenHash, nowIso, idleSinceIso))[0];
}

/** Records that a session was used. */
export async function touchSession(db: Database, tokenHash: string, nowIso: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: nowIso }).where('token_hash', '=', tokenHash).execute();
}

/** Ends one session. */
export async function deleteSession(db: Database, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Drops sessions past their expiry or idle since `idleSinceIso`. */
export async function deleteExpiredSessions(db: Database, nowIso: string, idleSinceIso = ''): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<=', nowIso), eb(sql<string>`coalesce(last_seen_at, created_at)`, '<=', idleSinceIso)]),
    )
    .execute();
}
