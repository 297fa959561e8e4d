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
  stepZoom,
  zoomAbout,
  type InteractionHost,
  type KeyInput,
  type DocState,
  type LayerNode,
  type SaveRequest,
  type ShortcutActions,
} from '@koma/editor';
import { isApiError, type KomaApi } from '../api/index.ts';
import type { WorkspaceRecord } from '../api/types.ts';
import { i18n } from '../i18n/index.ts';
import { refusalText } from './refusals.ts';
import { newBubbleForLocale } from '../canvas/new-bubble.ts';

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
    const state = normalize(decoded.value, record.type);
    if (options.restricted) lockDefaultPanels(state);
    this.editor = new Editor(state, { readOnly: options.readOnly ?? false });
    this.ui = new UiStore(initialUiState(decoded.value.lastPage));
    // Undo, redo and saves from elsewhere can take away the open page or selected layers: the UI follows.
    bindUiRepair(this.editor, this.ui);
    this.controller = new InteractionController(this);
    this.editor.onError((message) => this.ui.notify(message, 'error'));
    this.autosave = new Autosave(this.editor, (request) => this.save(request), {
      setInterval: (cb, ms) => window.setInterval(cb, ms),
      clearInterval: (h) => window.clearInterval(h as number),
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
    if (nodes.length === 0) return { x: 0, y: 0, width: 1024, height: 1024 };
    const xs = nodes.flatMap((n) => [n.transform.x, n.transform.x + n.transform.size.width]);
    const ys = nodes.flatMap((n) => [n.transform.y, n.transform.y + n.transform.size.height]);
    return {
      x: Math.min(...xs),
      y: Math.min(...ys),
      width: Math.max(...xs) - Math.min(...xs),
      height: Math.max(...ys) - Math.min(...ys),
    };
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
    this.ui.update({ activePage: index, selection: [], editingTextId: null });
    this.editor.setLastPage(index);
    this.recenter(false);
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

  private async save(request: SaveRequest): Promise<boolean | 'conflict'> {
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
      this.revision = result.revision;
      this.acknowledged = { revision: result.revision, data };
      if (this.type === 'COMIC') this.editor.setPageThumbnails(result.thumbnailUrls);
      return true;
    } catch (error) {
      if (isApiError(error) && error.status === 409) return 'conflict';
      console.error(`Failed to save workspace: ${isApiError(error) ? error.status : String(error)}`);
      return false;
    }
  }

  /** Resolves a save conflict by overwriting; the other tab's version stays in the revision history. */
  async keepMine(): Promise<void> {
    const data = encodeWorkspaceData(denormalize(this.editor.doc));
    const version = this.editor.version;
    const result = await this.api.workspace.save(this.workspaceId, { data });
    this.revision = result.revision;
    this.acknowledged = { revision: result.revision, data };
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
