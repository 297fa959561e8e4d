import {
  decodeWorkspaceData,
  diffJson,
  encodeWorkspaceData,
  VIEW_EASE_TO_TARGET_MS,
  VIEW_EASE_ZOOM_MS,
  type DocumentRepair,
  type TextData,
  type ViewTransform,
  type WorkspaceType,
} from '@koma/domain';
import {
  Autosave,
  Editor,
  InteractionController,
  UiStore,
  ViewAnimator,
  bindUiRepair,
  changeVariation,
  cycledIndex,
  denormalize,
  fitRect,
  handleKeyDown,
  handleKeyUp,
  initialUiState,
  normalize,
  placedBoundsOf,
  rebase,
  stepZoom,
  zoomAbout,
  type InteractionHost,
  type KeyInput,
  type DocState,
  type LayerNode,
  type SaveRefusal,
  type SaveRequest,
  type ShortcutActions,
} from '@koma/editor';
import { isApiError, type KomaApi } from '../api/index.ts';
import type { WorkspaceRecord } from '../api/types.ts';
import { i18n } from '../i18n/index.ts';
import { refusalText } from './refusals.ts';
import { newBubbleForLocale } from '../canvas/new-bubble.ts';
import { LiveUpdates } from './sync/live.ts';
import { SaveOrigins, type SaveOrigin } from './sync/save-origins.ts';
import { LocalCopyKeeper } from './sync/local-keeper.ts';
import { refusalReason } from './sync/refusal.ts';

/** Past this many bytes of patch a full save is sent instead (a 10-page comic is about 300 KB). */
const PATCH_LIMIT_BYTES = 64 * 1024;

export interface Viewport {
  width: number;
  height: number;
}

/** Extra actions the generation flows plug in (issue 9); without them the keys do nothing. */
export interface GenerationActions {
  generateAtPointer?(): void;
  generateFromPoseOrSketch?(): void;
  estimatePose?(): void;
}

/**
 * One open workspace: the headless editor, its UI state, the pointer controller, autosave and the calls to the
 * server. React components read it through hooks; the canvas renders it.
 */
export class EditorSession implements InteractionHost {
  readonly editor: Editor;
  readonly ui: UiStore;
  readonly controller: InteractionController;
  readonly autosave: Autosave;
  readonly type: WorkspaceType;
  name: string;
  revision: number;
  viewport: Viewport = { width: 800, height: 600 };
  generation: GenerationActions = {};
  /** What the codec repaired when this document was loaded (shown to the user once, then saved). */
  readonly repairs: readonly DocumentRepair[];
  /** The canvas registers how to make a thumbnail (base64 webp) of the open page. */
  thumbnail: (() => Promise<string | null>) | null = null;
  private readonly animator: ViewAnimator;
  /**
   * The saved form the server holds at `revision`, as this tab last saw it: the base that patch saves diff
   * against. Null when unknown (then the next save sends the whole document).
   */
  private acknowledged: { revision: number; data: unknown } | null;
  private readonly restricted: boolean;
  /** The unsaved document on this device (IndexedDB), so closing the tab loses nothing. */
  readonly localCopy: LocalCopyKeeper;
  private live: LiveUpdates | null = null;
  /** The newest revision heard of from elsewhere, and the fetch that brings it in (one at a time). */
  private remoteRevision = 0;
  private pulling: Promise<void> | null = null;
  /** Which tab stored each revision heard of, to name where a conflicting version came from. */
  private readonly origins = new SaveOrigins();
  /** The revision the open conflict is with. */
  private conflictRevision: number | null = null;
  private disposed = false;

