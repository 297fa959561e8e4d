import type { Size } from '../document/geometry.ts';
import type { NeighborPanels } from '../document/layers/panel.ts';
import type { Gutter, ReadingOrder } from '../document/workspace.ts';
import { DEFAULT_PANEL_INSET, PANEL_SPLIT_GAP, RANDOM_LAYOUT } from '../constants.ts';
import { computeNeighbors } from './neighbors.ts';
import { readingPositions } from './reading-order.ts';
import { rectVertices, type Rect } from './shape.ts';
import type { Point } from '../document/geometry.ts';

/** A layout as nested tiers: `rows` stacks its parts, `cols` sets them side by side; a number is a leaf's weight. */
export type LayoutNode = { split: 'rows' | 'cols'; parts: { weight: number; node?: LayoutNode }[] };

export interface LayoutPreset {
  id: string;
  name: string;
  root: LayoutNode;
}

const leaf = (weight = 1) => ({ weight });
const rows = (...parts: { weight: number; node?: LayoutNode }[]): LayoutNode => ({ split: 'rows', parts });
const cols = (...parts: { weight: number; node?: LayoutNode }[]): LayoutNode => ({ split: 'cols', parts });
const sub = (weight: number, node: LayoutNode) => ({ weight, node });

/** The nine page layouts of the panel_presets tab, drawn for left-to-right reading; right-to-left mirrors them. */
export const LAYOUT_PRESETS: readonly LayoutPreset[] = [
  { id: 'single', name: 'Single page', root: rows(leaf()) },
  { id: 'two-tiers', name: 'Two tiers', root: rows(leaf(), leaf()) },
  { id: 'three-tiers', name: 'Three tiers', root: rows(leaf(), leaf(), leaf()) },
  { id: 'four-koma', name: 'Four-panel strip', root: rows(leaf(), leaf(), leaf(), leaf()) },
  { id: 'grid-2x2', name: 'Grid of four', root: rows(sub(1, cols(leaf(), leaf())), sub(1, cols(leaf(), leaf()))) },
  {
    id: 'grid-2x3',
    name: 'Six panels',
    root: rows(sub(1, cols(leaf(), leaf())), sub(1, cols(leaf(), leaf())), sub(1, cols(leaf(), leaf()))),
  },
  { id: 'splash-top', name: 'Splash and two', root: rows(leaf(3), sub(2, cols(leaf(), leaf()))) },
  { id: 'tall-side', name: 'Tall side panel', root: cols(leaf(1), sub(1, rows(leaf(), leaf(), leaf()))) },
  {
    id: 'action-five',
    name: 'Action five',
    root: rows(sub(2, cols(leaf(2), leaf(1))), leaf(3), sub(2, cols(leaf(1), leaf(2)))),
  },
];

export interface LaidOutPanel {
  /** Position of the panel in layout order (before reading order is applied). */
  index: number;
  vertices: Point[];
  neighborPanels: NeighborPanels;
  /** Reading-order number, from 1. */
  position: number;
}

/** The same gap both ways. */
export const evenGutter = (gap: number): Gutter => ({ horizontal: gap, vertical: gap });

/** Splits `area` along the node's axis into parts by weight: tiers `gutter.vertical` apart, columns `horizontal`. */
function place(node: LayoutNode, area: Rect, gutter: Gutter, out: Rect[]): void {
  const gap = node.split === 'rows' ? gutter.vertical : gutter.horizontal;
  const total = node.parts.reduce((s, p) => s + p.weight, 0);
  const length = (node.split === 'rows' ? area.height : area.width) - gap * (node.parts.length - 1);
  let offset = 0;
  for (const part of node.parts) {
    const extent = (length * part.weight) / total;
    const rect: Rect =
      node.split === 'rows'
        ? { x: area.x, y: area.y + offset, width: area.width, height: extent }
        : { x: area.x + offset, y: area.y, width: extent, height: area.height };
    if (part.node) place(part.node, rect, gutter, out);
    else out.push(rect);
    offset += extent + gap;
  }
}

