import { THOUGHT_BUBBLE_STYLES, transformPathData, type Point, type Rect, type TextData } from '@koma/domain';
import { bubbleOutline, type BubbleOutline } from './outline.ts';
import { centroid, perimeter, pointAt, pointInPolygon, rayExit, walkToChord, type OutlinePosition } from './polygon.ts';
import { wobbleOf } from './procedural-outline.ts';

/** A circle of a thought bubble's trail. */
export interface TrailCircle {
  x: number;
  y: number;
  r: number;
}

/** A bubble's tail, in the same coordinates as the bubble box passed in. */
export interface TailGeometry {
  /** A wedge for speech; a trail of shrinking circles for thought styles (b3, b30, b35). */
  kind: 'wedge' | 'circles';
  /** Direction actually used, degrees clockwise from +x (the face's direction when pinned). */
  angle: number;
  /** Distance from the outline to the aimed-at point (to the face when pinned). */
  length: number;
  /** Where the tail's axis leaves the outline. */
  root: Point;
  /** The two base corners, both on the bubble outline, in outline order. */
  base: [Point, Point];
  /** The drawn tip: `tailGap` of the length short of the aimed-at point. */
  tip: Point;
  /** Wedge triangle base0 → tip → base1 (stroke this open polyline); empty for circles. */
  polygon: Point[];
  /** The wedge pushed into the bubble past its outline ring: fill it with the background to join a drawn style. */
  fill: Point[];
  /** Thought trail, largest first; empty for wedges. */
  circles: TrailCircle[];
  /** Positions of the base corners on the outline, for splicing the tail into it. */
  baseAt: [OutlinePosition, OutlinePosition];
}

const deg = (rad: number) => (rad * 180) / Math.PI;
const rad = (d: number) => (d * Math.PI) / 180;
const MAX_GAP = 0.95;

/**
 * The tail for a bubble whose outline (in absolute coordinates) is given. tailWidth is the base width in percent
 * of the bubble's shorter side; the tip sits at tailLength × (1 − tailGap) from the outline, so the tail stops
 * short of what it points at. With a target (pinToFace) angle and length aim at the target instead.
 */
export function tailOnOutline(
  data: Pick<TextData, 'tailAngle' | 'tailLength' | 'tailWidth' | 'tailGap' | 'bubbleStyle'>,
  outline: readonly Point[],
  box: Rect,
  target?: Point | null,
): TailGeometry | null {
  if (outline.length < 3) return null;
  const centre = centroid(outline);
  if (target && pointInPolygon(target, outline)) return null;
  const angle = target ? deg(Math.atan2(target.y - centre.y, target.x - centre.x)) : data.tailAngle;
  const dir = { x: Math.cos(rad(angle)), y: Math.sin(rad(angle)) };
  const rootAt = rayExit(outline, centre, dir);
  if (!rootAt) return null;
  const root = pointAt(outline, rootAt);
  const length = target ? Math.hypot(target.x - root.x, target.y - root.y) : Math.max(0, data.tailLength);
  const reach = length * (1 - Math.min(MAX_GAP, Math.max(0, data.tailGap)));
  const tip = { x: root.x + dir.x * reach, y: root.y + dir.y * reach };

  const around = perimeter(outline);
  const baseWidth = Math.min((Math.max(0, data.tailWidth) / 100) * Math.min(box.width, box.height), around / 3);
  // Base corners baseWidth apart across the tail; where the root sits in a valley of a cloud or burst the two sides
  // fold towards each other, so reach farther out until they stand far enough apart (or a sixth of the outline).
  let b0 = rootAt;
  let b1 = rootAt;
  let base: [Point, Point] = [root, root];
  let radius = baseWidth / 2;
  for (let tries = 0; tries < 5; tries++) {
    b0 = walkToChord(outline, rootAt, radius, -1, around / 6);
    b1 = walkToChord(outline, rootAt, radius, 1, around / 6);
    base = [pointAt(outline, b0), pointAt(outline, b1)];
    const apart = Math.hypot(base[1].x - base[0].x, base[1].y - base[0].y);
    if (apart >= baseWidth * 0.9 || apart <= 0) break;
    radius *= Math.min(2, baseWidth / apart);
  }

  // How far into the bubble the background fill reaches, to cover a drawn style's outline ring.
  const depth = Math.min(box.width, box.height) * 0.06;
  const inward = (p: Point): Point => {
    const dx = centre.x - p.x;
    const dy = centre.y - p.y;
    const len = Math.hypot(dx, dy) || 1;
    const d = Math.min(depth, len * 0.5);
    return { x: p.x + (dx / len) * d, y: p.y + (dy / len) * d };
  };

  const thought = THOUGHT_BUBBLE_STYLES.has(data.bubbleStyle);
  const circles: TrailCircle[] = [];
  if (thought && reach > 0) {
    // Three circles shrinking towards the tip, the first clear of the outline.
    const r0 = Math.max(4, Math.min(baseWidth, reach / 3) * 0.5);
    const radii = [r0, r0 * 0.65, r0 * 0.4];
    const start = r0 * 1.2;
    const span = Math.max(0, reach - start - radii[2]!);
    radii.forEach((r, i) => {
      const s = start + (span * i) / 2;
      circles.push({ x: root.x + dir.x * s, y: root.y + dir.y * s, r });
    });
  }
  return {
    kind: thought ? 'circles' : 'wedge',
    angle,
    length,
    root,
    base,
    tip,
    polygon: thought ? [] : [base[0], tip, base[1]],
    fill: thought ? [] : [inward(base[0]), base[0], tip, base[1], inward(base[1])],
    circles,
    baseAt: [b0, b1],
  };
}

