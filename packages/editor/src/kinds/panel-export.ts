import { readingOrder } from '@koma/domain';
import type { LayerNode } from '../store/state.ts';
import type { PlanContext, PlanGroup, PlanNode } from '../export/plan-types.ts';
import { clampName, grow, intersect, pixelRect } from '../export/rects.ts';
import { boxOfPoints } from './geometry.ts';
import { frameWidthOnPage } from '../export/plan.ts';

/**
 * All panels of one sibling list as one block: one group per panel, panel 1 last so that it is the top group of
 * the Layers panel. A group holds the panel's area (the clipping base), the layers clipped to the panel as
 * clipping layers, and the panel's frame on top when it has one (its own width and colour).
 */
export function panelBlock(panels: LayerNode<'PANEL'>[], pool: readonly LayerNode[], ctx: PlanContext): PlanNode[] {
  const order = readingOrder(
    panels.map((p) => ({
      id: p.id,
      vertices: p.data.vertices,
      neighborPanels: p.data.neighborPanels,
      locked: p.locked,
      ignoreNeighbors: p.data.ignoreNeighbors,
    })),
    ctx.comic.readingOrder,
  );
  const groups = order.map((id, i) =>
    panelGroup(
      panels.find((p) => p.id === id)!,
      pool,
      i + 1,
      ctx,
    ),
  );
  return groups.reverse();
}

function panelGroup(p: LayerNode<'PANEL'>, pool: readonly LayerNode[], number: number, ctx: PlanContext): PlanGroup {
  const polygon = p.data.vertices.map((v) => ctx.toPage(v));
  const bounds = boxOfPoints(polygon);
  // The width is in pixels of the page's standard export (the spec's 5 px in the 1700×2400 PSD, whatever the page
  // size): on the page it is `frameWidthOnPage`, as the editor draws it, scaled here with the page to this export.
  const onPage = frameWidthOnPage(ctx.comic, p.data.borderWidth);
  const stroke = { width: onPage * Math.sqrt(ctx.scaleX * ctx.scaleY), color: p.data.borderColor };
  const half = stroke.width / 2;
  const name = p.name && p.name !== 'Panel' ? p.name : `Panel ${number}`;
  const children: PlanNode[] = [
    {
      kind: 'raster',
      key: `${p.id}:panelArea`,
      layerId: p.id,
      name: clampName(`${name} area`),
      hidden: false,
      clipping: false,
      role: 'panelArea',
      rect: intersect(pixelRect(bounds), ctx.canvas),
      polygon,
      trim: false,
    },
    ...ctx.clippedTo(p, pool),
  ];
  if (p.data.border) {
    children.push({
      kind: 'raster',
      key: `${p.id}:panelBorder`,
      layerId: p.id,
      name: clampName(`${name} border`),
      hidden: false,
      clipping: false,
      role: 'panelBorder',
      rect: intersect(pixelRect(grow(bounds, half + 1)), ctx.canvas),
      polygon,
      stroke,
      trim: false,
    });
  }
  return { kind: 'group', key: `${p.id}:group`, layerId: p.id, name: clampName(name), hidden: !p.visible, children };
}
