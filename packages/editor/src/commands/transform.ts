import { LAYER_SCALE_STEP } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { kindOf } from '../kinds/lookup.ts';
import { applyMatrix, placementOf } from '../kinds/placement.ts';
import { CommandError, defineCommand } from './command.ts';
import { getLayer } from './helpers.ts';

/** The smallest side a resize may leave. */
export const MIN_LAYER_SIZE = 1;

export type Corner = 'top-left' | 'top-right' | 'bottom-right' | 'bottom-left';

function translate(node: LayerNode, dx: number, dy: number): void {
  node.transform.x += dx;
  node.transform.y += dy;
  kindOf(node).translate?.(node, dx, dy);
}

/**
 * Moves layers by a delta. Locked layers stay put (the command fails if nothing could move); a kind may limit the
 * move (a panel stays inside its page) and carry the layers clipped to it (a panel carries its pictures).
 */
export const moveLayers = defineCommand(
  'Move layer',
  (doc: DocState, args: { ids: string[]; dx: number; dy: number }) => {
    if (!Number.isFinite(args.dx) || !Number.isFinite(args.dy)) throw new CommandError('The move must be finite');
    const movable = args.ids.map((id) => getLayer(doc, id)).filter((n) => !n.locked && n.parent !== null);
    if (movable.length === 0) throw new CommandError('Layer is locked');
    const moved = new Set<string>();
    for (const node of movable) {
      if (moved.has(node.id)) continue;
      let { dx, dy } = args;
      const kind = kindOf(node);
      if (kind.limitMove) ({ x: dx, y: dy } = kind.limitMove(doc, node, dx, dy));
      translate(node, dx, dy);
      moved.add(node.id);
      if (kind.carriesClipped) {
        for (const clippedId of node.clippedLayers) {
          const clipped = getLayer(doc, clippedId);
          if (!clipped.locked && !moved.has(clippedId) && !args.ids.includes(clippedId)) {
            translate(clipped, dx, dy);
            moved.add(clippedId);
          }
        }
      }
    }
  },
);

/** Places a layer into a box; its kind may say what that means (panels scale their vertices). */
function applyBox(doc: DocState, node: LayerNode, x: number, y: number, width: number, height: number): void {
  if (width < MIN_LAYER_SIZE || height < MIN_LAYER_SIZE) throw new CommandError('The layer would be too small');
  const kind = kindOf(node);
  if (kind.placeBox) kind.placeBox(doc, node, { x, y, width, height });
  else node.transform = { x, y, size: { width, height } };
}

export interface ResizeArgs {
  id: string;
  corner: Corner;
  /** How far the corner moved, in canvas units. */
  dx: number;
  dy: number;
  keepAspect?: boolean;
}

/**
 * Resizes a layer by dragging one corner; the opposite corner stays where it is on the canvas. A turned or flipped
 * layer resizes in its own frame (as Figma and Konva's Transformer do): corners are named in that frame (hit.ts
 * cornerAt), so the canvas delta is taken into it through the inverse of the layer's rotation and flips, the box
 * grows there, and the new centre is placed so that the opposite corner keeps its canvas position.
 */
export const resizeLayer = defineCommand('Resize layer', (doc: DocState, args: ResizeArgs) => {
  const node = getLayer(doc, args.id);
  if (node.locked) throw new CommandError('Layer is locked');
  if (!Number.isFinite(args.dx) || !Number.isFinite(args.dy)) throw new CommandError('The resize must be finite');
  const { x, y, size } = node.transform;
  const left = args.corner === 'top-left' || args.corner === 'bottom-left';
  const top = args.corner === 'top-left' || args.corner === 'top-right';
  const m = placementOf(node).matrix;
  const [a, b, c, d] = m;
  const upright = a === 1 && b === 0 && c === 0 && d === 1;
  // The delta in the layer's own units: the inverse of the rotation-and-flip part (orthonormal, so its transpose).
  const dx = upright ? args.dx : a * args.dx + b * args.dy;
  const dy = upright ? args.dy : c * args.dx + d * args.dy;
  let width = size.width + (left ? -dx : dx);
  let height = size.height + (top ? -dy : dy);
  if (args.keepAspect && size.width > 0 && size.height > 0) {
    // The side that scales more leads and keeps its exact length (a snapped edge stays on its line); the other
    // follows it.
    if (width / size.width >= height / size.height) height = (size.height * width) / size.width;
    else width = (size.width * height) / size.height;
  }
  width = Math.max(width, MIN_LAYER_SIZE);
  height = Math.max(height, MIN_LAYER_SIZE);
  if (upright) {
    applyBox(doc, node, left ? x + size.width - width : x, top ? y + size.height - height : y, width, height);
    return;
  }
  // The opposite corner, in the old box and in the new one (both in layer units), and where it is on the canvas.
  const pinned = applyMatrix(m, { x: left ? size.width : 0, y: top ? size.height : 0 });
  const ox = (left ? width : 0) - width / 2;
  const oy = (top ? height : 0) - height / 2;
  // The turn keeps its linear part across a resize, so centre = pinned − L·(anchor − half size).
  const cx = pinned.x - (a * ox + c * oy);
  const cy = pinned.y - (b * ox + d * oy);
  applyBox(doc, node, cx - width / 2, cy - height / 2, width, height);
});

/** Grows (+1) or shrinks (-1) a layer by 10 % about its centre (Ctrl+= and Ctrl+-). */
export const scaleLayer = defineCommand('Scale layer', (doc: DocState, args: { id: string; direction: 1 | -1 }) => {
  const node = getLayer(doc, args.id);
  if (node.locked) throw new CommandError('Layer is locked');
  const factor = 1 + args.direction * LAYER_SCALE_STEP;
  const { x, y, size } = node.transform;
  const width = size.width * factor;
  const height = size.height * factor;
  applyBox(doc, node, x + (size.width - width) / 2, y + (size.height - height) / 2, width, height);
});
