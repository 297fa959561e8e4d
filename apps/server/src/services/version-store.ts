// How a workspace's versions are kept: as keyframes and patches (packages/domain/src/history), rebuilt on demand,
// pruned by the retention policy with the dropped patches merged into the next kept version.
import {
  DEFAULT_KEYFRAMES,
  DEFAULT_RETENTION,
  planPrune,
  rebuildVersion,
  retainedRevisions,
  storedForm,
  type DocumentText,
  type KeyframePolicy,
  type RetentionPolicy,
  type StoredVersionKind,
} from '@koma/domain';
import type { Database, DatabaseDialect } from '../db/database.ts';
import * as repo from '../repositories/revisions.ts';
import * as workspaces from '../repositories/workspaces.ts';

export interface HistoryOptions {
  retention: RetentionPolicy;
  keyframes: KeyframePolicy;
  /** At most one retention pass per workspace per this many ms (each save checks). */
  pruneEveryMs: number;
}

export const DEFAULT_HISTORY: HistoryOptions = {
  retention: DEFAULT_RETENTION,
  keyframes: DEFAULT_KEYFRAMES,
  pruneEveryMs: 5 * 60_000,
};

/** The patches stored since the last keyframe and their total length (kept on the workspace row). */
export interface ChainLength {
  patches: number;
  patchBytes: number;
}

/** A version right after a keyframe. */
export const NO_CHAIN: ChainLength = { patches: 0, patchBytes: 0 };

/** How a version is stored, and the chain it leaves for the next one. */
export interface NextVersion {
  kind: StoredVersionKind;
  data: string;
  chain: ChainLength;
}

/** Where a save came from, recorded with its version. */
export interface SaveOrigin {
  tab: string | null;
  device: string | null;
}

export class VersionStore {
  private readonly nextPrune = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly dialect: DatabaseDialect,
    private readonly options: HistoryOptions,
    private readonly now: () => Date,
  ) {}

  /**
   * How the next version is stored: the patch from the previous version when one is given and the keyframe rules
   * allow, else the whole document; with the chain after it (`since`: the patches stored since the last keyframe,
   * which the workspace row keeps).
   */
  next(since: ChainLength, json: string | DocumentText, patchFromPrevious: string | null): NextVersion {
    const form = storedForm(since, json, patchFromPrevious, this.options.keyframes);
    const chain =
      form.kind === 'full' ? NO_CHAIN : { patches: since.patches + 1, patchBytes: since.patchBytes + form.data.length };
    return { ...form, chain };
  }

  /** Stores a version made by `next` inside the caller's transaction. */
  async append(
    trx: Database,
    id: string,
    revision: number,
    form: NextVersion,
    meta: { savedAt: string; origin: SaveOrigin; thumbnailId: string | null },
  ): Promise<void> {
    await repo.insertVersion(trx, {
      workspace_id: id,
      revision,
      kind: form.kind,
      data: form.data,
      saved_at: meta.savedAt,
      tab: meta.origin.tab,
      device: meta.origin.device,
      thumbnail_id: meta.thumbnailId,
    });
  }

  /** The saved JSON of one stored version; null when it is not stored (pruned, or never was). */
  async rebuild(id: string, revision: number): Promise<string | null> {
    const chain = await repo.chainTo(this.db, id, revision);
    if (chain.at(-1)?.revision !== revision) return null;
    // A lone keyframe is served as stored, byte for byte.
    if (chain.length === 1 && chain[0]!.kind === 'full') return chain[0]!.data;
    const rebuilt = rebuildVersion(chain);
    // A chain that does not rebuild is a bug or a damaged database, never the user's doing: say which.
    if (!rebuilt.ok) throw new Error(`Workspace ${id} revision ${revision} does not rebuild: ${rebuilt.error}`);
    return JSON.stringify(rebuilt.value);
  }

  /** Runs the retention pass for a workspace when one is due; returns thumbnail ids no version names any more. */
  async pruneIfDue(id: string): Promise<string[]> {
    const now = this.now().getTime();
    if (now < (this.nextPrune.get(id) ?? 0)) return [];
    if (this.nextPrune.size > 10_000) this.nextPrune.clear();
    this.nextPrune.set(id, now + this.options.pruneEveryMs);
    return this.prune(id);
  }

  /** Drops what the retention policy does not keep, keeping every kept version rebuildable. */
  async prune(id: string): Promise<string[]> {
    const released = await this.db.transaction().execute(async (trx) => {
      // Same lock as a save, so a save and a pass never interleave (SQLite serialises writers anyway).
      const owner = await trx.selectFrom('workspaces').select('user_id').where('id', '=', id).executeTakeFirst();
      if (!owner) return [];
      if (this.dialect === 'postgres') await workspaces.findMeta(trx, owner.user_id, id, true);
      const dated = await repo.datedVersions(trx, id);
      const keep = retainedRevisions(
        dated.map((v) => ({ revision: Number(v.revision), savedAt: Date.parse(v.saved_at) })),
        this.now().getTime(),
        this.options.retention,
      );
      const firstDropped = dated.map((v) => Number(v.revision)).find((r) => !keep.has(r));
      if (firstDropped === undefined) return [];
      const from = await repo.keyframeAtOrBefore(trx, id, firstDropped);
      const stored = await repo.storedFrom(trx, id, from);
      const plan = planPrune(stored, keep);
      // An unreadable chain is left as it is: dropping around it could lose what still rebuilds.
      if (!plan.ok) return [];
      for (const version of plan.rewrite) await repo.rewriteVersion(trx, id, version);
      await repo.deleteVersions(trx, id, plan.drop);
      // Rewritten and dropped versions may be among those the row's keyframe counters count.
      await workspaces.setChain(trx, id, await repo.chainLength(trx, id));
      const dropped = new Set(plan.drop);
      const candidates = stored
        .filter((v) => dropped.has(v.revision))
        .map((v) => v.thumbnail_id)
        .filter((t): t is string => t !== null);
      if (candidates.length === 0) return [];
      const inUse = await repo.thumbnailsInUse(trx, id);
      const meta = await trx
        .selectFrom('workspaces')
        .select(['thumbnail_ids', 'thumbnail_id'])
        .where('id', '=', id)
        .executeTakeFirst();
      const current = new Set(Object.values(JSON.parse(meta?.thumbnail_ids ?? '{}') as Record<string, string>));
      if (meta?.thumbnail_id) current.add(meta.thumbnail_id);
      return [...new Set(candidates)].filter((t) => !inUse.has(t) && !current.has(t));
    });
    return released;
  }
}
