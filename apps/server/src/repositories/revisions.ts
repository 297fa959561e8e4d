import { sql } from 'kysely';
import type { StoredVersion } from '@koma/domain';
import type { Database } from '../db/database.ts';
import type { WorkspaceRevisionsTable } from '../db/schema.ts';
import { precompiledWrite } from './precompiled.ts';

const insert = precompiledWrite(
  (
    db: Database,
    workspaceId: string,
    revision: number,
    kind: WorkspaceRevisionsTable['kind'],
    data: string,
    savedAt: string,
    tab: string | null,
    device: string | null,
    thumbnailId: string | null,
  ) =>
    db.insertInto('workspace_revisions').values({
      workspace_id: workspaceId,
      revision,
      kind,
      data,
      saved_at: savedAt,
      tab,
      device,
      thumbnail_id: thumbnailId,
    }),
);

/** Inserts one stored version. */
export async function insertVersion(db: Database, row: WorkspaceRevisionsTable): Promise<void> {
  await insert(
    db,
    row.workspace_id,
    row.revision,
    row.kind,
    row.data,
    row.saved_at,
    row.tab,
    row.device,
    row.thumbnail_id,
  );
}

/** The stored rows that rebuild `revision`: from the last keyframe at or before it up to it, ascending. */
export async function chainTo(db: Database, id: string, revision: number): Promise<StoredVersion[]> {
  const keyframe = await db
    .selectFrom('workspace_revisions')
    .select((eb) => eb.fn.max('revision').as('r'))
    .where('workspace_id', '=', id)
    .where('kind', '=', 'full')
    .where('revision', '<=', revision)
    .executeTakeFirst();
  const from = keyframe?.r === null || keyframe?.r === undefined ? 0 : Number(keyframe.r);
  const rows = await db
    .selectFrom('workspace_revisions')
    .select(['revision', 'kind', 'data'])
    .where('workspace_id', '=', id)
    .where('revision', '>=', from)
    .where('revision', '<=', revision)
    .orderBy('revision')
    .execute();
  return rows.map((row) => ({ revision: Number(row.revision), kind: row.kind, data: row.data }));
}

/**
 * How many patches follow the last keyframe, and their length, counted from the versions themselves (a save
 * reads the counters the workspace row keeps; retention recounts them here after rewriting versions).
 */
export async function chainLength(db: Database, id: string): Promise<{ patches: number; patchBytes: number }> {
  const row = await db
    .selectFrom('workspace_revisions')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum(sql<number>`length(data)`).as('bytes')])
    .where('workspace_id', '=', id)
    .where(
      'revision',
      '>',
      db
        .selectFrom('workspace_revisions')
        .select((eb) => eb.fn.coalesce(eb.fn.max('revision'), sql<number>`0`).as('k'))
        .where('workspace_id', '=', id)
        .where('kind', '=', 'full'),
    )
    .executeTakeFirst();
  return { patches: Number(row?.n ?? 0), patchBytes: Number(row?.bytes ?? 0) };
}

/** One page of versions, newest first, with what the list shows about each. */
export async function listVersions(db: Database, id: string, before: number | undefined, limit: number) {
  let query = db
    .selectFrom('workspace_revisions')
    .select(['revision', 'saved_at', 'kind', 'tab', 'device', 'thumbnail_id', sql<number>`length(data)`.as('bytes')])
    .where('workspace_id', '=', id);
  if (before !== undefined) query = query.where('revision', '<', before);
  return query.orderBy('revision', 'desc').limit(limit).execute();
}

/** Revision, time and size of every stored version, ascending (what retention decides on). */
export async function datedVersions(db: Database, id: string) {
  return db
    .selectFrom('workspace_revisions')
    .select(['revision', 'saved_at'])
    .where('workspace_id', '=', id)
    .orderBy('revision')
    .execute();
}

/** Every stored version from `from` on, ascending, with its data (what pruning rewrites). */
export async function storedFrom(db: Database, id: string, from: number) {
  const rows = await db
    .selectFrom('workspace_revisions')
    .select(['revision', 'kind', 'data', 'thumbnail_id'])
    .where('workspace_id', '=', id)
    .where('revision', '>=', from)
    .orderBy('revision')
    .execute();
  return rows.map((row) => ({ ...row, revision: Number(row.revision) }));
}

/** The last keyframe at or before `revision` (0 when none). */
export async function keyframeAtOrBefore(db: Database, id: string, revision: number): Promise<number> {
  const row = await db
    .selectFrom('workspace_revisions')
    .select((eb) => eb.fn.max('revision').as('r'))
    .where('workspace_id', '=', id)
    .where('kind', '=', 'full')
    .where('revision', '<=', revision)
    .executeTakeFirst();
  return row?.r === null || row?.r === undefined ? 0 : Number(row.r);
}

/** Replaces how one version is stored (after the versions before it were pruned). */
export async function rewriteVersion(db: Database, id: string, version: StoredVersion): Promise<void> {
  await db
    .updateTable('workspace_revisions')
    .set({ kind: version.kind, data: version.data })
    .where('workspace_id', '=', id)
    .where('revision', '=', version.revision)
    .execute();
}

/** Deletes the given versions. */
export async function deleteVersions(db: Database, id: string, revisions: readonly number[]): Promise<void> {
  // Bounded IN lists: SQLite limits bound parameters per statement.
  for (let i = 0; i < revisions.length; i += 500) {
    await db
      .deleteFrom('workspace_revisions')
      .where('workspace_id', '=', id)
      .where('revision', 'in', revisions.slice(i, i + 500))
      .execute();
  }
}

/** One stored version's metadata. */
export async function findVersionMeta(db: Database, id: string, revision: number) {
  return db
    .selectFrom('workspace_revisions')
    .select(['revision', 'saved_at', 'tab', 'device', 'thumbnail_id'])
    .where('workspace_id', '=', id)
    .where('revision', '=', revision)
    .executeTakeFirst();
}

/** Thumbnail images some stored version of the workspace still names. */
export async function thumbnailsInUse(db: Database, id: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('workspace_revisions')
    .select('thumbnail_id')
    .distinct()
    .where('workspace_id', '=', id)
    .where('thumbnail_id', 'is not', null)
    .execute();
  return new Set(rows.map((row) => row.thumbnail_id).filter((t): t is string => t !== null));
}
