import { createImageLayer, zImageData, type Point } from '@koma/domain';
import type { LayerNode } from '../store/state.ts';
import { addImage } from '../commands/add.ts';
import {
  addMaskStroke,
  addVariations,
  changeVariation,
  clearMask,
  dropVariation,
  keepVariations,
  setFaces,
  setFilterParams,
  setImageParams,
  swapVariationImage,
} from '../commands/image.ts';
import { addVideo, removeVideo } from '../commands/video.ts';
import { isDefaultFilter } from '../export/adjust.ts';
import { intersect, pixelRect } from '../export/rects.ts';
import { defineKind } from './kind.ts';
import { placementOf } from './placement.ts';

/** A canvas point in the image's own pixels (its original size), where its mask strokes live. */
function toImageSpace(node: LayerNode, p: Point): [number, number] {
  const t = node.transform;
  const sx = node.originalSize.width / (t.size.width || 1);
  const sy = node.originalSize.height / (t.size.height || 1);
  return [(p.x - t.x) * sx, (p.y - t.y) * sy];
}

/** A generated or uploaded picture with its variations, adjustments, inpaint mask, faces and clips. */
export const imageKind = defineKind({
  type: 'IMAGE',
  schema: zImageData,
  create: (id, transform) => createImageLayer(id, transform),
  container: false,
  raster: true,
  keepAspect: true,
  carriesClipped: false,
  brush: {
    // The mask stroke stays in the drag until pointer-up, then lands as one command.
    start(host, node, p) {
      const points = [...toImageSpace(node, p)];
      return {
        state: 'PAINT',
        move(q) {
          const current = host.doc.layers[node.id];
          if (current) points.push(...toImageSpace(current, q));
        },
        up() {
          const current = host.doc.layers[node.id];
          const radius =
            host.brushRadius() * (current ? current.originalSize.width / (current.transform.size.width || 1) : 1);
          const result = host.editor.execute(addMaskStroke, { id: node.id, points, radius });
          // Releasing a mask stroke opens the editing (inpaint) window for the layer.
          if (result.ok) host.ui.update((s) => ({ toolStates: { ...s.toolStates, [node.id]: { tab: 5, window: 0 } } }));
        },
        cancel() {},
      };
    },
  },
  imageIds(node) {
    const v = node.data.variations[node.data.variationsIdx];
    return v ? [v.id] : [];
  },
  export: {
    nodes(l, clipping, ctx) {
      const adjusted = !isDefaultFilter(l.data.filterParams);
      const rotation = l.rotation ?? 0;
      const t = l.transform;
      const turned =
        rotation % 360 !== 0 || l.flipX || l.flipY
          ? {
              rotation,
              flipX: !!l.flipX,
              flipY: !!l.flipY,
              box: { x: t.x, y: t.y, width: t.size.width, height: t.size.height },
            }
          : null;
      const [a, b, c, d, e, f] = placementOf(l).matrix;
      const origin = ctx.toPage({ x: e, y: f });
      const placed = {
        matrix: [a * ctx.scaleX, b * ctx.scaleY, c * ctx.scaleX, d * ctx.scaleY, origin.x, origin.y] as const,
        width: t.size.width,
        height: t.size.height,
      };
      return [
        {
          kind: 'raster',
          ...ctx.base(l, clipping),
          key: `${l.id}:image`,
          placed,
          role: 'image',
          rect: intersect(pixelRect(ctx.boxOf(l)), ctx.canvas),
          ...(adjusted ? { adjust: { params: { ...l.data.filterParams }, box: ctx.boxOf(l) } } : {}),
          ...(turned ? { turn: turned } : {}),
        },
      ];
    },
  },
  tab: ['image.variations', 'image.filters', 'generation.operations'],
  commands: {
    addImage,
    changeVariation,
    addVariations,
    keepVariations,
    swapVariationImage,
    dropVariation,
    setFaces,
    setImageParams,
    addMaskStroke,
    clearMask,
    setFilterParams,
    addVideo,
    removeVideo,
  },
});
