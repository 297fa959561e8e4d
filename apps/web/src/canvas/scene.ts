import Konva from 'konva';
import type { DocState, LayerNode, UiState } from '@koma/editor';
import { canvasToScreen } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { ImageStore } from './images.ts';
import { FrameScheduler } from './frame-scheduler.ts';
import type { LayerAdapter, RenderContext } from './adapters/types.ts';
import { imageAdapter } from './adapters/image.ts';
import { fillAdapter, panelAdapter, poseAdapter, sketchAdapter } from './adapters/shapes.ts';
import { textAdapter } from './adapters/text.ts';
import { drawOverlay } from './overlay.ts';

const ADAPTERS: Record<LayerNode['type'], LayerAdapter | null> = {
  GROUP: null,
  IMAGE: imageAdapter,
  TEXT: textAdapter,
  PANEL: panelAdapter,
  POSE: poseAdapter,
  SKETCH: sketchAdapter,
  FILL: fillAdapter,
};

interface Entry {
  wrapper: Konva.Group;
  body: Konva.Group;
  layer: LayerNode;
  zoom: number;
  clipTarget: string | null;
  readingOrder: boolean;
  pinTarget?: LayerNode;
}

/** Drawing styles that depend on zoom (dashes, guide widths) are rebuilt when zoom moves by more than this. */
const ZOOM_REBUILD_RATIO = 1.25;
/** Below this zoom the page is cached as one bitmap (see updatePageCache). */
const ZOOMED_OUT = 0.25;

/**
 * Keeps a Konva stage in step with the editor: one adapter per layer type, applied only to the layers that
 * changed (immer keeps unchanged layers identical), culled outside the viewport, drawn under a frame cap.
 */
export class SceneRenderer {
  readonly stage: Konva.Stage;
  readonly images = new ImageStore();
  private readonly content = new Konva.Layer({ listening: false });
  private readonly overlay = new Konva.Layer({ listening: false });
  private readonly page = new Konva.Rect({
    fill: '#fff',
    shadowColor: 'rgba(0,0,0,0.25)',
    shadowBlur: 24,
    listening: false,
  });
  /** Everything drawn for the document; cached as one bitmap while the page is seen from afar. */
  private readonly pageGroup = new Konva.Group({ listening: false });
  private cachedFor: { layers: DocState['layers']; ui: boolean } | null = null;
  private readonly entries = new Map<string, Entry>();
  private order: string[] = [];
  private readonly scheduler: FrameScheduler;
  private readonly unsubscribe: (() => void)[] = [];
  private lastDoc: DocState | null = null;
  private lastUi: UiState | null = null;

  constructor(
    container: HTMLDivElement,
    private readonly session: EditorSession,
    fps?: number,
    restricted = false,
  ) {
    this.stage = new Konva.Stage({
      container,
      width: container.clientWidth || 800,
      height: container.clientHeight || 600,
    });
    this.stage.add(this.content);
    this.stage.add(this.overlay);
    this.content.add(this.pageGroup);
    this.pageGroup.add(this.page);
    this.scheduler = new FrameScheduler(() => this.stage.draw(), fps, restricted);
    this.unsubscribe.push(session.editor.subscribe(() => this.sync()));
    this.unsubscribe.push(session.ui.subscribe(() => this.sync()));
    this.unsubscribe.push(
      this.images.onLoad((id) => {
        for (const entry of this.entries.values()) {
          if (ADAPTERS[entry.layer.type]?.imageIds?.(entry.layer).includes(id)) this.rebuild(entry);
        }
        // An arriving image changes pixels without changing the document: the cached page must be redrawn.
        this.cachedFor = null;
        this.sync(true);
      }),
    );
    this.sync();
  }

  resize(width: number, height: number): void {
    this.stage.size({ width, height });
    this.session.viewport = { width, height };
    this.sync(true);
  }

  setFps(fps: number, restricted: boolean): void {
    this.scheduler.setFps(fps, restricted);
  }