/** The outline of a bubble placed in a box, in absolute coordinates. */
export function placedOutline(data: TextData, box: Rect): BubbleOutline {
  const outline = bubbleOutline(data.bubbleStyle, box.width, box.height, wobbleOf(data));
  const shift = (p: Point): Point => ({ x: p.x + box.x, y: p.y + box.y });
  return {
    ...outline,
    points: outline.points.map(shift),
    paths: outline.paths.map((p) => ({ ...p, d: transformPathData(p.d, shift) })),
    textArea: { ...outline.textArea, x: outline.textArea.x + box.x, y: outline.textArea.y + box.y },
  };
}

/**
 * A speech bubble's tail from tailAngle, tailLength, tailWidth and tailGap, its base on the bubble outline;
 * null when the layer has no tail, is not a speech bubble, or the target lies inside the bubble.
 * With `target` (the face centre when pinToFace) the tail points at it.
 */
export function tailPolygon(data: TextData, bubbleBox: Rect, target?: Point | null): TailGeometry | null {
  if (!data.hasTail || data.backgroundType !== 'SPEECH_BUBBLE') return null;
  const outline = placedOutline(data, bubbleBox);
  return tailOnOutline(data, outline.points, bubbleBox, data.pinToFace ? target : null);
}

/** The outline with a wedge tail spliced in between its base corners: one closed polygon to fill and stroke. */
export function spliceTail(outline: readonly Point[], tail: TailGeometry): Point[] {
  if (tail.kind !== 'wedge') return [...outline];
  const n = outline.length;
  const [b0, b1] = tail.baseAt;
  let count = (b0.edge - b1.edge + n) % n;
  if (count === 0 && b0.t < b1.t) count = n;
  const out: Point[] = [tail.base[1]];
  for (let k = 1; k <= count; k++) out.push(outline[(b1.edge + k) % n]!);
  out.push(tail.base[0], tail.tip);
  return out;
}

/** Everything a renderer needs to draw a speech bubble in its box. */
export interface BubbleShape {
  /** The box the bubble was placed in (the layer's box, in the caller's coordinates). */
  box: Rect;
  outline: BubbleOutline;
  tail: TailGeometry | null;
  /** Outline with the wedge tail spliced in (procedural styles: fill with background, stroke with border). */
  contour: Point[];
}

/** The placed outline, its tail and the combined contour of a TEXT layer's speech bubble. */
export function bubbleShape(data: TextData, bubbleBox: Rect, target?: Point | null): BubbleShape {
  const outline = placedOutline(data, bubbleBox);
  const tail =
    data.hasTail && data.backgroundType === 'SPEECH_BUBBLE'
      ? tailOnOutline(data, outline.points, bubbleBox, data.pinToFace ? target : null)
      : null;
  return { box: bubbleBox, outline, tail, contour: tail ? spliceTail(outline.points, tail) : outline.points };
}

/**
 * The tailAngle and tailLength that put a tail's drawn tip at `tip` (dragging the tip on the canvas);
 * null when the point is inside the bubble.
 */
export function tailFromTip(
  data: TextData,
  bubbleBox: Rect,
  tip: Point,
): { tailAngle: number; tailLength: number } | null {
  const outline = placedOutline(data, bubbleBox).points;
  const aimed = tailOnOutline({ ...data, tailGap: 0 }, outline, bubbleBox, tip);
  if (!aimed) return null;
  // The drawn tip stops tailGap short, so the stored length reaches past the dragged point.
  const keep = 1 - Math.min(MAX_GAP, Math.max(0, data.tailGap));
  return { tailAngle: aimed.angle, tailLength: aimed.length / keep };
}

/** Whether a point hits the bubble: inside its contour (tail included) or one of its thought circles. */
export function bubbleContains(shape: BubbleShape, p: Point): boolean {
  if (pointInPolygon(p, shape.contour)) return true;
  return (shape.tail?.circles ?? []).some((c) => Math.hypot(p.x - c.x, p.y - c.y) <= c.r);
}
