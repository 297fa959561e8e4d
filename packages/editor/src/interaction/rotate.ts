// Free rotation of images, text and poses (issue 17): a handle above the selected layer that turns it about its
// box centre, Shift for 15° steps. The geometry lives here so the screen draws the handle where the controller
// picks it up.
import type { Point } from '@koma/domain';
import type { LayerNode } from '../store/state.ts';
import { TURNING_KINDS, applyMatrix, placementOf } from '../kinds/placement.ts';
import { normalizeRotation, snapRotation } from '../commands/appearance.ts';

/** How far (screen px) the rotate handle stands off the layer's top edge, along the layer's own "up". */
export const ROTATE_HANDLE_OFFSET_PX = 28;
/** How close (screen px) a press must land to the handle's centre to take it: a fingertip's reach. */
export const ROTATE_HANDLE_HIT_PX = 16;

export function canRotate(node: LayerNode): boolean {
  return TURNING_KINDS.has(node.type) && !node.locked;
}

/** The layer's box centre on the canvas (the pivot of its rotation and flips). */
export function rotationCentre(node: LayerNode): Point {
  const { size } = node.transform;
  return applyMatrix(placementOf(node).matrix, { x: size.width / 2, y: size.height / 2 });
}

/**
 * Where the rotate handle sits (canvas units) and the top-edge midpoint its stem starts from: above the top edge
 * as the layer is turned (a flipped layer keeps the handle on the side that is up on screen, the flip's own turn).
 */
export function rotateHandle(node: LayerNode, zoom: number): { handle: Point; stem: Point } {
  const c = rotationCentre(node);
  const r = ((node.rotation ?? 0) * Math.PI) / 180;
  // "Up" in the layer's turned frame: (0, -1) rotated clockwise by r.
  const ux = Math.sin(r);
  const uy = -Math.cos(r);
  const half = node.transform.size.height / 2;
  const far = half + ROTATE_HANDLE_OFFSET_PX / zoom;
  return { handle: { x: c.x + ux * far, y: c.y + uy * far }, stem: { x: c.x + ux * half, y: c.y + uy * half } };
}

/** True when a canvas point is on a layer's rotate handle at this zoom. */
export function onRotateHandle(node: LayerNode, p: Point, zoom: number): boolean {
  if (!canRotate(node)) return false;
  const { handle } = rotateHandle(node, zoom);
  return Math.hypot(p.x - handle.x, p.y - handle.y) <= ROTATE_HANDLE_HIT_PX / zoom;
}

/**
 * The rotation (degrees, clockwise, in (-180, 180]) after dragging from `from` to `to` about `centre`, starting
 * at `start`: the layer turns by the angle the pointer swept, so taking the handle off-centre makes no jump.
 * `snap` rounds the result to 15° steps.
 */
export function draggedRotation(start: number, centre: Point, from: Point, to: Point, snap: boolean): number {
  const a0 = Math.atan2(from.y - centre.y, from.x - centre.x);
  const a1 = Math.atan2(to.y - centre.y, to.x - centre.x);
  const turned = normalizeRotation(start + ((a1 - a0) * 180) / Math.PI);
  return snap ? snapRotation(turned) : turned;
}
