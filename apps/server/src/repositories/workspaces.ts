import { sql, type Insertable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { WorkspacesTable } from '../db/schema.ts';
import { precompiled, precompiledWrite } from './precompiled.ts';

/** One page of the user's workspaces, newest first, with the total count. */
export async function listWorkspaces(db: Database, userId: string, limit: number, offset: number) {
  const rows = await db
    .selectFrom('workspaces')
    .select(['id', 'name', 'type', 'thumbnail_id', 'updated_at', 'revision'])
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** Inserts the workspace row (its data goes in as revision rows). */
export async function insertWorkspace(db: Database, row: Insertable<WorkspacesTable>): Promise<void> {
  await db.insertInto('workspaces').values(row).execute();
}

const ownedWorkspace = precompiled((db: Database, id: string, userId: string) =>
  db.selectFrom('workspaces').selectAll().where('id', '=', id).where('user_id', '=', userId),
);

const sessionAndWorkspace = precompiled(
  (db: Database, id: string, tokenHash: string, nowIso: string, idleSinceIso: string) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('workspaces', (join) =>
        join.onRef('workspaces.user_id', '=', 'sessions.user_id').on('workspaces.id', '=', id),
      )
      .selectAll('users')
      .select([
        'workspaces.name as workspace_name',
        'workspaces.type as workspace_type',
        'workspaces.revision as workspace_revision',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', nowIso)
      .where(sql<string>`coalesce(sessions.last_seen_at, sessions.created_at)`, '>', idleSinceIso),
);

/**
 * The user of an unexpired session together with the head of one of their workspaces, in one round
 * trip: the editor's document read is the hottest call, and on PostgreSQL a second query costs more
 * than the work of the request itself. No row: no session; null workspace fields: not theirs (or gone).
 */
export async function findSessionUserAndMeta(
  db: Database,
  tokenHash: string,
  nowIso: string,
  id: string,
  idleSinceIso: string,
) {
  return (await sessionAndWorkspace(db, id, tokenHash, nowIso, idleSinceIso))[0];
}

/** The workspace row of an owned workspace; `lock` takes a row lock (PostgreSQL). */
export async function findMeta(db: Database, userId: string, id: string, lock = false) {
  if (!lock) return (await ownedWorkspace(db, id, userId))[0];
  return db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/** What a save writes on the workspace row besides the revision. */
export interface RevisionAdvance {
  revision: number;
  updated_at: string;
  thumbnail_ids: string;
  thumbnail_id: string | null;
  chain_patches: number;
  chain_bytes: number;
}

const advance = precompiledWrite(
  (
    db: Database,
    revision: number,
    updatedAt: string,
    thumbnailIds: string,
    thumbnailId: string | null,
    chainPatches: number,
    chainBytes: number,
    id: string,
    from: number,
  ) =>
    db
      .updateTable('workspaces')
      .set({
        revision,
        updated_at: updatedAt,
        thumbnail_ids: thumbnailIds,
        thumbnail_id: thumbnailId,
        chain_patches: chainPatches,
        chain_bytes: chainBytes,
      })
      .where('id', '=', id)
      .where('revision', '=', from),
);

/** Moves the workspace from revision `from` to the next; false when someone else moved it first. */
export async function advanceRevision(db: Database, id: string, from: number, set: RevisionAdvance): Promise<boolean> {
  const changed = await advance(
    db,
    set.revision,
    set.updated_at,
    set.thumbnail_ids,
    set.thumbnail_id,
    set.chain_patches,
    set.chain_bytes,
    id,
    from,
  );
  return changed > 0;
}

/** Sets the patches-since-keyframe counters (after retention rewrote the versions they count). */
export async function setChain(db: Database, id: string, chain: { patches: number; patchBytes: number }) {
  await db
    .updateTable('workspaces')
    .set({ chain_patches: chain.patches, chain_bytes: chain.patchBytes })
    .where('id', '=', id)
    .execute();
}

/** Renames an owned workspace; false when not found. */
export async function renameWorkspace(
  db: Database,
  userId: string,
  id: string,
  name: string,
  nowIso: string,
): Promise<boolean> {
  const result = await db
    .updateTable('workspaces')
    .set({ name, updated_at: nowIso })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes an owned workspace and its revisions. */
export async function deleteWorkspace(db: Database, userId: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const owned = await trx
      .selectFrom('workspaces')
      .select('id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!owned) return;
    await trx.deleteFrom('workspace_revisions').where('workspace_id', '=', id).execute();
    await trx.deleteFrom('workspaces').where('id', '=', id).execute();
  });
}
