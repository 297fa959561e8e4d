// Snapping of panels, vertices and layers (issue 17): what a drag may snap to on a page, and the pure arithmetic of
// pulling a box or a point onto the nearest line within a threshold. The screen draws `guides` while it snaps.
import { DEFAULT_PANEL_INSET, PANEL_SPLIT_GAP, type Point } from '@koma/domain';
import type { Box } from '../kinds/geometry.ts';

/** Lines to snap to: vertical lines at each `xs`, horizontal lines at each `ys` (canvas units). */
export interface SnapTargets {
  xs: number[];
  ys: number[];
}

/** Where a drag snapped: the lines it sits on (empty when it snapped to nothing). */
export interface SnapGuides {
  xs: number[];
  ys: number[];
}

/** How close (screen px) a dragged edge or point must come to a line to snap onto it. */
export const SNAP_DISTANCE_PX = 8;

export interface PageSnapInput {
  page: { width: number; height: number };
  /** The page's margin from the canvas edge (the default panel inset; with a page setup, its safe line). */
  margin?: number;
  /**
   * The page setup's bleed (px). The canvas is the bleed area, so its edges are the bleed line a bleed panel's
   * outer edges snap to; with bleed, the trim line this far inside them is a line too.
   */
  bleed?: number;
  /** The page's gutters (the spec's split gap when the page sets none). */
  gutter?: { horizontal: number; vertical: number };
  /** The bounding boxes of the other panels on the page. */
  panels: readonly Box[];
}

/**
 * The lines of a page: its edges (the bleed line), the trim line when it has bleed, its margin, its centre, every
 * other panel's edges, and the lines one gutter outside those edges (where a neighbour's edge belongs).
 */
export function pageSnapTargets(input: PageSnapInput): SnapTargets {
  const { page, panels } = input;
  const margin = input.margin ?? DEFAULT_PANEL_INSET;
  const gh = input.gutter?.horizontal ?? PANEL_SPLIT_GAP;
  const gv = input.gutter?.vertical ?? PANEL_SPLIT_GAP;
  const xs = [0, margin, page.width / 2, page.width - margin, page.width];
  const ys = [0, margin, page.height / 2, page.height - margin, page.height];
  const bleed = input.bleed ?? 0;
  if (bleed > 0) {
    xs.push(bleed, page.width - bleed);
    ys.push(bleed, page.height - bleed);
  }
  for (const b of panels) {
    const right = b.x + b.width;
    const bottom = b.y + b.height;
    xs.push(b.x, right, b.x - gh, right + gh);
    ys.push(b.y, bottom, b.y - gv, bottom + gv);
  }
  return { xs: unique(xs), ys: unique(ys) };
}

function unique(values: number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/**
 * The smallest shift (within `threshold`) that puts one of `candidates` exactly on one of `lines`, and the line(s)
 * it lands on; null when none is close enough. Ties keep every line the shift reaches, so all their guides show.
 */
export function snapAxis(
  candidates: readonly number[],
  lines: readonly number[],
  threshold: number,
): { shift: number; lines: number[] } | null {
  let best: number | null = null;
  for (const c of candidates) {
    for (const line of lines) {
      const shift = line - c;
      if (Math.abs(shift) <= threshold && (best === null || Math.abs(shift) < Math.abs(best))) best = shift;
    }
  }
  if (best === null) return null;
  const shift = best;
  const hit = lines.filter((line) => candidates.some((c) => Math.abs(c + shift - line) < 1e-9));
  return { shift, lines: hit };
}

/** Snaps a box moved by (dx, dy): its left, centre or right onto a vertical line, top, middle or bottom likewise. */
export function snapBox(
  box: Box,
  dx: number,
  dy: number,
  targets: SnapTargets,
  threshold: number,
): { dx: number; dy: number; guides: SnapGuides } {
  const x = box.x + dx;
  const y = box.y + dy;
  const sx = snapAxis([x, x + box.width / 2, x + box.width], targets.xs, threshold);
  const sy = snapAxis([y, y + box.height / 2, y + box.height], targets.ys, threshold);
  return {
    dx: dx + (sx?.shift ?? 0),
    dy: dy + (sy?.shift ?? 0),
    guides: { xs: sx?.lines ?? [], ys: sy?.lines ?? [] },
  };
}

/** Snaps a point (a panel vertex) onto the nearest vertical and horizontal lines within the threshold. */
export function snapPoint(p: Point, targets: SnapTargets, threshold: number): { point: Point; guides: SnapGuides } {
  const sx = snapAxis([p.x], targets.xs, threshold);
  const sy = snapAxis([p.y], targets.ys, threshold);
  return {
    point: { x: p.x + (sx?.shift ?? 0), y: p.y + (sy?.shift ?? 0) },
    guides: { xs: sx?.lines ?? [], ys: sy?.lines ?? [] },
  };
}

/** Which corner of a box a resize drags (the opposite one stays put). */
export type BoxCorner = 'top-left' | 'top-right' | 'bottom-right' | 'bottom-left';

/**
 * Snaps the dragged corner of an upright box resized by (dx, dy) onto the nearest lines. With the aspect kept, one
 * snapped axis sets the scale and the other follows it (the resize takes the larger of the two scales, so both
 * deltas are given the same one); when both axes could snap, the nearer wins, as two lines can rarely both be met.
 */
export function snapCorner(
  box: Box,
  corner: BoxCorner,
  dx: number,
  dy: number,
  keepAspect: boolean,
  targets: SnapTargets,
  threshold: number,
): { dx: number; dy: number; guides: SnapGuides } {
  const left = corner === 'top-left' || corner === 'bottom-left';
  const top = corner === 'top-left' || corner === 'top-right';
  const x = (left ? box.x : box.x + box.width) + dx;
  const y = (top ? box.y : box.y + box.height) + dy;
  const sx = snapAxis([x], targets.xs, threshold);
  const sy = snapAxis([y], targets.ys, threshold);
  if (!keepAspect || box.width <= 0 || box.height <= 0) {
    return {
      dx: dx + (sx?.shift ?? 0),
      dy: dy + (sy?.shift ?? 0),
      guides: { xs: sx?.lines ?? [], ys: sy?.lines ?? [] },
    };
  }
  // The scale the snapped edge gives, and the other corner's delta at that scale, a hair short of it: the resize
  // takes the larger scale of the two, and a rounding error the other way would move the snapped edge off its line.
  const sign = (start: boolean) => (start ? -1 : 1);
  const follow = (start: boolean, length: number, scale: number) =>
    sign(start) * (length * scale - length) - sign(start) * length * 1e-9;
  if (sx && (!sy || Math.abs(sx.shift) <= Math.abs(sy.shift))) {
    const ndx = dx + sx.shift;
    const scale = (box.width + sign(left) * ndx) / box.width;
    return { dx: ndx, dy: follow(top, box.height, scale), guides: { xs: sx.lines, ys: [] } };
  }
  if (!sy) return { dx, dy, guides: { xs: [], ys: [] } };
  const ndy = dy + sy.shift;
  const scale = (box.height + sign(top) * ndy) / box.height;
  return { dx: follow(left, box.width, scale), dy: ndy, guides: { xs: [], ys: sy.lines } };
}
