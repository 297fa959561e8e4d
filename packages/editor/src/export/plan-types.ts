import type { BlendMode, ComicConfiguration, FilterParams, Layer } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import type { Point, Rect } from './raster.ts';
import type { MeasureText } from '../text/font.ts';
import type { Matrix } from '../kinds/placement.ts';

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
  /** The text box (the layer's box without the export padding), as placed: upright bounds when turned. */
  box: Rect;
  /**
   * The text box's own frame on the page, [a, b, c, d, e, f] from box pixels to page pixels: the canvas's turn and
   * flip, so that Photoshop sets the text where the editor drew it. Its box is `size`, from (0, 0).
   */
  frame?: { matrix: [number, number, number, number, number, number]; width: number; height: number };
  /** Outlined text: written as the type layer's stroke effect (outside, in export pixels). */
  stroke?: { color: string; size: number } | null;
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
  /** The layer's opacity (0..1) and blend mode; absent for the page's own layers (opaque, normal). */
  opacity?: number;
  blendMode?: BlendMode;
  role: RasterRole;
  /** Where the pixels sit in the exported page (whole pixels; the raster is exactly this size). */
  rect: Rect;
  /** The panel outline in export pixels, for the panel roles. */
  polygon?: Point[];
  /** A panel frame's line, width in export pixels (not scaled with the page) and #rrggbb (the spec's 5 px black when absent). */
  stroke?: { width: number; color: string };
  /** Text layers are rasterised with padding and trimmed to what they draw. */
  trim: boolean;
  text?: PlanText;
  /** An image's adjustments (only when some differ from the defaults), applied to its pixels by the builder. */
  adjust?: PlanAdjust;
  /**
   * A turned or mirrored image: its turn and its box before the turn, in document units. The raster shows the turned
   * picture; the Koma block stores this so that an import takes the pixels back upright and turns the layer instead.
   */
  turn?: PlanTurn;
  /**
   * A picture's box on the page: `matrix` maps its own units (0..width, 0..height, turn and flip included) to page
   * pixels. The PDF draws a picture with fewer pixels than it covers at its own resolution through it (pdf-layers.ts).
   */
  placed?: { matrix: Matrix; width: number; height: number };
}

export interface PlanTurn {
  rotation: number;
  flipX: boolean;
  flipY: boolean;
  box: Rect;
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
  /**
   * The saved form of the page's layers that a Koma PSD brings back from their data (kinds with `restore`), by
   * id; the builder writes them into the file's Koma block. Absent: no block is written.
   */
  restorable?: Record<string, Layer>;
}

export interface PlanOptions {
  /** The document rectangle to export; a comic page by default. */
  area?: Rect;
  /** Output size; 1700×2400 for a comic page (editor.md §9), the area's own size for an infinite-canvas region. */
  size?: { width: number; height: number };
  name?: string;
  /**
   * Text measurement in the fonts the page is drawn with (horizontal or vertical text), so a type layer that
   * shrinks to fit carries the size it is drawn at; without it such a layer carries its own font size.
   */
  measure?: (vertical: boolean) => MeasureText;
}

/** What a layer kind's export hook may use while a page is planned (export pixels unless said otherwise). */
export interface PlanContext {
  doc: DocState;
  comic: ComicConfiguration;
  /** The whole exported page. */
  canvas: Rect;
  /** PlanOptions.measure, when the caller gave one. */
  measure?: (vertical: boolean) => MeasureText;
  scaleX: number;
  scaleY: number;
  /** A canvas point in export pixels. */
  toPage(p: Point): Point;
  /** The layer's placed box in export pixels. */
  boxOf(node: LayerNode): Rect;
  /** The fields every raster of a layer shares. */
  base(node: LayerNode, clipping: boolean): PlanBase;
  /** The plan of a list of sibling layers (bottom first), clipping chains and blocks resolved. */
  siblings(pool: readonly LayerNode[]): PlanNode[];
  /** The layers of `pool` clipped to `target` (and to those), as clipping nodes. */
  clippedTo(target: LayerNode, pool: readonly LayerNode[]): PlanNode[];
}

export interface PlanBase {
  layerId: string;
  name: string;
  hidden: boolean;
  clipping: boolean;
  trim: boolean;
  opacity: number;
  blendMode: BlendMode;
}
