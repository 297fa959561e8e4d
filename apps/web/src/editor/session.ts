import {
  decodeWorkspaceData,
  encodeWorkspaceData,
  VIEW_EASE_TO_TARGET_MS,
  VIEW_EASE_ZOOM_MS,
  type ViewTransform,
  type WorkspaceType,
} from '@koma/domain';
import {
  Autosave,
  Editor,
  InteractionController,
  UiStore,
  ViewAnimator,
  addImage,
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
import { describeImport, importPsd, isPsdFile } from '../export/run.ts';

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

/** Most images land on the canvas at their own size, but never larger than this on their longest side. */
const DROP_MAX_SIDE = 1024;

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
  /** The canvas registers how to make a thumbnail (base64 webp) of the open page. */
  thumbnail: (() => Promise<string | null>) | null = null;
  private readonly animator: ViewAnimator;

  constructor(
    readonly workspaceId: string,
    record: WorkspaceRecord,
    private readonly api: KomaApi,
    options: { restricted?: boolean } = {},
  ) {
    const decoded = decodeWorkspaceData(record.data);
    if (!decoded.ok) throw new Error(decoded.error.message);
    this.type = record.type;
    this.name = record.name;
    this.revision = record.revision;
    const state = normalize(decoded.value, record.type);
    if (options.restricted) lockDefaultPanels(state);
    this.editor = new Editor(state);
    this.ui = new UiStore(initialUiState(decoded.value.lastPage));
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

  openPage(index: number): void {
    if (index < 0 || index >= this.editor.doc.pages.length) return;
    this.controller.cancel();
    this.ui.update({ activePage: index, selection: [], editingTextId: null });
    this.editor.setLastPage(index);
  }

  /** Left/right arrows: refused while the image is processing. */
  cycleVariation(step: 1 | -1): void {
    const id = this.ui.state.selection[0];
    const node = id ? this.editor.doc.layers[id] : undefined;
    if (node?.type !== 'IMAGE' || node.data.variations.length < 2) return;
    if (this.ui.state.processing[node.id]) return;
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
    try {
      const result = await this.api.workspace.save(this.workspaceId, {
        data,
        revision: this.revision,
        ...(thumbnail ? { thumbnail } : {}),
      });
      this.revision = result.revision;
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
    this.editor.markSaved(version);
    this.autosave.resolveConflict();
  }

  /** Resolves a save conflict by keeping this tab's work as a new workspace; returns its id. */
  async copyMine(): Promise<string> {
    const data = encodeWorkspaceData(denormalize(this.editor.doc));
    const { id } = await this.api.workspace.create({
      name: i18n.t('editor.conflict.copyName', { name: this.name }),
      data,
      type: this.type,
    });
    this.editor.markSaved(this.editor.version);
    return id;
  }

  /** Uploads dropped files and places each image at the drop point; anything that is not an image is refused. */
  async dropFiles(files: readonly File[], at: { x: number; y: number }): Promise<void> {
    let offset = 0;
    for (const file of files) {
      // A layered file is imported layer by layer, not uploaded as one flat picture.
      if (isPsdFile(file)) {
        try {
          const report = await importPsd(this, file, () => undefined);
          this.ui.notify(describeImport(report), report.skipped.length > 0 ? 'error' : 'info');
        } catch (error) {
          this.ui.notify(error instanceof Error ? error.message : String(error), 'error');
        }
        continue;
      }
      if (!file.type.startsWith('image/')) {
        this.ui.notify(i18n.t('editor.drop.notImage', { name: file.name }), 'error');
        continue;
      }
      try {
        const { base64, fileType, width, height } = await encodeForUpload(file);
        const { id } = await this.api.images.upload(base64, fileType);
        const scale = Math.min(1, DROP_MAX_SIDE / Math.max(width, height));
        const size = { width: Math.round(width * scale), height: Math.round(height * scale) };
        const result = this.editor.execute(addImage, {
          parentId: this.activeRoot(),
          transform: { x: at.x - size.width / 2 + offset, y: at.y - size.height / 2 + offset, size },
          imageId: id,
          name: file.name.slice(0, 255),
        });
        if (result.ok) {
          // The layer remembers the file's own size so masks and crops work in its pixel space.
          this.ui.update({ selection: [result.value] });
        }
        offset += 20;
      } catch (error) {
        console.error('Upload failed', error);
        this.ui.notify(i18n.t('editor.drop.uploadFailed', { name: file.name }), 'error');
      }
    }
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

/** A dropped PNG is uploaded as png; anything else is re-encoded and uploaded as jpeg. */
async function encodeForUpload(
  file: File,
): Promise<{ base64: string; fileType: 'png' | 'jpeg'; width: number; height: number }> {
  const bitmap = await createImageBitmap(file);
  const { width, height } = bitmap;
  if (file.type === 'image/png') {
    bitmap.close();
    return { base64: await blobToBase64(file), fileType: 'png', width, height };
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Unable to get canvas context');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  const blob = await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('JPEG encoding failed'))), 'image/jpeg', 0.92),
  );
  return { base64: await blobToBase64(blob), fileType: 'jpeg', width, height };
}

async function blobToBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
