import type { LayerNode } from '../store/state.ts';
import type { PlanContext, PlanNode } from '../export/plan-types.ts';
import { intersect, pixelRect } from '../export/rects.ts';

/** One raster of the whole layer box, drawn by the caller's adapter (pose, sketch, fill). */
export function shapeNodes(l: LayerNode, clipping: boolean, ctx: PlanContext): PlanNode[] {
  return [
    {
      kind: 'raster',
      ...ctx.base(l, clipping),
      key: `${l.id}:shape`,
      role: 'shape',
      rect: intersect(pixelRect(ctx.boxOf(l)), ctx.canvas),
    },
  ];
}
