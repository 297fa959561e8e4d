// The dashboard's picture of a workspace (editor.md §9: 768×512 for a canvas, 512×720 for a comic page, webp 0.8),
// drawn on a stage of its own from the document alone: every layer, on screen or not, and nothing of the editor —
// no selection, handles, reading-order badges, panel guides, inpaint masks, loading placeholders or badges.
import Konva from 'konva';
import type { DocState, UiState } from '@koma/editor';
import type { RenderContext } from './adapters/types.ts';
import { adapterOf } from './adapters/registry.ts';
import { imageSideOnScreen } from './adapters/image.ts';
import type { ImageStore } from './images.ts';
import { applyBlend, clipWrapper, drawnLayers, placeBody } from './common.ts';

/** How long a thumbnail waits for images that are still loading (layers off screen load only now). */
const IMAGE_WAIT_MS = 5000;
const IMAGE_POLL_MS = 100;

export interface ThumbnailSource {
  doc: DocState;
  rootId: string;
  /** The part of the document to picture, in document units. */
  area: { x: number; y: number; width: number; height: number };
  images: ImageStore;
  ui: UiState;
}

/**
 * Starts loading every image the picture needs, at the size it draws them, and waits (a few seconds at most) until
 * each is ready or failed.
 */
async function imagesReady(images: ImageStore, wanted: ReadonlyMap<string, number>): Promise<void> {
  const deadline = performance.now() + IMAGE_WAIT_MS;
  const pending = () =>
    [...wanted].filter(([id, side]) => images.getScaled(id, side, false) === null && !images.failed(id));
  while (pending().length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => window.setTimeout(resolve, IMAGE_POLL_MS));
  }
}

/** The editor state a picture is drawn with: nothing selected, edited, processing or shown as a guide. */
function outputUi(ui: UiState): UiState {
  return {
    ...ui,
    selection: [],
    hovered: null,
    editingTextId: null,
    faceMenuFor: null,
    selectionRect: null,
    showReadingOrder: false,
    processing: {},
    pointer: null,
  };
}

/** The picture as base64 webp (no data: prefix), or null when the browser could not make one. */
export async function renderThumbnail(
  source: ThumbnailSource,
  size: { width: number; height: number },
  quality: number,
): Promise<string | null> {
  const layers = drawnLayers(source.doc, source.rootId, true);
  const { area } = source;
  const scale = Math.min(size.width / Math.max(area.width, 1), size.height / Math.max(area.height, 1));
  const wanted = new Map<string, number>();
  for (const layer of layers) {
    if (layer.type !== 'IMAGE') continue;
    const id = layer.data.variations[layer.data.variationsIdx]?.id;
    if (id) wanted.set(id, Math.max(wanted.get(id) ?? 0, imageSideOnScreen(layer, scale, 1)));
  }
  await imagesReady(source.images, wanted);
  const stage = new Konva.Stage({ container: document.createElement('div'), ...size });
  try {
    const layer = new Konva.Layer({ listening: false });
    stage.add(layer);
    layer.add(new Konva.Rect({ ...size, fill: '#fff', listening: false }));
    const root = new Konva.Group({
      x: (size.width - area.width * scale) / 2 - area.x * scale,
      y: (size.height - area.height * scale) / 2 - area.y * scale,
      scaleX: scale,
      scaleY: scale,
      listening: false,
    });
    layer.add(root);
    const ctx: RenderContext = { images: source.images, doc: source.doc, ui: outputUi(source.ui), zoom: scale };
    // A frame (a panel's line) goes right after the last layer clipped to its owner, as on screen and in the export.
    const index = new Map(layers.map((node, i) => [node.id, i]));
    const frames = new Map<number, Konva.Group[]>();
    for (const [i, node] of layers.entries()) {
      const wrapper = new Konva.Group({ listening: false });
      const body = new Konva.Group({ listening: false });
      placeBody(body, node);
      wrapper.add(body);
      const target = node.clipTarget ? source.doc.layers[node.clipTarget] : undefined;
      if (target) clipWrapper(wrapper, () => target);
      // Images still missing after the wait are left out.
      const adapter = adapterOf(node);
      if (adapter.picture) adapter.picture(body, node, ctx, { for: 'thumbnail', part: 'body' });
      else adapter.build(body, node, ctx);
      applyBlend(wrapper, body, node);
      root.add(wrapper);
      if (adapter.frame && adapter.picture) {
        const frame = new Konva.Group({ listening: false });
        placeBody(frame, node);
        adapter.picture(frame, node, ctx, { for: 'thumbnail', part: 'frame' });
        const last = Math.max(i, ...(node.clippedLayers ?? []).map((id) => index.get(id) ?? -1));
        frames.set(last, [...(frames.get(last) ?? []), frame]);
      }
    }
    // Moving a group to an index keeps the rest in order: insert from the top of the stack down.
    const wrappers = root.getChildren().slice();
    for (const [last, groups] of [...frames.entries()].sort((a, b) => b[0] - a[0])) {
      const above = wrappers[last];
      if (!above) continue;
      groups.forEach((frame, k) => {
        root.add(frame);
        frame.zIndex(above.zIndex() + 1 + k);
      });
    }
    const canvas = layer.toCanvas({ x: 0, y: 0, ...size, pixelRatio: 1 });
    const url = canvas.toDataURL('image/webp', quality);
    return url.startsWith('data:image/webp') ? url.slice(url.indexOf(',') + 1) : null;
  } catch (error) {
    console.warn('The thumbnail could not be drawn', error);
    return null;
  } finally {
    stage.destroy();
  }
}
