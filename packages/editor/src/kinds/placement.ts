import type { BlendMode, Point, Size } from '@koma/domain';
import type { LayerNode } from '../store/state.ts';
import { boxOfPoints, type Box } from './geometry.ts';

/**
 * A 2D affine matrix in canvas 2D order [a, b, c, d, e, f]: x' = a·x + c·y + e, y' = b·x + d·y + f.
 * It maps a layer's own units (its box runs from (0, 0) to its size) onto the canvas.
 */
export type Matrix = readonly [number, number, number, number, number, number];

/**
 * How a drawable layer sits on the canvas and how it is composited: the one place every consumer reads it from —
 * hit-testing and handles (packages/editor), the Konva stage and the PNG/PSD rasters (apps/web), the PSD plan.
 * Rotation and flip become factors of `matrix`, opacity and blend become fields here, and every consumer follows.
 */
export interface Placement {
  /** Layer units to canvas units. */
  matrix: Matrix;
  /** The layer's box in its own units. */
  size: Size;
  /** 0..1, applied to the layer as a whole. */
  opacity: number;
  blendMode: BlendMode;
}

/** Layer kinds that turn and flip (issue 17); the others keep their box upright. */
export const TURNING_KINDS: ReadonlySet<string> = new Set(['IMAGE', 'TEXT', 'POSE']);

/**
 * The placement of a layer: its box at its position, turned by `rotation` degrees clockwise about the box centre and
 * mirrored by `flipX`/`flipY` there (images, text, poses), with its opacity and blend mode.
 */
export function placementOf(node: LayerNode): Placement {
  const t = node.transform;
  const appearance = { opacity: node.opacity ?? 1, blendMode: node.blendMode ?? 'normal' };
  const turns = TURNING_KINDS.has(node.type);
  const rotation = turns ? (node.rotation ?? 0) : 0;
  const fx = turns && node.flipX ? -1 : 1;
  const fy = turns && node.flipY ? -1 : 1;
  if (rotation % 360 === 0 && fx === 1 && fy === 1) {
    return { matrix: [1, 0, 0, 1, t.x, t.y], size: t.size, ...appearance };
  }
  const r = (rotation * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const cx = t.size.width / 2;
  const cy = t.size.height / 2;
  // translate(centre) · rotate · scale(flip) · translate(-half size)
  const a = cos * fx;
  const b = sin * fx;
  const c = -sin * fy;
  const d = cos * fy;
  const e = t.x + cx - (a * cx + c * cy);
  const f = t.y + cy - (b * cx + d * cy);
  return { matrix: [a, b, c, d, e, f], size: t.size, ...appearance };
}

export function applyMatrix(m: Matrix, p: Point): Point {
  return { x: m[0] * p.x + m[2] * p.y + m[4], y: m[1] * p.x + m[3] * p.y + m[5] };
}

export function invertMatrix(m: Matrix): Matrix {
  const [a, b, c, d, e, f] = m;
  const det = a * d - b * c || 1;
  return [d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det];
}

/** A canvas point in the layer's own units. */
export function toLocal(placement: Placement, p: Point): Point {
  return applyMatrix(invertMatrix(placement.matrix), p);
}

/** The layer's box corners on the canvas: top-left, top-right, bottom-right, bottom-left. */
export function placedCorners(placement: Placement): [Point, Point, Point, Point] {
  const { width, height } = placement.size;
  const at = (x: number, y: number) => applyMatrix(placement.matrix, { x, y });
  return [at(0, 0), at(width, 0), at(width, height), at(0, height)];
}

/** The axis-aligned canvas box that holds the placed layer. */
export function placedBounds(placement: Placement): Box {
  const [a, b, c, d, e, f] = placement.matrix;
  // A plain translation keeps the size exactly (x + w - x can differ from w in the last bit).
  if (a === 1 && b === 0 && c === 0 && d === 1) return { x: e, y: f, ...placement.size };
  return boxOfPoints(placedCorners(placement));
}