/** Turns rectangles into panels with neighbours and reading-order numbers. */
export function panelsFromRects(rects: readonly Rect[], gap: number | Gutter, order: ReadingOrder): LaidOutPanel[] {
  const shapes = rects.map((r, i) => ({ id: String(i), vertices: rectVertices(r) }));
  const widest = typeof gap === 'number' ? gap : Math.max(gap.horizontal, gap.vertical);
  const neighbors = computeNeighbors(shapes, widest + 1);
  const positions = readingPositions(
    shapes.map((s) => ({ ...s, neighborPanels: neighbors.get(s.id)!, locked: false, ignoreNeighbors: false })),
    order,
  );
  return shapes.map((s, i) => ({
    index: i,
    vertices: s.vertices,
    neighborPanels: neighbors.get(s.id)!,
    position: positions.get(s.id)!,
  }));
}

/** Lays a preset out on a page inside the standard inset; right-to-left pages get the mirror image. */
export function layoutPreset(
  preset: LayoutPreset,
  page: Size,
  order: ReadingOrder,
  inset = DEFAULT_PANEL_INSET,
  gutter: Gutter = evenGutter(PANEL_SPLIT_GAP),
): LaidOutPanel[] {
  const rects: Rect[] = [];
  place(
    preset.root,
    { x: inset, y: inset, width: page.width - 2 * inset, height: page.height - 2 * inset },
    gutter,
    rects,
  );
  const placed = order === 'RIGHT_TO_LEFT' ? rects.map((r) => ({ ...r, x: page.width - r.x - r.width })) : rects;
  return panelsFromRects(placed, gutter, order);
}

/**
 * A random page: three tiers of random height, each holding one or two panels, every side at least `minSize`
 * (tiers and panels), with the spec's margin, and its 10 px gap unless the page sets a gutter. `random` returns
 * numbers in [0, 1).
 */
export function randomLayout(
  page: Size,
  order: ReadingOrder,
  random: () => number,
  gutter: Gutter = evenGutter(RANDOM_LAYOUT.gap),
): LaidOutPanel[] {
  const { rows: tiers, margin, minSize, minPanelsPerRow, maxPanelsPerRow } = RANDOM_LAYOUT;
  const inner: Rect = { x: margin, y: margin, width: page.width - 2 * margin, height: page.height - 2 * margin };
  const heights = randomPartition(inner.height - gutter.vertical * (tiers - 1), tiers, minSize, random);
  const rects: Rect[] = [];
  let y = inner.y;
  for (const height of heights) {
    const count = minPanelsPerRow + Math.floor(random() * (maxPanelsPerRow - minPanelsPerRow + 1));
    const gap = gutter.horizontal;
    const usable = inner.width - gap * (count - 1);
    const widths = count * minSize <= usable ? randomPartition(usable, count, minSize, random) : [inner.width];
    let x = inner.x;
    for (const width of widths) {
      rects.push({ x, y, width, height });
      x += width + gap;
    }
    y += height + gutter.vertical;
  }
  return panelsFromRects(rects, gutter, order);
}

/** Splits `total` into `n` whole-pixel parts of at least `min` each, at random. */
function randomPartition(total: number, n: number, min: number, random: () => number): number[] {
  const spare = total - n * min;
  if (spare < 0) throw new Error(`Cannot fit ${n} parts of at least ${min} px into ${total} px`);
  const cuts = Array.from({ length: n - 1 }, () => Math.floor(random() * (spare + 1))).sort((a, b) => a - b);
  const bounds = [0, ...cuts, spare];
  const parts: number[] = [];
  for (let i = 0; i < n; i++) parts.push(min + bounds[i + 1]! - bounds[i]!);
  // Rounding leaves any fractional remainder on the last part so the parts fill `total` exactly.
  parts[n - 1] = total - parts.slice(0, -1).reduce((s, p) => s + p, 0);
  return parts;
}
