import Konva from 'konva';
import { EXPORT_LOAD_POLL_MS, EXPORT_LOAD_TIMEOUT_MS } from '@koma/domain';
import {
  ExportError,
  rastersToDraw,
  type DocState,
  type LayerNode,
  type PagePlan,
  type Raster,
  type UiState,
} from '@koma/editor';
import type { ImageStore } from '../canvas/images.ts';
import type { LayerAdapter, RenderContext } from '../canvas/adapters/types.ts';
import { fillAdapter, poseAdapter, sketchAdapter } from '../canvas/adapters/shapes.ts';
import { textAdapter } from '../canvas/adapters/text.ts';

const ADAPTERS: Partial<Record<LayerNode['type'], LayerAdapter>> = {
  TEXT: textAdapter,
  POSE: poseAdapter,
  SKETCH: sketchAdapter,
  FILL: fillAdapter,
};

/** Image ids of the current variations of the IMAGE layers a plan draws, with the layer names that use them. */
export function planImageIds(doc: DocState, plans: readonly PagePlan[]): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const plan of plans) {
    for (const node of rastersToDraw(plan)) {
      const layer = node.layerId ? doc.layers[node.layerId] : undefined;
      if (layer?.type !== 'IMAGE') continue;
      const variation = layer.data.variations[layer.data.variationsIdx];
      if (variation) ids.set(variation.id, [...(ids.get(variation.id) ?? []), layer.name || 'Image']);
    }
  }
  return ids;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => window.setTimeout(resolve, ms)),
};

/**
 * Starts loading every image and waits until all are ready, polling every 500 ms for at most 10 s (editor.md §9).
 * Fails with the names of the layers whose images did not load, rather than exporting holes.
 */
export async function waitForImages(
  images: Pick<ImageStore, 'get' | 'failed' | 'loadingIds'>,
  wanted: ReadonlyMap<string, string[]>,
  onWait?: (elapsedMs: number) => void,
  clock: Clock = realClock,
): Promise<void> {
  const start = clock.now();
  const missing = () => [...wanted.keys()].filter((id) => images.get(id) === null);
  let pending = missing();
  while (
    pending.length > 0 &&
    pending.some((id) => !images.failed(id)) &&
    clock.now() - start < EXPORT_LOAD_TIMEOUT_MS
  ) {
    onWait?.(clock.now() - start);
    await clock.sleep(EXPORT_LOAD_POLL_MS);
    pending = missing();
  }
  if (pending.length === 0) return;
  const names = [...new Set(pending.flatMap((id) => wanted.get(id) ?? [id]))];
  throw new ExportError(`These images did not load, so nothing was exported: ${names.join(', ')}.`);
}

/**
 * The layer as drawn for one part of a text: the glyphs alone (background and border made transparent, so the text
 * keeps the place its bubble gives it) or the background alone (no text).
 */
function textPart(layer: LayerNode, role: string): LayerNode {
  if (layer.type !== 'TEXT') return layer;
  if (role === 'text') {
    return { ...layer, data: { ...layer.data, backgroundColor: '#00000000', backgroundStrokeColor: '#00000000' } };
  }
  if (role === 'textBackground') return { ...layer, data: { ...layer.data, text: '' } };
  return layer;
}

/**
 * Draws each raster a plan asks for with the canvas adapters on an offscreen Konva stage, at the plan's scale, and
 * reads its pixels back. Text is drawn twice: its glyphs alone (the text layer) and its background alone (the bubble).
 */
export async function rasterizePlan(
  doc: DocState,
  plan: PagePlan,
  images: ImageStore,
  ui: UiState,
  onRaster?: (done: number, total: number) => void,
): Promise<Map<string, Raster>> {
  const nodes = rastersToDraw(plan);
  const out = new Map<string, Raster>();
  const container = document.createElement('div');
  const stage = new Konva.Stage({ container, width: 1, height: 1 });
  const konvaLayer = new Konva.Layer({ listening: false });
  stage.add(konvaLayer);
  const ctx: RenderContext = {
    images,
    ui: { ...ui, showReadingOrder: false },
    zoom: Math.max(plan.scaleX, plan.scaleY),
  };
  try {
    for (const [index, node] of nodes.entries()) {
      const layer = node.layerId ? doc.layers[node.layerId] : undefined;
      const { width, height } = node.rect;
      if (!layer || width === 0 || height === 0) {
        out.set(node.key, { width, height, data: new Uint8ClampedArray(width * height * 4) });
        continue;
      }
      konvaLayer.destroyChildren();
      stage.size({ width, height });
      const page = new Konva.Group({
        x: -plan.area.x * plan.scaleX - node.rect.x,
        y: -plan.area.y * plan.scaleY - node.rect.y,
        scaleX: plan.scaleX,
        scaleY: plan.scaleY,
        listening: false,
      });
      const body = new Konva.Group({ x: layer.transform.x, y: layer.transform.y, listening: false });
      page.add(body);
      konvaLayer.add(page);
      if (layer.type === 'IMAGE') {
        const variation = layer.data.variations[layer.data.variationsIdx];
        const image = variation ? images.get(variation.id) : null;
        if (image) body.add(new Konva.Image({ image, ...layer.transform.size, listening: false }));
      } else {
        ADAPTERS[layer.type]?.build(body, textPart(layer, node.role), ctx);
      }
      const canvas = konvaLayer.toCanvas({ x: 0, y: 0, width, height, pixelRatio: 1 });
      const context = canvas.getContext('2d');
      if (!context) throw new ExportError('This browser cannot read pixels back from a canvas.');
      const pixels = context.getImageData(0, 0, width, height);
      out.set(node.key, { width, height, data: pixels.data });
      onRaster?.(index + 1, nodes.length);
      // Let the progress bar paint between layers.
      await new Promise((resolve) => window.setTimeout(resolve, 0));
    }
  } finally {
    stage.destroy();
  }
  return out;
}
