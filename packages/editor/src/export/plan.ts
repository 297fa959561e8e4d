import {
  PSD_EXPORT_HEIGHT,
  PSD_EXPORT_WIDTH,
  PSD_PANEL_STROKE_PX,
  TEXT_EXPORT_PADDING,
  readingOrder,
  type FilterParams,
} from '@koma/domain';
import { isDefaultFilter } from './adjust.ts';
import type { DocState, LayerNode } from '../store/state.ts';
import type { Point, Rect } from './raster.ts';

/**
 * What a PSD layer's pixels show. `background`, `panelArea` and `panelBorder` are drawn by the builder itself;
 * the others come from the caller (Konva in the browser, synthetic pixels in tests), each covering exactly its rect.
 */
export type RasterRole = 'background' | 'panelArea' | 'panelBorder' | 'image' | 'shape' | 'textBackground' | 'text';

/** An editable text layer's content and style, in export pixels. */
export interface PlanText {
  value: string;
  fontName: string;
  fontSize: number;
  color: string;
  bold: boolean;
  italic: boolean;
  align: 'left' | 'center' | 'right';
  vertical: boolean;
  /** The text box (the layer's box without the export padding). */
  box: Rect;
}

export interface PlanRaster {
  kind: 'raster';
  /** Unique in the plan: `${layerId}:${role}`, or the role alone for the page's own layers. */
  key: string;
  layerId: string | null;
  name: string;
  hidden: boolean;
  /** Clipped to the nearest non-clipping layer below it in the same group (a PSD clipping mask). */
  clipping: boolean;
  role: RasterRole;
  /** Where the pixels sit in the exported page (whole pixels; the raster is exactly this size). */
  rect: Rect;
  /** The panel outline in export pixels, for the panel roles. */
  polygon?: Point[];
  /** Text layers are rasterised with padding and trimmed to what they draw. */
  trim: boolean;
  text?: PlanText;
  /** An image's adjustments (only when some differ from the defaults), applied to its pixels by the builder. */
  adjust?: PlanAdjust;
}

/** The image's filter parameters and its whole box in export pixels, which places the vignette and the grain. */
export interface PlanAdjust {
  params: FilterParams;
  box: Rect;
}

export interface PlanGroup {
  kind: 'group';
  key: string;
  layerId: string | null;
  name: string;
  hidden: boolean;
  /** Bottom first, as in the PSD. */
  children: PlanNode[];
}

export type PlanNode = PlanRaster | PlanGroup;

/** One exported page: its size, how the document maps onto it, and its layer tree (bottom first). */
export interface PagePlan {
  name: string;
  width: number;
  height: number;
  /** The document rectangle that becomes the page. */
  area: Rect;
  scaleX: number;
  scaleY: number;
  nodes: PlanNode[];
}

export interface PlanOptions {
  /** The document rectangle to export; a comic page by default. */
  area?: Rect;
  /** Output size; 1700×2400 for a comic page (editor.md §9), the area's own size for an infinite-canvas region. */
  size?: { width: number; height: number };
  name?: string;
}

const CALLER_ROLES: ReadonlySet<RasterRole> = new Set(['image', 'shape', 'textBackground', 'text']);

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
 * layers in drawing order, except that all panels form one block at the place of the lowest panel, one group per
 * panel ordered so that panel 1 is the top group (the Layers panel then reads in reading order). A panel group
 * holds the panel's area (the clipping base), the layers clipped to the panel as clipping layers, and the
 * panel's black 5 px border on top when the panel has a border.
 */
