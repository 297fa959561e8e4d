import Konva from 'konva';
import type { LayerNode } from '@koma/editor';
import { defineAdapter } from './types.ts';
import { filteredImage, isDefaultFilter } from '../filters.ts';

/**
 * The pixels an image layer's longest side takes at `zoom` (what its scaled copy is sized for): on screen, times the
 * device pixel ratio; in a picture of fixed pixel size (the dashboard thumbnail), `pixelRatio` 1.
 */
export function imageSideOnScreen(
  layer: LayerNode<'IMAGE'>,
  zoom: number,
  pixelRatio = globalThis.devicePixelRatio || 1,
): number {
  const { width, height } = layer.transform.size;
  return Math.max(width, height) * zoom * pixelRatio;
}

/** An image layer: its current variation stretched over its box, or a placeholder while it loads or when it has none. */
export const imageAdapter = defineAdapter({
  type: 'IMAGE',
  imageIds(layer) {
    const v = layer.data.variations[layer.data.variationsIdx];
    return v ? [v.id] : [];
  },
  build(group, layer, ctx) {
    const { width, height } = layer.transform.size;
    const variation = layer.data.variations[layer.data.variationsIdx];
    // Draw from a bitmap about the size it appears on screen: zoomed out, that is far smaller than the original.
    const image = variation ? ctx.images.getScaled(variation.id, imageSideOnScreen(layer, ctx.zoom)) : null;
    if (image) {
      const drawn =
        variation && !isDefaultFilter(layer.data.filterParams)
          ? filteredImage(variation.id, image, layer.data.filterParams)
          : image;
      group.add(new Konva.Image({ image: drawn, width, height, listening: false }));
    } else {
      const failed = variation ? ctx.images.failed(variation.id) : false;
      group.add(
        new Konva.Rect({
          width,
          height,
          fill: failed ? '#fbeaea' : '#eef0f4',
          stroke: failed ? '#c0392b' : '#9aa3b2',
          strokeWidth: 2 / ctx.zoom,
          dash: [8 / ctx.zoom, 6 / ctx.zoom],
          listening: false,
        }),
      );
    }
    drawMask(group, layer);
  },
  // Pictures leave the image out while it is missing (no placeholder, no mask). The thumbnail shows its filters,
  // drawn from a copy at the thumbnail's scale (decoding the page's pictures whole for a 512 px picture would cost
  // each save a page of full-size decodes); an export raster is the raw picture at full size, as it always was.
  picture(group, layer, ctx, use) {
    const id = layer.data.variations[layer.data.variationsIdx]?.id;
    const image = !id
      ? null
      : use.for === 'thumbnail'
        ? ctx.images.getScaled(id, imageSideOnScreen(layer, ctx.zoom, 1), false)
        : ctx.images.get(id);
    if (!id || !image) return;
    const drawn =
      use.for === 'thumbnail' && !isDefaultFilter(layer.data.filterParams)
        ? filteredImage(id, image, layer.data.filterParams)
        : image;
    group.add(new Konva.Image({ image: drawn, ...layer.transform.size, listening: false }));
  },
});

/** The inpaint mask strokes, shown as a translucent overlay in the image's pixel space. */
function drawMask(group: Konva.Group, layer: LayerNode<'IMAGE'>): void {
  const strokes = layer.data.maskParams.mask;
  if (strokes.length === 0) return;
  const sx = layer.transform.size.width / (layer.originalSize.width || 1);
  const sy = layer.transform.size.height / (layer.originalSize.height || 1);
  for (const stroke of strokes) {
    const points = stroke.points.map((v, i) => v * (i % 2 === 0 ? sx : sy));
    group.add(
      new Konva.Line({
        points: points.length === 2 ? [...points, ...points] : points,
        stroke: stroke.erase ? 'rgba(0,0,0,0)' : 'rgba(255, 64, 129, 0.45)',
        strokeWidth: stroke.radius * 2 * sx,
        lineCap: 'round',
        lineJoin: 'round',
        globalCompositeOperation: stroke.erase ? 'destination-out' : 'source-over',
        listening: false,
      }),
    );
  }
}
