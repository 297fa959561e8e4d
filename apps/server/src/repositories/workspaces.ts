import { sql, type Insertable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { WorkspacesTable } from '../db/schema.ts';
import { precompiled } from './precompiled.ts';

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

/** What a save reads back from the workspace row it moved to the next revision. */
export interface MovedHead {
  revision: number;
  type: WorkspacesTable['type'];
  thumbnail_ids: string;
  thumbnail_id: string | null;
  chain_patches: number;
  chain_bytes: number;
}

const returned = ['revision', 'type', 'thumbnail_ids', 'thumbnail_id', 'chain_patches', 'chain_bytes'] as const;

/** The owned workspace's row moved to its next revision, one patch of `bytes` added to the chain. */
const headMove = (db: Database, updatedAt: string, patches: number, bytes: number, id: string, userId: string) =>
  db
    .updateTable('workspaces')
    .set((eb) => ({
      revision: sql<number>`revision + 1`,
      updated_at: updatedAt,
      chain_patches: eb('chain_patches', '+', patches),
      chain_bytes: eb('chain_bytes', '+', bytes),
    }))
    .where('id', '=', id)
    .where('user_id', '=', userId);

const moveHeadFrom = precompiled(
  (db: Database, updatedAt: string, patches: number, bytes: number, id: string, userId: string, from: number) =>
    headMove(db, updatedAt, patches, bytes, id, userId).where('revision', '=', from).returning(returned),
);

const moveHeadAny = precompiled(
  (db: Database, updatedAt: string, patches: number, bytes: number, id: string, userId: string) =>
    headMove(db, updatedAt, patches, bytes, id, userId).returning(returned),
);

/**
 * Moves an owned workspace to its next revision in one statement (which holds the row lock until the transaction
 * ends, on PostgreSQL as on SQLite), from revision `from` when given, adding one patch of `patchLength` to the
 * keyframe counters (or nothing, when null); answers the row as it now is. Undefined when the workspace is not
 * the user's or no longer at `from`.
 */
export async function moveHead(
  db: Database,
  userId: string,
  id: string,
  from: number | undefined,
  updatedAt: string,
  patchLength: number | null,
): Promise<MovedHead | undefined> {
  const patches = patchLength === null ? 0 : 1;
  const bytes = patchLength ?? 0;
  const rows =
    from === undefined
      ? await moveHeadAny(db, updatedAt, patches, bytes, id, userId)
      : await moveHeadFrom(db, updatedAt, patches, bytes, id, userId, from);
  const row = rows[0];
  if (!row) return undefined;
  return {
    ...row,
    revision: Number(row.revision),
    chain_patches: Number(row.chain_patches),
    chain_bytes: Number(row.chain_bytes),
  };
}

/** Corrects what `moveHead` wrote when the save's thumbnails or keyframe counters turned out otherwise. */
export async function setHeadDetails(
  db: Database,
  id: string,
  set: { thumbnail_ids: string; thumbnail_id: string | null; chain_patches: number; chain_bytes: number },
): Promise<void> {
  await db.updateTable('workspaces').set(set).where('id', '=', id).execute();
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