  constructor(
    readonly workspaceId: string,
    record: WorkspaceRecord,
    private readonly api: KomaApi,
    /** `readOnly`: a version shown by the History panel; every edit is refused and nothing is saved. */
    options: { restricted?: boolean; readOnly?: boolean } = {},
  ) {
    // The stored bytes as the server holds them; decoding may repair its own input, so it gets a copy.
    this.acknowledged = { revision: record.revision, data: structuredClone(record.data) };
    const decoded = decodeWorkspaceData(record.data);
    if (!decoded.ok) throw new Error(decoded.error.message);
    this.repairs = decoded.repairs;
    this.type = record.type;
    this.name = record.name;
    this.revision = record.revision;
    this.restricted = options.restricted ?? false;
    this.editor = new Editor(this.stateOf(decoded.value), { readOnly: options.readOnly ?? false });
    this.ui = new UiStore(initialUiState(decoded.value.lastPage));
    // Undo, redo and saves from elsewhere can take away the open page or selected layers: the UI follows.
    bindUiRepair(this.editor, this.ui);
    this.controller = new InteractionController(this);
    this.editor.onError((message) => this.ui.notify(message, 'error'));
    this.localCopy = new LocalCopyKeeper(workspaceId, () =>
      this.editor.dirty
        ? { baseRevision: this.revision, data: encodeWorkspaceData(denormalize(this.editor.doc)) }
        : null,
    );
    this.editor.subscribe(() => {
      if (this.editor.dirty) this.localCopy.changed();
    });
    this.autosave = new Autosave(this.editor, (request) => this.save(request), {
      setInterval: (cb, ms) => window.setInterval(cb, ms),
      clearInterval: (h) => window.clearInterval(h as number),
    });
    // Everything acknowledged: the copy on this device is no longer needed (edits made during a save keep it).
    this.autosave.onStatus((status) => {
      if (status === 'saved') this.localCopy.saved();
    });
    this.animator = new ViewAnimator(
      {
        now: () => performance.now(),
        requestFrame: (cb) => requestAnimationFrame(cb),
        cancelFrame: (h) => cancelAnimationFrame(h),
      },
      (view) => this.setView(view),
    );
  }

  // InteractionHost
  activeRoot(): string {
    const page = this.editor.doc.pages[this.ui.state.activePage];
    return page ? page.rootId : this.editor.doc.rootId;
  }

  newBubble(): TextData {
    return newBubbleForLocale();
  }

  view(): ViewTransform {
    const doc = this.editor.doc;
    return doc.pages[this.ui.state.activePage]?.viewTransform ?? doc.viewTransform;
  }

  setView(view: ViewTransform): void {
    const page = this.editor.doc.pages[this.ui.state.activePage];
    this.editor.setView(view, page?.uuid);
  }

  /** The area the view centres on: the open page, or everything on the infinite canvas. */
  contentBounds(): { x: number; y: number; width: number; height: number } {
    const doc = this.editor.doc;
    if (this.type === 'COMIC')
      return { x: 0, y: 0, width: doc.comicConfiguration.width, height: doc.comicConfiguration.height };
    const nodes = doc.layers[doc.rootId]?.children.map((id) => doc.layers[id]).filter((n): n is LayerNode => !!n) ?? [];
    // Turned layers by their turned corners: an export of the canvas holds them whole.
    return placedBoundsOf(nodes) ?? { x: 0, y: 0, width: 1024, height: 1024 };
  }

  recenter(animate = true): void {
    const target = fitRect(this.contentBounds(), this.viewport);
    if (animate) this.animator.animate(this.view(), target, VIEW_EASE_TO_TARGET_MS);
    else this.setView(target);
  }

  zoomStep(direction: 1 | -1): void {
    const view = this.view();
    const centre = { x: this.viewport.width / 2, y: this.viewport.height / 2 };
    this.animator.animate(view, zoomAbout(view, centre, stepZoom(view.zoom, direction)), VIEW_EASE_ZOOM_MS);
  }

  /** Opens a page (a new one too) with the whole page fitted in view. */
  openPage(index: number): void {
    if (index < 0 || index >= this.editor.doc.pages.length) return;
    this.controller.cancel();
    this.animator.stop();
    // Fitted before it is shown: the canvas draws as soon as the page opens, and at the page's stored view (zoom 1
    // for a page not opened yet) it would build every layer and ask for every picture at that size first.
    const page = this.editor.doc.pages[index];
    if (page) this.editor.setView(fitRect(this.contentBounds(), this.viewport), page.uuid);
    this.ui.update({ activePage: index, selection: [], editingTextId: null });
    this.editor.setLastPage(index);
  }

  /** Left/right arrows: refused while the image is processing. */
  cycleVariation(step: 1 | -1): void {
    const id = this.ui.state.selection[0];
    const node = id ? this.editor.doc.layers[id] : undefined;
    if (node?.type !== 'IMAGE' || node.data.variations.length < 2) return this.ui.notify(refusalText('variations'));
    if (this.ui.state.processing[node.id]) return this.ui.notify(refusalText('processing'));
    this.editor.execute(changeVariation, {
      id: node.id,
      index: cycledIndex(node.data.variationsIdx, node.data.variations.length, step),
    });
  }

  readonly shortcutActions: ShortcutActions = {
    generateAtPointer: () => this.generation.generateAtPointer?.(),
    generateFromPoseOrSketch: () => this.generation.generateFromPoseOrSketch?.(),
    estimatePose: () => this.generation.estimatePose?.(),
    recenter: () => this.recenter(),
    zoomStep: (d) => this.zoomStep(d),
    cycleVariation: (d) => this.cycleVariation(d),
    refused: (reason, types) => this.ui.notify(refusalText(reason, types)),
  };

