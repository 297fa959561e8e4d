import {
  PSD_EXPORT_HEIGHT,
  PSD_EXPORT_WIDTH,
  pageCanvasSize,
  pageSetupBoxes,
  type ComicConfiguration,
} from '@koma/domain';
import type { Layer } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { savedLayer } from '../store/normalize.ts';
import { kindOf } from '../kinds/lookup.ts';
import { placedBounds, placementOf } from '../kinds/placement.ts';
import type { Point, Rect } from './raster.ts';
import type { PagePlan, PlanContext, PlanNode, PlanOptions, PlanRaster, RasterRole } from './plan-types.ts';

export type * from './plan-types.ts';
export { clampName } from './rects.ts';

const CALLER_ROLES: ReadonlySet<RasterRole> = new Set(['image', 'shape', 'textBackground', 'text']);

/**
 * The pixel size a comic page exports at: the spec's 1700 × 2400 for the default setup (editor.md §9), else the
 * setup's own canvas (trim plus bleed at its dpi), one canvas pixel to one exported pixel.
 */
export function comicExportSize(comic: ComicConfiguration): { width: number; height: number } {
  if (comic.setup.preset === 'DEFAULT') return { width: PSD_EXPORT_WIDTH, height: PSD_EXPORT_HEIGHT };
  return pageCanvasSize(comic.setup);
}

/**
 * A panel frame's width on the page (canvas units) for its `borderWidth`, which is in pixels of the page's standard
 * export (editor.md §9: the 1700×2400 PSD has a 5 px stroke, whatever the page's own size). The editor draws this,
 * and an export at any size scales it with the page, so the screen and every export show the same line.
 */
export function frameWidthOnPage(comic: ComicConfiguration, borderWidth: number): number {
  const size = comicExportSize(comic);
  return borderWidth / Math.sqrt((size.width / comic.width) * (size.height / comic.height));
}

/** How a comic's exported page images are printed: their resolution and bleed in exported pixels. */
export function comicPrintGeometry(comic: ComicConfiguration): { dpi: number; bleedPx: number } {
  if (comic.setup.preset === 'DEFAULT') return { dpi: comic.setup.dpi, bleedPx: 0 };
  return { dpi: comic.setup.dpi, bleedPx: pageSetupBoxes(comic.setup).bleedPx };
}

/**
 * What a flattened page (PNG, CBZ, PDF, webtoon) shows of a plan: the layered file keeps hidden layers, a picture
 * does not, so their pixels need neither loading nor drawing. Hidden layers go, and with a hidden layer the layers
 * clipped to it, as the composite skips them. A hidden group stays, emptied: a group ends a clipping chain, so a
 * clipping layer right after it still has no base.
 */
export function shownPlan(plan: PagePlan): PagePlan {
  const shown = (nodes: readonly PlanNode[]): PlanNode[] => {
    const out: PlanNode[] = [];
    let baseHidden = false;
    for (const node of nodes) {
      if (node.kind === 'group') {
        out.push({ ...node, children: node.hidden ? [] : shown(node.children) });
        baseHidden = false;
        continue;
      }
      if (!node.clipping) baseHidden = node.hidden;
      if (node.hidden || (node.clipping && baseHidden)) continue;
      out.push(node);
    }
    return out;
  };
  return { ...plan, nodes: shown(plan.nodes) };
}

/** The rasters the caller must draw for a plan (every layer, hidden ones too, so that they stay in the file). */
export function rastersToDraw(plan: PagePlan): PlanRaster[] {
  const out: PlanRaster[] = [];
  const visit = (n: PlanNode) => {
    if (n.kind === 'group') n.children.forEach(visit);
    else if (CALLER_ROLES.has(n.role)) out.push(n);
  };
  plan.nodes.forEach(visit);
  return out;
}

