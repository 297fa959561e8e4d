import type { Point } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { applyMatrix, invertMatrix, placedBounds, placementOf, type Matrix } from '../kinds/placement.ts';
import { pinnedFaceCentre } from './pin.ts';
import { clockwise, pointInPolygon } from './polygon.ts';
import { bubbleShape } from './tail.ts';

/** What a linked bubble draws besides itself: where its partner is, and the neck joining the two when apart. */
export interface BubbleLink {
  /** The partner's contour (tail included), in this bubble's own units: this bubble's ink stays outside it. */
  partner: Point[];
  /** The band joining the two when they do not overlap, in this bubble's units; null when they overlap. */
  neck: Point[] | null;
  /** Whether this bubble paints the neck (one of the pair does, so its edges are not drawn twice). */
  drawsNeck: boolean;
}

/** The speech bubble a TEXT layer is linked to, when both are speech bubbles and the partner links back. */
export function linkedPartner(doc: DocState, node: LayerNode<'TEXT'>): LayerNode<'TEXT'> | null {
  const id = node.data.linkedBubbleId;
  if (id === null || id === node.id || node.data.backgroundType !== 'SPEECH_BUBBLE') return null;
  const partner = doc.layers[id];
  if (partner?.type !== 'TEXT' || partner.data.linkedBubbleId !== node.id) return null;
  return partner.data.backgroundType === 'SPEECH_BUBBLE' ? partner : null;
}

/** A bubble's contour (tail aimed as drawn) in its own units. */
function ownContour(doc: DocState, node: LayerNode<'TEXT'>): Point[] {
  const { width, height } = node.transform.size;
  const face = pinnedFaceCentre(doc, node);
  const target = face ? { x: face.x - node.transform.x, y: face.y - node.transform.y } : null;
  return bubbleShape(node.data, { x: 0, y: 0, width, height }, target).contour;
}

/** The neck's half width, as a share of the smaller bubble's shorter side. */
export const NECK_HALF_WIDTH = 0.14;

/**
 * A band from one centre to the other, narrowest half-way (a waist of 70 %), as manga draws a joined pair that
 * stands apart. Its ends lie inside the bubbles, so only its sides between them show.
 */
export function neckBetween(a: Point, b: Point, halfWidth: number): Point[] {
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const nx = -(b.y - a.y) / length;
  const ny = (b.x - a.x) / length;
  const at = (t: number, side: number, w: number): Point => ({
    x: a.x + (b.x - a.x) * t + nx * side * w,
    y: a.y + (b.y - a.y) * t + ny * side * w,
  });
  const steps = [0, 0.25, 0.5, 0.75, 1];
  const width = (t: number) => halfWidth * (1 - 0.3 * Math.sin(Math.PI * t));
  return clockwise([...steps.map((t) => at(t, 1, width(t))), ...[...steps].reverse().map((t) => at(t, -1, width(t)))]);
}

/**
 * How a linked bubble is drawn as one outline with its partner: its ink (stroke, shadow, rings) is kept outside the
 * partner's contour and the partner's outside its own, so the union has one stroke and no seam; apart, a neck joins
 * them. Null when the layer is not linked. Works in each layer's own units, so turned or flipped bubbles join too.
 */
export function bubbleLink(doc: DocState, node: LayerNode<'TEXT'>): BubbleLink | null {
  const partner = linkedPartner(doc, node);
  if (!partner) return null;
  const own = ownContour(doc, node);
  const toOwn: Matrix = multiply(invertMatrix(placementOf(node).matrix), placementOf(partner).matrix);
  const theirs = clockwise(ownContour(doc, partner).map((p) => applyMatrix(toOwn, p)));
  const overlap = own.some((p) => pointInPolygon(p, theirs)) || theirs.some((p) => pointInPolygon(p, own));
  let neck: Point[] | null = null;
  if (!overlap) {
    const mine = placedBounds(placementOf(node));
    const other = placedBounds(placementOf(partner));
    const centre = (b: { x: number; y: number; width: number; height: number }) =>
      applyMatrix(invertMatrix(placementOf(node).matrix), { x: b.x + b.width / 2, y: b.y + b.height / 2 });
    const side = Math.min(mine.width, mine.height, other.width, other.height);
    neck = neckBetween(centre(mine), centre(other), side * NECK_HALF_WIDTH);
  }
  return { partner: theirs, neck, drawsNeck: node.id < partner.id };
}

/** a · b: apply b, then a. */
function multiply(a: Matrix, b: Matrix): Matrix {
  return [
    a[0] * b[0] + a[2] * b[1],
    a[1] * b[0] + a[3] * b[1],
    a[0] * b[2] + a[2] * b[3],
    a[1] * b[2] + a[3] * b[3],
    a[0] * b[4] + a[2] * b[5] + a[4],
    a[1] * b[4] + a[3] * b[5] + a[5],
  ];
}
