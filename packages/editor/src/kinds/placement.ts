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
  const turn = {
    rotation: turns ? (node.rotation ?? 0) : 0,
    flipX: turns && !!node.flipX,
    flipY: turns && !!node.flipY,
  };
  return { matrix: turnedMatrix({ x: t.x, y: t.y, ...t.size }, turn), size: t.size, ...appearance };
}

/** A layer's turn and mirror: degrees clockwise about its box centre, then flips there. */
export interface Turn {
  rotation: number;
  flipX: boolean;
  flipY: boolean;
}

/**
 * The matrix placing a box (its position and size on the canvas before any turn) turned and mirrored about its
 * centre: what placementOf uses, and what a PSD import uses to take a turned picture's pixels back upright.
 */
export function turnedMatrix(box: { x: number; y: number; width: number; height: number }, turn: Turn): Matrix {
  const fx = turn.flipX ? -1 : 1;
  const fy = turn.flipY ? -1 : 1;
  if (turn.rotation % 360 === 0 && fx === 1 && fy === 1) return [1, 0, 0, 1, box.x, box.y];
  const r = (turn.rotation * Math.PI) / 180;
  const cos = Math.cos(r);
  const sin = Math.sin(r);
  const cx = box.width / 2;
  const cy = box.height / 2;
  // translate(centre) · rotate · scale(flip) · translate(-half size)
  const a = cos * fx;
  const b = sin * fx;
  const c = -sin * fy;
  const d = cos * fy;
  const e = box.x + cx - (a * cx + c * cy);
  const f = box.y + cy - (b * cx + d * cy);
  return [a, b, c, d, e, f];
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

/**
 * The axis-aligned canvas box that holds every one of `nodes` as placed (turned layers by their turned corners, not
 * their upright boxes), or null when there are none: what an infinite canvas's export and fitted view must show.
 */
export function placedBoundsOf(nodes: readonly LayerNode[]): Box | null {
  return nodes.length === 0 ? null : boxOfPoints(nodes.flatMap((n) => placedCorners(placementOf(n))));
}

/**
 * Where a point of a picture of `imageSize` pixels lands on the canvas, the picture shown stretched over the layer's
 * box and turned and flipped with it: what a detected face (in the picture's pixels) is on the canvas.
 */
export function pictureToCanvas(node: LayerNode, imageSize: Size): (p: Point) => Point {
  const { matrix, size } = placementOf(node);
  const sx = size.width / (imageSize.width || 1);
  const sy = size.height / (imageSize.height || 1);
  return (p) => applyMatrix(matrix, { x: p.x * sx, y: p.y * sy });
}