  keyDown(input: KeyInput): boolean {
    return handleKeyDown(input, this, this.shortcutActions);
  }

  keyUp(input: KeyInput): void {
    handleKeyUp(input, this);
  }

  /** The editor's store for a saved form; restricted mode locks each page's first panel, on every version alike. */
  private stateOf(data: Parameters<typeof normalize>[0]): DocState {
    const state = normalize(data, this.type);
    if (this.restricted) lockDefaultPanels(state);
    return state;
  }

  private async save(request: SaveRequest): Promise<boolean | 'conflict' | 'stale' | SaveRefusal> {
    const data = encodeWorkspaceData(denormalize(this.editor.doc));
    const thumbnail = request.withThumbnail && this.thumbnail ? await this.thumbnail() : null;
    const extra = thumbnail ? { thumbnail } : {};
    try {
      const base = this.acknowledged?.revision === this.revision ? this.acknowledged : null;
      const patch = base ? diffJson(base.data, data) : null;
      let result: { revision: number; thumbnailUrls: string[] } | null = null;
      // What changed, unless the change is about as big as the document (then the whole is cheaper to apply).
      if (patch && JSON.stringify(patch).length < PATCH_LIMIT_BYTES) {
        try {
          result = await this.api.workspace.savePatch(this.workspaceId, { revision: this.revision, patch, ...extra });
        } catch (error) {
          // A patch the server could not apply means our base differs from its head: send the whole document
          // once. A conflict is a conflict either way.
          if (!isApiError(error) || error.status !== 400) throw error;
        }
      }
      result ??= await this.api.workspace.save(this.workspaceId, { data, revision: this.revision, ...extra });
      this.acknowledge(result.revision, data);
      if (this.type === 'COMIC') this.editor.setPageThumbnails(result.thumbnailUrls);
      return true;
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        // Saved elsewhere first: fetch that version and rebase onto it; the dialog only if both changed the same.
        this.heard(Number.MAX_SAFE_INTEGER);
        return 'stale';
      }
      console.error(`Failed to save workspace: ${isApiError(error) ? error.status : String(error)}`);
      // A 4xx says this very version will never be stored: tell the user why and keep it on this device. A
      // network failure or 5xx may pass: retried at the next tick.
      if (isApiError(error) && error.status >= 400 && error.status < 500) {
        void this.localCopy.flush();
        const reason = refusalReason(error);
        this.ui.notify(reason, 'error');
        return { refused: reason };
      }
      void this.localCopy.flush();
      return false;
    }
  }

  /** The server stored `data` as `revision`. */
  private acknowledge(revision: number, data: unknown): void {
    this.revision = revision;
    this.acknowledged = { revision, data };
    this.live?.announce(revision);
  }

  /** Starts hearing of saves made elsewhere (server events, and other tabs of this browser). */
  startLive(): void {
    if (this.live || this.disposed) return;
    this.live = new LiveUpdates(this.workspaceId, ({ revision, tab, sameBrowser }) => {
      this.origins.heard(revision, tab, sameBrowser);
      this.heard(revision);
    });
    this.live.start();
  }

  /** A revision was stored elsewhere: bring it in once no save of ours is under way. */
  private heard(revision: number): void {
    if (revision <= this.revision) return;
    this.remoteRevision = Math.max(this.remoteRevision, revision);
    this.pulling ??= this.pull().finally(() => {
      this.pulling = null;
    });
  }

  private async pull(): Promise<void> {
    while (!this.disposed && this.remoteRevision > this.revision && this.autosave.status !== 'conflict') {
      await this.autosave.idle();
      if (this.remoteRevision <= this.revision) break;
      let record: WorkspaceRecord;
      try {
        record = await this.api.workspace.get(this.workspaceId);
      } catch (error) {
        console.error('Fetching the version saved elsewhere failed', error);
        return;
      }
      // What "latest" meant was a guess (a conflicting save does not say which revision won): the server's answer.
      this.remoteRevision = record.revision;
      if (record.revision <= this.revision) break;
      // A save of ours may have started while fetching: merge after it, against its result.
      if (this.autosave.status === 'saving') continue;
      if (!this.applyRemote(record)) return;
    }
  }

  /**
   * Takes in a version saved elsewhere. No edits of ours: it replaces the document in place (view and open page
   * kept, selection repaired to what still exists). Edits to other layers: rebased onto it, then saved. Edits to
   * the same layers: the conflict dialog, now. Returns false on a conflict.
   */
  private applyRemote(record: WorkspaceRecord): boolean {
    const theirsDecoded = decodeWorkspaceData(structuredClone(record.data));
    if (!theirsDecoded.ok) {
      console.error(`The version saved elsewhere does not decode: ${theirsDecoded.error.message}`);
      return false;
    }
    const theirs = this.stateOf(theirsDecoded.value);
    const baseDecoded = this.acknowledged ? decodeWorkspaceData(structuredClone(this.acknowledged.data)) : null;
    const base = baseDecoded?.ok ? this.stateOf(baseDecoded.value) : null;
    const result = base
      ? rebase(base, this.editor.doc, theirs)
      : this.editor.dirty
        ? ({ ok: false, conflicts: ['unknown base'] } as const)
        : rebase(this.editor.doc, this.editor.doc, theirs);
    if (!result.ok) {
      this.conflictRevision = record.revision;
      this.autosave.markConflict();
      return false;
    }
    this.revision = record.revision;
    this.acknowledged = { revision: record.revision, data: record.data };
    this.editor.replaceDocument(result.doc, result.pending, true);
    this.autosave.refresh();
    if (result.pending) void this.autosave.saveNow();
    else this.localCopy.saved();
    return true;
  }

  /**
   * Puts back a copy of unsaved work kept on this device and saves it at once. A copy made on an older revision than
   * the open one is merged onto it (three-way, against that revision read from the history) when the two touched
   * different layers; otherwise, or when that revision is no longer kept, the copy goes on top and the newer
   * version stays in the history. Answers which of the two happened.
   */
  async restoreLocal(copy: { data: unknown; baseRevision: number }): Promise<'merged' | 'replaced'> {
    const decoded = decodeWorkspaceData(structuredClone(copy.data));
    if (!decoded.ok) throw new Error(decoded.error.message);
    let doc = this.stateOf(decoded.value);
    let outcome: 'merged' | 'replaced' = 'replaced';
    if (copy.baseRevision < this.revision && !this.editor.dirty) {
      const base = await this.versionState(copy.baseRevision);
      const merged = base ? rebase(base, doc, this.editor.doc) : null;
      if (merged?.ok) {
        doc = merged.doc;
        outcome = 'merged';
      }
    }
    this.editor.replaceDocument(doc, true);
    this.autosave.refresh();
    this.localCopy.start();
    void this.autosave.saveNow();
    return outcome;
  }

  /** A kept version as editor state, or null when the history no longer holds it (or it does not decode). */
  private async versionState(revision: number): Promise<DocState | null> {
    try {
      const version = await this.api.workspace.version(this.workspaceId, revision);
      const decoded = decodeWorkspaceData(structuredClone(version.data));
      return decoded.ok ? this.stateOf(decoded.value) : null;
    } catch (error) {
      if (isApiError(error) && error.status === 404) return null;
      throw error;
    }
  }

  /** Where the version that conflicts with ours was saved: another tab of this browser, another device, or unknown. */
  conflictOrigin(): SaveOrigin | null {
    return this.conflictRevision === null ? null : this.origins.of(this.conflictRevision);
  }

  /** Resolves a save conflict by overwriting; the other version stays in the revision history. */
  async keepMine(): Promise<void> {
    const data = encodeWorkspaceData(denormalize(this.editor.doc));
    const version = this.editor.version;
    const result = await this.api.workspace.save(this.workspaceId, { data });
    this.acknowledge(result.revision, data);
    this.editor.markSaved(version);
    this.autosave.resolveConflict();
  }

  /** Resolves a save conflict by keeping this tab's work as a new workspace; returns its id. */
  async copyMine(): Promise<string> {
    const data = encodeWorkspaceData(denormalize(this.editor.doc));
    // A copy gets its picture on the dashboard straight away, like any saved workspace.
    const thumbnail = this.thumbnail ? await this.thumbnail() : null;
    const { id } = await this.api.workspace.create({
      name: i18n.t('editor.conflict.copyName', { name: this.name }),
      data,
      type: this.type,
      ...(thumbnail ? { thumbnail } : {}),
    });
    this.editor.markSaved(this.editor.version);
    return id;
  }

  dispose(): void {
    this.disposed = true;
    this.live?.close();
    this.live = null;
    void this.localCopy.flush().then(() => this.localCopy.stop());
    this.autosave.stop();
    this.animator.stop();
  }
}

/** Restricted mode (spec §6) locks the default panel: each page's first panel. */
function lockDefaultPanels(state: DocState): void {
  for (const page of state.pages) {
    const first = state.layers[page.rootId]?.children.map((id) => state.layers[id]).find((n) => n?.type === 'PANEL');
    if (first) first.locked = true;
  }
}
