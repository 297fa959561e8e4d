import {
  checkPatchShape,
  inferWorkspaceType,
  patchBetween,
  type DocumentText,
  type JsonPatch,
  type KnownObjects,
  type WorkspaceData,
  type WorkspaceType,
} from '@koma/domain';
import type { Database, DatabaseDialect } from '../db/database.ts';
import { HttpError, notFound, revisionConflict } from '../http/errors.ts';
import { isId, newId } from '../ids.ts';
import { toPublicUser, type PublicUser } from '../repositories/users.ts';
import * as repo from '../repositories/workspaces.ts';
import * as versionsRepo from '../repositories/revisions.ts';
import { hashToken } from './accounts.ts';
import type { DocumentCache } from './document-cache.ts';
import { HeadCache } from './head-cache.ts';
import { decodeBase64, type ImageStore } from './image-store.ts';
import {
  decodeOrThrow,
  patchHeldHead,
  patchStored,
  serialiseDocument,
  type PatchedDocument,
} from './workspace-documents.ts';
import { imageUrl, pruneThumbnails, THUMBNAIL_SIZE, thumbnailKey, thumbnailUrls } from './workspace-thumbnails.ts';
import { versionSummary, type VersionSummary, type WorkspaceRead, type WorkspaceSummary } from './workspace-views.ts';
import { LocalWorkspaceEvents, type WorkspaceEvents } from './workspace-events.ts';
import { DEFAULT_HISTORY, NO_CHAIN, VersionStore, type HistoryOptions, type SaveOrigin } from './version-store.ts';

/** What a committed save answers: the new revision, the workspace's type and thumbnails, images to delete. */
interface SavedRevision {
  revision: number;
  type: WorkspaceType;
  map: Record<string, string>;
  dropped: string[];
}

/** Workspaces: the rules of saving (validation, revisions, thumbnails, ownership). */
export class Workspaces {
  private readonly versions: VersionStore;

  constructor(
    private readonly db: Database,
    private readonly dialect: DatabaseDialect,
    private readonly images: ImageStore,
    private readonly cache: DocumentCache,
    private readonly now: () => Date = () => new Date(),
    /** How long a session may go unused (SESSION_IDLE_DAYS), for the session check this service makes itself. */
    private readonly sessionIdleMs = 7 * 24 * 3600 * 1000,
    /** Where "saved elsewhere" goes after each committed revision (the editors' live updates). */
    readonly events: WorkspaceEvents = new LocalWorkspaceEvents(),
    history: HistoryOptions = DEFAULT_HISTORY,
    /** Decoded heads, so that a patch save validates only what it changed. */
    private readonly heads: HeadCache = new HeadCache(64 * 1024 * 1024),
  ) {
    this.versions = new VersionStore(db, dialect, history, now);
  }

