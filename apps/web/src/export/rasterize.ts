import Konva from 'konva';
import {
  ExportError,
  kindOf,
  rastersToDraw,
  type DocState,
  type PagePlan,
  type Raster,
  type UiState,
} from '@koma/editor';
import type { Size } from '@koma/domain';
import type { ImageStore } from '../canvas/images.ts';
import type { RenderContext } from '../canvas/adapters/types.ts';
import { adapterOf } from '../canvas/adapters/registry.ts';
import { placeBody } from '../canvas/common.ts';
import { exportText } from './i18n.ts';

/**
 * Draws each raster a plan asks for with the canvas adapters on an offscreen Konva stage, at the plan's scale, and
 * reads its pixels back. Text is drawn twice: its glyphs alone (the text layer) and its background alone (the bubble).
 * A picture in `upright` is drawn instead as its own pixels, upright, at the size given there (the PDF embeds it so,
 * pdfImageSizes).
 */
export async function rasterizePlan(
  doc: DocState,
  plan: PagePlan,
  images: ImageStore,
  ui: UiState,
  onRaster?: (done: number, total: number) => void,
  upright: ReadonlyMap<string, Size> = new Map(),
): Promise<Map<string, Raster>> {
  const nodes = rastersToDraw(plan);
  const out = new Map<string, Raster>();
  const container = document.createElement('div');
  const stage = new Konva.Stage({ container, width: 1, height: 1 });
  const konvaLayer = new Konva.Layer({ listening: false });
  stage.add(konvaLayer);
  const ctx: RenderContext = {
    images,
    doc,
    ui: { ...ui, showReadingOrder: false },
    zoom: Math.max(plan.scaleX, plan.scaleY),
  };
  try {
    for (const [index, node] of nodes.entries()) {
      const layer = node.layerId ? doc.layers[node.layerId] : undefined;
      const size = upright.get(node.key);
      if (layer && size) {
        out.set(node.key, uprightPixels(layer, images, size));
        onRaster?.(index + 1, nodes.length);
        continue;
      }
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
      const body = new Konva.Group({ listening: false });
      placeBody(body, layer);
      page.add(body);
      konvaLayer.add(page);
      const adapter = adapterOf(layer);
      if (adapter.picture) adapter.picture(body, layer, ctx, { for: 'export', role: node.role });
      else adapter.build(body, layer, ctx);
      const canvas = konvaLayer.toCanvas({ x: 0, y: 0, width, height, pixelRatio: 1 });
      const context = canvas.getContext('2d');
      if (!context) throw new ExportError(exportText('error.noPixelsBack'));
      const pixels = context.getImageData(0, 0, width, height);
      // A canvas's pixels are freed when it is collected, which can be pages later: let them go now, so a chapter
      // export holds the page being drawn, not a trail of read-back canvases.
      canvas.width = canvas.height = 0;
      out.set(node.key, { width, height, data: pixels.data });
      onRaster?.(index + 1, nodes.length);
      // Let the progress bar paint between layers.
      await new Promise((resolve) => window.setTimeout(resolve, 0));
    }
  } finally {
    // Same for the stage's own canvases (sized to the last raster).
    stage.size({ width: 1, height: 1 });
    stage.destroy();
  }
  return out;
}

/** A picture's current variation as its own pixels, scaled to `size` (a copy when that is its size). */
function uprightPixels(layer: DocState['layers'][string], images: ImageStore, size: Size): Raster {
  const [id] = kindOf(layer).imageIds(layer);
  const image = id ? images.get(id) : null;
  if (!image) throw new ExportError(exportText('error.noPixelsBack'));
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) throw new ExportError(exportText('error.noPixelsBack'));
  // A picture larger than its box on the page is scaled down to the page's resolution: averaged, not point-sampled.
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, size.width, size.height);
  const pixels = context.getImageData(0, 0, size.width, size.height);
  canvas.width = canvas.height = 0;
  return { width: size.width, height: size.height, data: pixels.data };
}
