import Konva from 'konva';
import { boxOf, type DocState, type LayerNode, type UiState } from '@koma/editor';
import type { EditorSession } from '../editor/session.ts';
import { sharedImageStore } from './images.ts';
import { FrameScheduler } from './frame-scheduler.ts';
import type { RenderContext } from './adapters/types.ts';
import { adapterOf } from './adapters/registry.ts';
import { imageSideOnScreen } from './adapters/image.ts';
import { applyAppearance, applyBlend, clipWrapper, drawnLayers, placeBody } from './common.ts';
import { drawOverlay } from './overlay.ts';
import { drawPageGuides } from './page-guides.ts';
import { renderThumbnail } from './thumbnail.ts';

interface Entry {
  wrapper: Konva.Group;
  body: Konva.Group;
  layer: LayerNode;
  zoom: number;
  clipTarget: string | null;
  /** What the layer draws above its clipped layers (adapter `frame`), stacked after the last of them. */
  frame: Konva.Group | null;
  /** What the adapter's drawing depended on when it was built (its `dependsOn`). */
  deps: readonly unknown[];
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
  readonly images = sharedImageStore();
  /** What the pins were computed for: the document's layers and the open page. */
  private pinnedFor: { layers: DocState['layers']; page: number } | null = null;
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
  private order: Konva.Group[] = [];
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
        this.prefetchNeighbours();
        let drawn = false;
        for (const entry of this.entries.values()) {
          if (!adapterOf(entry.layer).imageIds?.(entry.layer).includes(id)) continue;
          this.rebuild(entry);
          drawn = true;
        }
        // A neighbour's prefetched image changes nothing on screen: no redraw for it.
        if (!drawn) return;
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
    const ids = drawnLayers(doc, this.session.activeRoot()).map((l) => l.id);
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
        entry = { wrapper, body, layer, zoom: 0, clipTarget: null, frame: null, deps: [] };
        this.entries.set(id, entry);
        entry.layer = layer;
        this.rebuild(entry, ctx);
      } else {
        const zoomMoved = Math.max(entry.zoom / view.zoom, view.zoom / entry.zoom) > ZOOM_REBUILD_RATIO;
        const deps = adapterOf(layer).dependsOn?.(layer, ctx) ?? [];
        const built = entry.deps;
        const depsMoved = deps.length !== built.length || deps.some((d, i) => d !== built[i]);
        if (entry.layer !== layer || zoomMoved || depsMoved) {
          entry.layer = layer;
          this.rebuild(entry, ctx);
        }
      }
      if (entry.clipTarget !== layer.clipTarget) this.setClip(entry, layer.clipTarget);
      // A turned layer reaches outside its upright box: culled by its turned corners.
      const t = layer.transform;
      const b = layer.rotation ? boxOf(layer) : { x: t.x, y: t.y, width: t.size.width, height: t.size.height };
      const onScreen =
        b.x <= visibleArea.x + visibleArea.width &&
        b.x + b.width >= visibleArea.x - 200 &&
        b.y <= visibleArea.y + visibleArea.height &&
        b.y + b.height >= visibleArea.y - 200;
      // While the page is cached as one bitmap every layer must be in it, on screen or not.
      applyAppearance(entry.wrapper, layer, onScreen || view.zoom < ZOOMED_OUT);
      if (entry.frame) applyAppearance(entry.frame, layer, onScreen || view.zoom < ZOOMED_OUT);
    }
    for (const [id, entry] of this.entries) {
      if (!seen.has(id)) {
        entry.wrapper.destroy();
        entry.frame?.destroy();
        this.entries.delete(id);
      }
    }
    const stack = this.stacking(ids, doc);
    if (!sameOrder(stack, this.order)) {
      stack.forEach((node, i) => node.zIndex(i + 1));
      this.order = stack;
    }
    this.updatePins(doc);
    this.overlay.destroyChildren();
    if (comic) drawPageGuides(this.overlay, doc, view.zoom);
    drawOverlay(this.overlay, doc, ui, view.zoom, this.session.activeRoot());
    this.updatePageCache(doc, ui, view.zoom);
    this.lastDoc = doc;
    this.lastUi = ui;
    this.scheduler.request();
  }

  /**
   * Pins the open page's images and its neighbours' (so turning a page is instant and never evicts what is on
   * screen); everything else is left to the budget. Recomputed only when the layers or the open page change.
   */
  private updatePins(doc: DocState): void {
    const page = this.session.ui.state.activePage;
    if (this.pinnedFor?.layers === doc.layers && this.pinnedFor.page === page) return;
    this.pinnedFor = { layers: doc.layers, page };
    // Every picture of the document in one URL lookup (a no-op for those already known).
    this.images.resolveUrls(this.allRoots(doc).flatMap((rootId) => imageIdsOf(doc, rootId)));
    const ids = new Set<string>();
    for (const rootId of this.nearbyRoots(doc)) for (const id of imageIdsOf(doc, rootId)) ids.add(id);
    this.images.pin(VIEW_PIN, ids);
    this.prefetchNeighbours();
  }

  /** Every page's root (a comic), or the canvas root. */
  private allRoots(doc: DocState): string[] {
    return this.session.type === 'COMIC' ? doc.pages.map((p) => p.rootId) : [doc.rootId];
  }

  /** The open page's root first, then the pages either side of it (a comic), or the canvas root. */
  private nearbyRoots(doc: DocState): string[] {
    if (this.session.type !== 'COMIC') return [doc.rootId];
    const page = this.session.ui.state.activePage;
    return [page, page + 1, page - 1].flatMap((i) => (doc.pages[i] ? [doc.pages[i].rootId] : []));
  }

  /**
   * Decodes the neighbouring pages' images once the open page has all of its own, so they never compete with it;
   * until then only downloads them, queued behind the open page's.
   */
  private prefetchNeighbours(): void {
    const doc = this.session.editor.doc;
    const [current, ...neighbours] = this.nearbyRoots(doc);
    if (current === undefined) return;
    if (!this.images.settled(imageIdsOf(doc, current))) {
      for (const rootId of neighbours) {
        this.images.fetchAhead(imageIdsOf(doc, rootId), () => imageSidesOf(doc, rootId, this.session.view().zoom));
      }
      return;
    }
    // At the size this view will draw them, so turning the page finds them ready to draw.
    const zoom = this.session.view().zoom;
    for (const rootId of neighbours) this.images.prefetch(imageIdsOf(doc, rootId), imageSidesOf(doc, rootId, zoom));
  }

  /**
   * The drawing order of every Konva group: the layers in document order, each frame (a panel's line) right after
   * the last layer clipped to its owner, as the export plan puts the frame over the panel's clipped art.
   */
  private stacking(ids: readonly string[], doc: DocState): Konva.Group[] {
    const index = new Map(ids.map((id, i) => [id, i]));
    const after = new Map<number, Konva.Group[]>();
    for (const [i, id] of ids.entries()) {
      const frame = this.entries.get(id)?.frame;
      if (!frame) continue;
      const last = Math.max(i, ...(doc.layers[id]?.clippedLayers ?? []).map((c) => index.get(c) ?? -1));
      after.set(last, [...(after.get(last) ?? []), frame]);
    }
    const out: Konva.Group[] = [];
    ids.forEach((id, i) => {
      out.push(this.entries.get(id)!.wrapper);
      out.push(...(after.get(i) ?? []));
    });
    return out;
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
    placeBody(entry.body, layer);
    const adapter = adapterOf(layer);
    adapter.build(entry.body, layer, context);
    applyBlend(entry.wrapper, entry.body, layer);
    if (adapter.frame) {
      if (!entry.frame) {
        entry.frame = new Konva.Group({ listening: false });
        this.pageGroup.add(entry.frame);
        // A new group joins the stack at the top: the next sync must put it in its place.
        this.order = [];
      }
      entry.frame.destroyChildren();
      placeBody(entry.frame, layer);
      adapter.frame(entry.frame, layer, context);
    }
    entry.zoom = context.zoom;
    entry.deps = adapter.dependsOn?.(layer, context) ?? [];
  }

  /** Clipped layers draw only inside their target's shape, read live so the clip follows the target. */
  private setClip(entry: Entry, targetId: string | null): void {
    entry.clipTarget = targetId;
    clipWrapper(entry.wrapper, targetId ? () => this.session.editor.doc.layers[targetId] : null);
  }

  /** Draws pending changes now. */
  flush(): void {
    this.sync(true);
    this.scheduler.flush();
  }

  /**
   * A picture of the open page (or of everything on the infinite canvas) as base64 webp, drawn apart from the
   * screen: layers off screen included, no editor overlay (see thumbnail.ts).
   */
  thumbnail(size: { width: number; height: number }, quality: number): Promise<string | null> {
    const doc = this.session.editor.doc;
    const area =
      this.session.type === 'COMIC'
        ? { x: 0, y: 0, width: doc.comicConfiguration.width, height: doc.comicConfiguration.height }
        : withMargin(this.session.contentBounds());
    return renderThumbnail(
      {
        doc,
        rootId: this.session.activeRoot(),
        area,
        images: this.images,
        ui: this.session.ui.state,
      },
      size,
      quality,
    );
  }

  dispose(): void {
    for (const u of this.unsubscribe) u();
    this.images.unpin(VIEW_PIN);
    this.scheduler.dispose();
    this.stage.destroy();
  }
}

/** Room around a canvas's content in its picture, so speech-bubble tails and edges are not cut. */
function withMargin(b: { x: number; y: number; width: number; height: number }) {
  const m = Math.max(b.width, b.height) * 0.1;
  return { x: b.x - m, y: b.y - m, width: b.width + 2 * m, height: b.height + 2 * m };
}

/** The owner name of the view's pins in the shared image store. */
const VIEW_PIN = 'view';

function imageIdsOf(doc: DocState, rootId: string): string[] {
  return drawnLayers(doc, rootId).flatMap((l) => adapterOf(l).imageIds?.(l) ?? []);
}

/** The on-screen size of each image layer's picture under `rootId` at `zoom`, by image id (the largest use). */
function imageSidesOf(doc: DocState, rootId: string, zoom: number): Map<string, number> {
  const sides = new Map<string, number>();
  for (const layer of drawnLayers(doc, rootId)) {
    if (layer.type !== 'IMAGE') continue;
    const id = layer.data.variations[layer.data.variationsIdx]?.id;
    if (id) sides.set(id, Math.max(sides.get(id) ?? 0, imageSideOnScreen(layer, zoom)));
  }
  return sides;
}

function sameOrder<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}
