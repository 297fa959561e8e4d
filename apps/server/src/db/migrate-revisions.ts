import { DEFAULT_KEYFRAMES, patchBetween, storedForm } from '@koma/domain';
import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * Rewrites the full-copy revisions kept before versions were stored as patches: per workspace, the oldest stays
 * a keyframe and each later one becomes the patch from the one before (or a keyframe when the rules say so).
 */
export async function migrateFullCopies(raw: Kysely<unknown>): Promise<void> {
  const db = raw as unknown as Kysely<DB>;
  const workspaces = await db.selectFrom('workspace_revisions').select('workspace_id').distinct().execute();
  for (const { workspace_id: id } of workspaces) {
    const rows = await db
      .selectFrom('workspace_revisions')
      .select(['revision', 'data'])
      .where('workspace_id', '=', id)
      .orderBy('revision')
      .execute();
    let previous: unknown = undefined;
    let since = { patches: 0, patchBytes: 0 };
    for (const row of rows) {
      let doc: unknown;
      try {
        doc = JSON.parse(row.data);
      } catch {
        // Not JSON: leave the row a keyframe as it was; the next version starts a new chain after it.
        previous = undefined;
        continue;
      }
      const form = storedForm(
        since,
        row.data,
        previous === undefined ? null : patchBetween(previous, doc),
        DEFAULT_KEYFRAMES,
      );
      previous = doc;
      if (form.kind === 'full') {
        since = { patches: 0, patchBytes: 0 };
        continue;
      }
      since = { patches: since.patches + 1, patchBytes: since.patchBytes + form.data.length };
      await db
        .updateTable('workspace_revisions')
        .set({ kind: 'patch', data: form.data })
        .where('workspace_id', '=', id)
        .where('revision', '=', Number(row.revision))
        .execute();
    }
  }
}