  /** Applies what changed in the document and UI state since the last sync. */
  sync(force = false): void {
    const doc = this.session.editor.doc;
    const ui = this.session.ui.state;
    const view = this.session.view();
    if (!force && doc === this.lastDoc && ui === this.lastUi) return;
    this.stage.scale({ x: view.zoom, y: view.zoom });
    this.stage.position({ x: view.x, y: view.y });
    const comic = this.session.type === 'COMIC';
    this.page.visible(comic);
    if (comic) this.page.size({ width: doc.comicConfiguration.width, height: doc.comicConfiguration.height });

    const ctx: RenderContext = { images: this.images, doc, ui, zoom: view.zoom };
    const ids = flatten(doc, this.session.activeRoot());
    const visibleArea = {
      x: -view.x / view.zoom,
      y: -view.y / view.zoom,
      width: this.stage.width() / view.zoom,
      height: this.stage.height() / view.zoom,
    };
    const seen = new Set<string>();
    for (const id of ids) {
      const layer = doc.layers[id]!;
      seen.add(id);
      let entry = this.entries.get(id);
      if (!entry) {
        const body = new Konva.Group({ listening: false });
        const wrapper = new Konva.Group({ listening: false });
        wrapper.add(body);
        this.pageGroup.add(wrapper);
        entry = { wrapper, body, layer, zoom: 0, clipTarget: null, readingOrder: false };
        this.entries.set(id, entry);
        entry.layer = layer;
        this.rebuild(entry, ctx);
      } else {
        const zoomMoved = Math.max(entry.zoom / view.zoom, view.zoom / entry.zoom) > ZOOM_REBUILD_RATIO;
        const orderToggled = layer.type === 'PANEL' && entry.readingOrder !== ui.showReadingOrder;
        // A tail pinned to a face follows the image it points at.
        const pinTarget =
          layer.type === 'TEXT' && layer.data.pinToFace && layer.data.tailTargetLayerId
            ? doc.layers[layer.data.tailTargetLayerId]
            : undefined;
        const pinMoved = pinTarget !== entry.pinTarget;
        entry.pinTarget = pinTarget;
        if (entry.layer !== layer || zoomMoved || orderToggled || pinMoved) {
          entry.layer = layer;
          this.rebuild(entry, ctx);
        }
      }
      if (entry.clipTarget !== layer.clipTarget) this.setClip(entry, layer.clipTarget);
      const box = layer.transform;
      const onScreen =
        box.x <= visibleArea.x + visibleArea.width &&
        box.x + box.size.width >= visibleArea.x - 200 &&
        box.y <= visibleArea.y + visibleArea.height &&
        box.y + box.size.height >= visibleArea.y - 200;
      // While the page is cached as one bitmap every layer must be in it, on screen or not.
      entry.wrapper.visible(layer.visible && (onScreen || view.zoom < ZOOMED_OUT));
    }
    for (const [id, entry] of this.entries) {
      if (!seen.has(id)) {
        entry.wrapper.destroy();
        this.entries.delete(id);
      }
    }
    if (!sameOrder(ids, this.order)) {
      ids.forEach((id, i) => this.entries.get(id)!.wrapper.zIndex(i + 1));
      this.order = ids;
    }
    this.overlay.destroyChildren();
    drawOverlay(this.overlay, doc, ui, view.zoom, this.session.activeRoot());
    this.updatePageCache(doc, ui, view.zoom);
    this.lastDoc = doc;
    this.lastUi = ui;
    this.scheduler.request();
  }

  /**
   * Zoomed out, the whole page is drawn once into a bitmap at the largest zoom of that range, and panning or zooming
   * blits it; it is redrawn when the document changes and dropped when zooming in or while the user drags something.
   */
  private updatePageCache(doc: DocState, ui: UiState, zoom: number): void {
    const wanted = zoom < ZOOMED_OUT && ui.interaction === 'NONE';
    if (!wanted) {
      if (this.cachedFor) {
        this.pageGroup.clearCache();
        this.cachedFor = null;
      }
      return;
    }
    // Keyed on the layers, not the whole document: panning and zooming change the document's saved view.
    const c = this.cachedFor;
    if (c && c.layers === doc.layers && c.ui === ui.showReadingOrder) return;
    const bounds = this.session.contentBounds();
    const pad = 400;
    this.pageGroup.clearCache();
    this.pageGroup.cache({
      x: bounds.x - pad,
      y: bounds.y - pad,
      width: bounds.width + 2 * pad,
      height: bounds.height + 2 * pad,
      // One resolution for the whole zoomed-out range, so zooming there never redraws the page.
      pixelRatio: ZOOMED_OUT * (globalThis.devicePixelRatio || 1),
    });
    this.cachedFor = { layers: doc.layers, ui: ui.showReadingOrder };
  }