/**
 * Lays out the PSD of one page (or one region of the infinite canvas): a white background, then the page's
 * layers in drawing order, each as its kind exports it (kinds/*.ts). Clipping chains are common: a layer clipped
 * to another follows it as a clipping layer. A kind may export its layers as one block (panels: one group per
 * panel at the place of the lowest panel, panel 1 on top, so that the Layers panel reads in reading order).
 */
export function planPage(doc: DocState, rootId: string, options: PlanOptions = {}): PagePlan {
  const comic = doc.comicConfiguration;
  const area = options.area ?? { x: 0, y: 0, width: comic.width, height: comic.height };
  const size =
    options.size ??
    (doc.type === 'COMIC'
      ? comicExportSize(comic)
      : { width: Math.max(1, Math.round(area.width)), height: Math.max(1, Math.round(area.height)) });
  const scaleX = size.width / area.width;
  const scaleY = size.height / area.height;
  const canvas: Rect = { x: 0, y: 0, width: size.width, height: size.height };
  const toPage = (p: Point): Point => ({ x: (p.x - area.x) * scaleX, y: (p.y - area.y) * scaleY });
  const root = doc.layers[rootId];
  if (!root) throw new Error(`No layer ${rootId} to export`);

  const layerNodes = (l: LayerNode, clipping: boolean): PlanNode[] => kindOf(l).export.nodes(l, clipping, ctx);

  const ctx: PlanContext = {
    doc,
    comic,
    canvas,
    scaleX,
    scaleY,
    toPage,
    ...(options.measure ? { measure: options.measure } : {}),
    boxOf(l) {
      const b = placedBounds(placementOf(l));
      const a = toPage(b);
      return { x: a.x, y: a.y, width: b.width * scaleX, height: b.height * scaleY };
    },
    base(l, clipping) {
      // Every kind's rasters carry the layer's appearance: the PSD layer gets it and the composite applies it.
      const { opacity, blendMode } = placementOf(l);
      return { layerId: l.id, name: l.name || l.type, hidden: !l.visible, clipping, trim: false, opacity, blendMode };
    },
    clippedTo(target, pool) {
      const chain: PlanNode[] = [];
      for (const l of pool) {
        if (l.clipTarget !== target.id) continue;
        chain.push(...layerNodes(l, true));
        // A layer clipped to a clipped layer joins the same clipping chain.
        chain.push(...ctx.clippedTo(l, pool));
      }
      return chain;
    },
    siblings(pool) {
      const out: PlanNode[] = [];
      const blocksPlaced = new Set<string>();
      for (const l of pool) {
        const kind = kindOf(l);
        if (kind.export.block) {
          if (blocksPlaced.has(l.type)) continue;
          blocksPlaced.add(l.type);
          out.push(
            ...kind.export.block(
              pool.filter((m) => m.type === l.type),
              pool,
              ctx,
            ),
          );
          continue;
        }
        // A clipped layer is drawn in its target's chain; one whose target is missing stands alone.
        if (l.clipTarget && pool.some((t) => t.id === l.clipTarget)) continue;
        out.push(...layerNodes(l, false), ...ctx.clippedTo(l, pool));
      }
      return out;
    },
  };

  const nodes: PlanNode[] = [
    {
      kind: 'raster',
      key: 'background',
      layerId: null,
      name: 'Background',
      hidden: false,
      clipping: false,
      role: 'background',
      rect: canvas,
      trim: false,
    },
    ...ctx.siblings(root.children.map((id) => doc.layers[id]!).filter(Boolean)),
  ];
  const restorable: Record<string, Layer> = {};
  const collect = (id: string) => {
    const l = doc.layers[id];
    if (!l) return;
    if (kindOf(l).export.restore) restorable[l.id] = structuredClone(savedLayer(l));
    l.children.forEach(collect);
  };
  root.children.forEach(collect);
  return {
    name: options.name ?? root.name,
    width: size.width,
    height: size.height,
    area,
    scaleX,
    scaleY,
    nodes,
    restorable,
  };
}