  /** The user's workspaces, newest first. */
  async list(userId: string, page: number, pageSize: number): Promise<{ items: WorkspaceSummary[]; total: number }> {
    const { rows, total } = await repo.listWorkspaces(this.db, userId, pageSize, (page - 1) * pageSize);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        name: row.name,
        type: row.type,
        thumbnailUrl: row.thumbnail_id ? imageUrl(row.thumbnail_id) : null,
        updatedAt: row.updated_at,
        revision: Number(row.revision),
      })),
    };
  }

  /** Creates a workspace at revision 1; the data must decode. */
  async create(
    userId: string,
    input: { name: string; data: unknown; thumbnail?: string | undefined; type?: WorkspaceType | undefined },
    origin: SaveOrigin = { tab: null, device: null },
  ): Promise<string> {
    const data = decodeOrThrow(input.data);
    const type = input.type ?? inferWorkspaceType(data);
    const map: Record<string, string> = {};
    let thumbnailId: string | null = null;
    if (input.thumbnail) {
      thumbnailId = await this.storeThumbnail(userId, type, input.thumbnail);
      map[thumbnailKey(type, data)] = thumbnailId;
    }
    const id = newId();
    const nowIso = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await repo.insertWorkspace(trx, {
        id,
        user_id: userId,
        name: input.name,
        type,
        revision: 1,
        thumbnail_ids: JSON.stringify(map),
        thumbnail_id: thumbnailId,
        created_at: nowIso,
        updated_at: nowIso,
      });
      await this.versions.append(trx, id, 1, this.versions.next(NO_CHAIN, serialiseDocument(data), null), {
        savedAt: nowIso,
        origin,
        thumbnailId,
      });
    });
    this.heads.set(id, 1, data);
    return id;
  }

  /** The current document as its stored JSON bytes, with name, type and revision; 404 when not the user's. */
  async get(userId: string, id: string): Promise<WorkspaceRead> {
    const meta = isId(id) ? await repo.findMeta(this.db, userId, id) : undefined;
    if (!meta) throw notFound('Workspace');
    return this.readRevision(id, meta);
  }

  /**
   * `get` for the holder of a session token, checking the session and reading the workspace head in one
   * query. Null when the token is unknown or expired (the caller answers 401); 404 when not theirs.
   */
  async getForSession(token: string, id: string): Promise<{ user: PublicUser; workspace: WorkspaceRead } | null> {
    // The route's schema has already refused ids that are not ours in shape; this guards other callers.
    if (!isId(id)) throw notFound('Workspace');
    const now = this.now();
    const idleSince = new Date(now.getTime() - this.sessionIdleMs).toISOString();
    const row = await repo.findSessionUserAndMeta(this.db, hashToken(token), now.toISOString(), id, idleSince);
    if (!row) return null;
    const user = toPublicUser(row);
    if (row.workspace_name === null || row.workspace_type === null || row.workspace_revision === null) {
      throw notFound('Workspace');
    }
    const meta = { name: row.workspace_name, type: row.workspace_type, revision: row.workspace_revision };
    return { user, workspace: await this.readRevision(id, meta) };
  }

  private async readRevision(
    id: string,
    meta: { name: string; type: WorkspaceType; revision: number | string },
  ): Promise<WorkspaceRead> {
    const revision = Number(meta.revision);
    let data = this.cache.get(id, revision);
    if (!data) {
      const json = this.heads.text(id, revision) ?? (await this.versions.rebuild(id, revision));
      // Deleted between the two reads.
      if (json === null) throw notFound('Workspace');
      data = Buffer.from(json);
      this.cache.set(id, revision, data);
    }
    return { name: meta.name, type: meta.type, revision, data };
  }

  /**
   * Saves a new revision. With `revision`, refuses with 409 unless it is the current one; without, the
   * last write wins. Invalid data is refused before anything is written.
   */
  async save(
    userId: string,
    id: string,
    input: { data: unknown; thumbnail?: string | undefined; revision?: number | undefined },
    tab: string | null = null,
    device: string | null = null,
  ): Promise<{ thumbnailUrls: string[]; revision: number }> {
    const data = decodeOrThrow(input.data);
    const meta = isId(id) ? await repo.findMeta(this.db, userId, id) : undefined;
    if (!meta) throw notFound('Workspace');
    if (input.revision !== undefined && input.revision !== Number(meta.revision)) {
      throw revisionConflict(Number(meta.revision));
    }
    const json = serialiseDocument(data);
    // The version is stored as what changed since the head this save replaces.
    const head = await this.readRevision(id, meta);
    const patch = {
      revision: head.revision,
      patch: patchBetween(JSON.parse(head.data.toString('utf8')), JSON.parse(json)),
    };
    const thumbnail = input.thumbnail ? { type: meta.type, encoded: input.thumbnail } : null;
    return this.commitSave(userId, data, thumbnail, (thumbnailId) =>
      this.writeRevision(userId, id, data, input.revision, thumbnailId, { tab, device }, json, patch),
    );
  }

  /**
   * Saves what changed: applies the JSON Patch to revision `revision` (which must still be the head, else 409),
   * validates the result with the same codec as a full save, and stores it as the next revision. A patch that
   * does not apply is a 400 naming the operation; nothing is written.
   */
  async savePatch(
    userId: string,
    id: string,
    input: { patch: unknown; revision: number; thumbnail?: string | undefined },
    tab: string | null = null,
    device: string | null = null,
  ): Promise<{ thumbnailUrls: string[]; revision: number }> {
    const shape = checkPatchShape(input.patch);
    if (shape) throw new HttpError(400, 'invalid_request', `patch${shape.startsWith('[') ? '' : ' '}${shape}`);
    const patch = input.patch as JsonPatch;
    let thumbnail: { type: WorkspaceType; encoded: string } | null = null;
    let next: PatchedDocument;
    const held = isId(id) && !input.thumbnail ? this.heads.get(id, input.revision) : undefined;
    if (held) {
      // This process holds revision `revision` decoded: no read first, as the transaction checks that the
      // workspace is the user's and still at that revision. A refused patch answers as if read first: 404 or 409
      // when those apply, so a stranger learns nothing from it and a stale base is a conflict.
      try {
        next = patchHeldHead(held, patch);
      } catch (err) {
        await this.head(userId, id, input.revision);
        throw err;
      }
    } else {
      const meta = isId(id) ? await repo.findMeta(this.db, userId, id) : undefined;
      if (!meta) throw notFound('Workspace');
      if (input.revision !== Number(meta.revision)) throw revisionConflict(Number(meta.revision));
      if (input.thumbnail) thumbnail = { type: meta.type, encoded: input.thumbnail };
      const head = this.heads.get(id, input.revision);
      if (head) next = patchHeldHead(head, patch);
      else {
        const base = await this.readRevision(id, meta);
        next = patchStored(JSON.parse(base.data.toString('utf8')), patch);
      }
    }
    const data = next.data;
    // writeRevision checks under the row lock that `revision` is the head.
    return this.commitSave(userId, data, thumbnail, (thumbnailId) =>
      this.writeRevision(
        userId,
        id,
        data,
        input.revision,
        thumbnailId,
        { tab, device },
        next.json,
        { revision: input.revision, patch: next.stored },
        next.known,
      ),
    );
  }

  /**
   * The end of a save, full or patch: the new thumbnail stored first (its bytes before the row that names them),
   * then `write` commits the revision; the images the new head no longer holds go, and a failed write takes the
   * thumbnail back.
   */
  private async commitSave(
    userId: string,
    data: WorkspaceData,
    thumbnail: { type: WorkspaceType; encoded: string } | null,
    write: (thumbnailId: string | null) => Promise<SavedRevision>,
  ): Promise<{ thumbnailUrls: string[]; revision: number }> {
    const newThumbnail = thumbnail ? await this.storeThumbnail(userId, thumbnail.type, thumbnail.encoded) : null;
    try {
      const result = await write(newThumbnail);
      await this.deleteImages(userId, result.dropped);
      return { thumbnailUrls: thumbnailUrls(result.type, data, result.map), revision: result.revision };
    } catch (err) {
      if (newThumbnail) await this.images.deleteImage(userId, newThumbnail);
      throw err;
    }
  }

  /** The head revision of an owned workspace; 404 when not the user's, 409 when not `expected` (if given). */
  async head(userId: string, id: string, expected?: number): Promise<number> {
    const meta = isId(id) ? await repo.findMeta(this.db, userId, id) : undefined;
    if (!meta) throw notFound('Workspace');
    const revision = Number(meta.revision);
    if (expected !== undefined && expected !== revision) throw revisionConflict(revision);
    return revision;
  }

  /** Renames; 404 when not the user's. */
  async rename(userId: string, id: string, name: string): Promise<{ id: string; name: string }> {
    const ok = isId(id) && (await repo.renameWorkspace(this.db, userId, id, name, this.now().toISOString()));
    if (!ok) throw notFound('Workspace');
    return { id, name };
  }

  /** Copies the current document (and its thumbnails) into a new workspace named "… (copy)". */
  async duplicate(userId: string, id: string): Promise<string> {
    const current = await this.get(userId, id);
    const meta = await repo.findMeta(this.db, userId, id);
    if (!meta) throw notFound('Workspace');
    const map: Record<string, string> = {};
    let thumbnailId: string | null = null;
    for (const [key, imageId] of Object.entries(JSON.parse(meta.thumbnail_ids) as Record<string, string>)) {
      const copy = await this.images.copyImage(userId, imageId);
      if (!copy) continue;
      map[key] = copy;
      if (imageId === meta.thumbnail_id) thumbnailId = copy;
    }
    return this.insertCopy(
      userId,
      `${current.name} (copy)`,
      current.type,
      current.data.toString('utf8'),
      map,
      thumbnailId,
    );
  }

  private async insertCopy(
    userId: string,
    name: string,
    type: WorkspaceType,
    json: string,
    map: Record<string, string>,
    thumbnailId: string | null,
  ): Promise<string> {
    const newIdValue = newId();
    const nowIso = this.now().toISOString();
    await this.db.transaction().execute(async (trx) => {
      await repo.insertWorkspace(trx, {
        id: newIdValue,
        user_id: userId,
        name,
        type,
        revision: 1,
        thumbnail_ids: JSON.stringify(map),
        thumbnail_id: thumbnailId,
        created_at: nowIso,
        updated_at: nowIso,
      });
      await this.versions.append(trx, newIdValue, 1, this.versions.next(NO_CHAIN, json, null), {
        savedAt: nowIso,
        origin: { tab: null, device: null },
        thumbnailId,
      });
    });
    return newIdValue;
  }

  /** Deletes the workspace, its versions and its thumbnails (those old versions name too); 404 when not the user's. */
  async delete(userId: string, id: string): Promise<void> {
    const meta = isId(id) ? await repo.findMeta(this.db, userId, id) : undefined;
    if (!meta) throw notFound('Workspace');
    const named = await versionsRepo.thumbnailsInUse(this.db, id);
    await repo.deleteWorkspace(this.db, userId, id);
    this.heads.delete(id);
    const current = Object.values(JSON.parse(meta.thumbnail_ids) as Record<string, string>);
    await this.deleteImages(userId, [...new Set([...current, ...named])]);
  }

  /** Kept versions, newest first, `limit` of them below `before` (a revision) when given. */
  async revisions(
    userId: string,
    id: string,
    page: { before?: number | undefined; limit?: number | undefined } = {},
  ): Promise<{ head: number; items: VersionSummary[] }> {
    const meta = isId(id) ? await repo.findMeta(this.db, userId, id) : undefined;
    if (!meta) throw notFound('Workspace');
    const rows = await versionsRepo.listVersions(this.db, id, page.before, page.limit ?? 100);
    return {
      head: Number(meta.revision),
      items: rows.map((row) => versionSummary(Number(row.revision), row)),
    };
  }

  /** One kept version, rebuilt, read-only; 404 when the workspace is not the user's or the version is not kept. */
  async version(
    userId: string,
    id: string,
    revision: number,
  ): Promise<{ name: string; type: WorkspaceType; summary: VersionSummary; data: Buffer }> {
    const meta = isId(id) ? await repo.findMeta(this.db, userId, id) : undefined;
    if (!meta) throw notFound('Workspace');
    const row = await versionsRepo.findVersionMeta(this.db, id, revision);
    if (!row) throw notFound('Version');
    let data = this.cache.get(id, revision);
    if (!data) {
      const json = await this.versions.rebuild(id, revision);
      if (json === null) throw notFound('Version');
      data = Buffer.from(json);
      this.cache.set(id, revision, data);
    }
    return {
      name: meta.name,
      type: meta.type,
      data,
      summary: versionSummary(revision, row),
    };
  }

  /** Makes an old version current again, as a new version (so the restore itself can be undone the same way). */
  async restore(
    userId: string,
    id: string,
    revision: number,
    origin: SaveOrigin = { tab: null, device: null },
  ): Promise<number> {
    const old = await this.version(userId, id, revision);
    const meta = await repo.findMeta(this.db, userId, id);
    if (!meta) throw notFound('Workspace');
    const data = decodeOrThrow(JSON.parse(old.data.toString('utf8')));
    const json = serialiseDocument(data);
    const head = await this.readRevision(id, meta);
    const patch = {
      revision: head.revision,
      patch: patchBetween(JSON.parse(head.data.toString('utf8')), JSON.parse(json)),
    };
    const result = await this.writeRevision(userId, id, data, undefined, null, origin, json, patch);
    await this.deleteImages(userId, result.dropped);
    return result.revision;
  }

  /** A new workspace holding one kept version, named "… (version N)", with that version's thumbnail. */
  async copyVersion(userId: string, id: string, revision: number, name?: string): Promise<string> {
    const old = await this.version(userId, id, revision);
    const data = decodeOrThrow(JSON.parse(old.data.toString('utf8')));
    const map: Record<string, string> = {};
    let thumbnailId: string | null = null;
    const named = old.summary.thumbnailUrl ? old.summary.thumbnailUrl.split('/').pop() : undefined;
    if (named) {
      thumbnailId = await this.images.copyImage(userId, named);
      if (thumbnailId) map[thumbnailKey(old.type, data)] = thumbnailId;
    }
    return this.insertCopy(
      userId,
      name ?? `${old.name} (version ${revision})`,
      old.type,
      serialiseDocument(data),
      map,
      thumbnailId,
    );
  }

  private async writeRevision(
    userId: string,
    id: string,
    data: WorkspaceData,
    expected: number | undefined,
    newThumbnail: string | null,
    origin: SaveOrigin,
    json: string | DocumentText,
    /** The stored patch from revision `revision` to this document; used when that revision is still the head. */
    fromHead: { revision: number; patch: string } | null,
    /** What is known of the document's objects, when it was made from a decoded head. */
    known?: KnownObjects,
  ): Promise<SavedRevision> {
    const result = await this.db.transaction().execute(async (trx): Promise<SavedRevision> => {
      const nowIso = this.now().toISOString();
      // One statement checks owner and base revision, moves the head and reads what the rest needs, holding the
      // row until the commit. It counts the patch into the keyframe counters; the rare save that stores a keyframe
      // or changes thumbnails corrects the row below.
      const likely = fromHead && (expected === undefined || fromHead.revision === expected) ? fromHead.patch : null;
      const head = await repo.moveHead(trx, userId, id, expected, nowIso, likely === null ? null : likely.length);
      if (!head) {
        const meta = await repo.findMeta(trx, userId, id);
        if (!meta) throw notFound('Workspace');
        throw revisionConflict(Number(meta.revision));
      }
      const revision = head.revision;
      const current = revision - 1;
      const map = JSON.parse(head.thumbnail_ids) as Record<string, string>;
      const dropped: string[] = [];
      let thumbnailId = head.thumbnail_id;
      if (newThumbnail) {
        const key = thumbnailKey(head.type, data);
        const previous = map[key];
        if (previous) dropped.push(previous);
        map[key] = newThumbnail;
        thumbnailId = newThumbnail;
      }
      const pruned = pruneThumbnails(head.type, data, map);
      dropped.push(...pruned.dropped);
      if (thumbnailId && !Object.values(pruned.kept).includes(thumbnailId)) {
        thumbnailId = Object.values(pruned.kept)[0] ?? null;
      }
      // A save without a base revision may land on a head saved meanwhile: then the patch is not from it.
      const patch = fromHead?.revision === current ? fromHead.patch : null;
      const counted = likely === null ? 0 : 1;
      const since = {
        patches: head.chain_patches - counted,
        patchBytes: head.chain_bytes - (likely === null ? 0 : likely.length),
      };
      const version = this.versions.next(since, json, patch);
      const thumbnailIds = JSON.stringify(pruned.kept);
      if (
        version.chain.patches !== head.chain_patches ||
        version.chain.patchBytes !== head.chain_bytes ||
        thumbnailIds !== head.thumbnail_ids ||
        thumbnailId !== head.thumbnail_id
      ) {
        await repo.setHeadDetails(trx, id, {
          thumbnail_ids: thumbnailIds,
          thumbnail_id: thumbnailId,
          chain_patches: version.chain.patches,
          chain_bytes: version.chain.patchBytes,
        });
      }
      await this.versions.append(trx, id, revision, version, { savedAt: nowIso, origin, thumbnailId });
      // A replaced thumbnail stays while an older version still shows it.
      const named = dropped.length > 0 ? await versionsRepo.thumbnailsInUse(trx, id) : new Set<string>();
      return { revision, type: head.type, map: pruned.kept, dropped: dropped.filter((t) => !named.has(t)) };
    });
    // Only after the commit: a rolled-back revision must never be served.
    if (typeof json === 'string') this.cache.set(id, result.revision, Buffer.from(json));
    this.heads.set(id, result.revision, data, { length: json.length, ...(known ? { known } : {}) });
    this.events.publish({ workspaceId: id, revision: result.revision, tab: origin.tab });
    // Retention after the save is stored; a failed pass changes nothing and the next save tries again.
    try {
      result.dropped.push(...(await this.versions.pruneIfDue(id)));
    } catch {
      // Nothing to undo: the pass runs in its own transaction.
    }
    return result;
  }
  private async storeThumbnail(userId: string, type: WorkspaceType, encoded: string): Promise<string> {
    const size = THUMBNAIL_SIZE[type];
    return this.images.putThumbnail(userId, decodeBase64(encoded, 'thumbnail'), size.width, size.height);
  }

  private async deleteImages(userId: string, ids: string[]): Promise<void> {
    for (const imageId of ids) await this.images.deleteImage(userId, imageId);
  }
}