export function planPage(doc: DocState, rootId: string, options: PlanOptions = {}): PagePlan {
  const comic = doc.comicConfiguration;
  const area = options.area ?? { x: 0, y: 0, width: comic.width, height: comic.height };
  const size =
    options.size ??
    (doc.type === 'COMIC'
      ? { width: PSD_EXPORT_WIDTH, height: PSD_EXPORT_HEIGHT }
      : { width: Math.max(1, Math.round(area.width)), height: Math.max(1, Math.round(area.height)) });
  const scaleX = size.width / area.width;
  const scaleY = size.height / area.height;
  const canvas: Rect = { x: 0, y: 0, width: size.width, height: size.height };
  const toPage = (p: Point): Point => ({ x: (p.x - area.x) * scaleX, y: (p.y - area.y) * scaleY });
  const boxOf = (l: LayerNode): Rect => {
    const t = l.transform;
    const a = toPage(t);
    return { x: a.x, y: a.y, width: t.size.width * scaleX, height: t.size.height * scaleY };
  };
  const root = doc.layers[rootId];
  if (!root) throw new Error(`No layer ${rootId} to export`);

  const layerNodes = (l: LayerNode, clipping: boolean): PlanNode[] => {
    const base = { layerId: l.id, name: l.name || l.type, hidden: !l.visible, clipping, trim: false };
    if (l.type === 'GROUP') {
      return [
        {
          kind: 'group',
          key: `${l.id}:group`,
          layerId: l.id,
          name: base.name,
          hidden: base.hidden,
          children: siblings(l.children.map((id) => doc.layers[id]!).filter(Boolean)),
        },
      ];
    }
    if (l.type === 'TEXT') {
      const box = boxOf(l);
      const padded = intersect(pixelRect(grow(box, TEXT_EXPORT_PADDING)), canvas);
      const d = l.data;
      const out: PlanNode[] = [];
      if (d.backgroundType !== 'NONE') {
        out.push({
          kind: 'raster',
          ...base,
          key: `${l.id}:textBackground`,
          name: clampName(`${base.name} background`),
          role: 'textBackground',
          rect: padded,
          trim: true,
        });
      }
      const fontScale = Math.sqrt(scaleX * scaleY);
      out.push({
        kind: 'raster',
        ...base,
        key: `${l.id}:text`,
        role: 'text',
        rect: padded,
        trim: true,
        text: {
          value: d.text,
          fontName: d.fontName,
          fontSize: d.fontSize * fontScale,
          color: d.fontColor,
          bold: d.fontBold,
          italic: d.fontItalic,
          align: d.textAlign === 'left' || d.textAlign === 'right' ? d.textAlign : 'center',
          vertical: d.vertical,
          box,
        },
      });
      return out;
    }
    if (l.type === 'PANEL') return [];
    const adjusted = l.type === 'IMAGE' && !isDefaultFilter(l.data.filterParams);
    return [
      {
        kind: 'raster',
        ...base,
        key: `${l.id}:${l.type === 'IMAGE' ? 'image' : 'shape'}`,
        role: l.type === 'IMAGE' ? 'image' : 'shape',
        rect: intersect(pixelRect(boxOf(l)), canvas),
        ...(adjusted ? { adjust: { params: { ...l.data.filterParams }, box: boxOf(l) } } : {}),
      },
    ];
  };

  const clippedTo = (target: LayerNode, pool: readonly LayerNode[]): PlanNode[] => {
    const chain: PlanNode[] = [];
    for (const l of pool) {
      if (l.clipTarget !== target.id) continue;
      chain.push(...layerNodes(l, true));
      // A layer clipped to a clipped layer joins the same clipping chain.
      chain.push(...clippedTo(l, pool));
    }
    return chain;
  };

  const panelGroup = (p: LayerNode<'PANEL'>, pool: readonly LayerNode[], number: number): PlanGroup => {
    const polygon = p.data.vertices.map(toPage);
    const bounds = boundsOfPoints(polygon);
    const half = PSD_PANEL_STROKE_PX / 2;
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
        rect: intersect(pixelRect(bounds), canvas),
        polygon,
        trim: false,
      },
      ...clippedTo(p, pool),
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
        rect: intersect(pixelRect(grow(bounds, half + 1)), canvas),
        polygon,
        trim: false,
      });
    }
    return { kind: 'group', key: `${p.id}:group`, layerId: p.id, name: clampName(name), hidden: !p.visible, children };
  };

  function siblings(pool: readonly LayerNode[]): PlanNode[] {
    const panels = pool.filter((l): l is LayerNode<'PANEL'> => l.type === 'PANEL');
    const order = readingOrder(
      panels.map((p) => ({
        id: p.id,
        vertices: p.data.vertices,
        neighborPanels: p.data.neighborPanels,
        locked: p.locked,
        ignoreNeighbors: p.data.ignoreNeighbors,
      })),
      comic.readingOrder,
    );
    const out: PlanNode[] = [];
    let panelsPlaced = false;
    for (const l of pool) {
      if (l.type === 'PANEL') {
        if (panelsPlaced) continue;
        panelsPlaced = true;
        // Panel 1 last, so that it is the top group of the Layers panel.
        const groups = order.map((id, i) =>
          panelGroup(
            panels.find((p) => p.id === id)!,
            pool,
            i + 1,
          ),
        );
        out.push(...groups.reverse());
        continue;
      }
      // A clipped layer is drawn in its target's chain; one whose target is missing stands alone.
      if (l.clipTarget && pool.some((t) => t.id === l.clipTarget)) continue;
      out.push(...layerNodes(l, false), ...clippedTo(l, pool));
    }
    return out;
  }

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
    ...siblings(root.children.map((id) => doc.layers[id]!).filter(Boolean)),
  ];
  return { name: options.name ?? root.name, width: size.width, height: size.height, area, scaleX, scaleY, nodes };
}

/** PSD layer names are Pascal strings of at most 255 characters (generation.md §5). */
export function clampName(name: string): string {
  return name.length > 255 ? name.slice(0, 254) + '…' : name;
}

function grow(r: Rect, by: number): Rect {
  return { x: r.x - by, y: r.y - by, width: r.width + 2 * by, height: r.height + 2 * by };
}

function pixelRect(r: Rect): Rect {
  const x = Math.floor(r.x + 1e-6);
  const y = Math.floor(r.y + 1e-6);
  return { x, y, width: Math.ceil(r.x + r.width - 1e-6) - x, height: Math.ceil(r.y + r.height - 1e-6) - y };
}

function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, right - x), height: Math.max(0, bottom - y) };
}

function boundsOfPoints(points: readonly Point[]): Rect {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}