  private rebuild(entry: Entry, ctx?: RenderContext): void {
    const view = this.session.view();
    const context = ctx ?? {
      images: this.images,
      doc: this.session.editor.doc,
      ui: this.session.ui.state,
      zoom: view.zoom,
    };
    const layer = entry.layer;
    entry.body.destroyChildren();
    entry.body.position({ x: layer.transform.x, y: layer.transform.y });
    ADAPTERS[layer.type]?.build(entry.body, layer, context);
    entry.zoom = context.zoom;
    entry.readingOrder = context.ui.showReadingOrder;
  }

  /** Clipped layers draw only inside their target's shape, read live so the clip follows the target. */
  private setClip(entry: Entry, targetId: string | null): void {
    entry.clipTarget = targetId;
    if (!targetId) {
      entry.wrapper.clipFunc(undefined as unknown as (ctx: Konva.Context) => void);
      return;
    }
    entry.wrapper.clipFunc((ctx) => {
      const target = this.session.editor.doc.layers[targetId];
      if (!target) return;
      ctx.beginPath();
      if (target.type === 'PANEL') {
        target.data.vertices.forEach((v, i) => (i === 0 ? ctx.moveTo(v.x, v.y) : ctx.lineTo(v.x, v.y)));
        ctx.closePath();
      } else {
        const t = target.transform;
        ctx.rect(t.x, t.y, t.size.width, t.size.height);
      }
    });
  }

  /** Draws pending changes now. */
  flush(): void {
    this.sync(true);
    this.scheduler.flush();
  }

  /** A picture of the open page (or what the view shows on the infinite canvas), as base64 webp. */
  thumbnail(size: { width: number; height: number }, quality: number): Promise<string | null> {
    return Promise.resolve(this.thumbnailNow(size, quality));
  }

  private thumbnailNow(size: { width: number; height: number }, quality: number): string | null {
    this.flush();
    const doc = this.session.editor.doc;
    const area =
      this.session.type === 'COMIC'
        ? { x: 0, y: 0, width: doc.comicConfiguration.width, height: doc.comicConfiguration.height }
        : this.session.contentBounds();
    const view = this.session.view();
    const topLeft = canvasToScreen(view, area);
    this.overlay.visible(false);
    try {
      const source = this.content.toCanvas({
        x: topLeft.x,
        y: topLeft.y,
        width: area.width * view.zoom,
        height: area.height * view.zoom,
        pixelRatio: Math.min(size.width / (area.width * view.zoom), size.height / (area.height * view.zoom)),
      });
      const canvas = document.createElement('canvas');
      canvas.width = size.width;
      canvas.height = size.height;
      const context = canvas.getContext('2d');
      if (!context) return null;
      context.fillStyle = '#fff';
      context.fillRect(0, 0, size.width, size.height);
      const scale = Math.min(size.width / source.width, size.height / source.height);
      const w = source.width * scale;
      const h = source.height * scale;
      context.drawImage(source, (size.width - w) / 2, (size.height - h) / 2, w, h);
      const url = canvas.toDataURL('image/webp', quality);
      return url.slice(url.indexOf(',') + 1);
    } catch (error) {
      console.error('Thumbnail failed', error);
      return null;
    } finally {
      this.overlay.visible(true);
    }
  }

  dispose(): void {
    for (const u of this.unsubscribe) u();
    this.scheduler.dispose();
    this.stage.destroy();
  }
}

/** Layer ids under a root in drawing order, groups flattened. */
function flatten(doc: DocState, rootId: string): string[] {
  const out: string[] = [];
  const visit = (id: string) => {
    const node = doc.layers[id];
    if (!node) return;
    if (node.type === 'GROUP') node.children.forEach(visit);
    else out.push(id);
  };
  doc.layers[rootId]?.children.forEach(visit);
  return out;
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
