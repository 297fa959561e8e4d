import { LAYER_SCALE_STEP, boundsOf, type Point, type Size } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { CommandError, defineCommand } from './command.ts';
import { getLayer, pageBoundsFor, rootOf } from './helpers.ts';
import { setVertices } from './panel-helpers.ts';

/** The smallest side a resize may leave. */
export const MIN_LAYER_SIZE = 1;

export type Corner = 'top-left' | 'top-right' | 'bottom-right' | 'bottom-left';

function clampPanelDelta(node: LayerNode<'PANEL'>, dx: number, dy: number, page: Size | null): Point {
  if (!page) return { x: dx, y: dy };
  const box = boundsOf(node.data.vertices);
  return {
    x: Math.min(Math.max(dx, -box.x), page.width - box.x - box.width),
    y: Math.min(Math.max(dy, -box.y), page.height - box.y - box.height),
  };
}

function translate(node: LayerNode, dx: number, dy: number): void {
  node.transform.x += dx;
  node.transform.y += dy;
  if (node.type === 'PANEL')
    setVertices(
      node,
      node.data.vertices.map((p) => ({ x: p.x + dx, y: p.y + dy })),
    );
}

/**
 * Moves layers by a delta. Locked layers stay put (the command fails if nothing could move); a panel carries the
 * layers clipped to it and stays inside its page.
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
      if (node.type === 'PANEL')
        ({ x: dx, y: dy } = clampPanelDelta(node, dx, dy, pageBoundsFor(doc, rootOf(doc, node.id))));
      translate(node, dx, dy);
      moved.add(node.id);
      if (node.type === 'PANEL') {
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

/** Places a layer's transform from a box; panels scale their vertices into the new box. */
function applyBox(doc: DocState, node: LayerNode, x: number, y: number, width: number, height: number): void {
  if (width < MIN_LAYER_SIZE || height < MIN_LAYER_SIZE) throw new CommandError('The layer would be too small');
  if (node.type === 'PANEL') {
    const page = pageBoundsFor(doc, rootOf(doc, node.id));
    if (page && (x < -1e-6 || y < -1e-6 || x + width > page.width + 1e-6 || y + height > page.height + 1e-6)) {
      throw new CommandError('The panel must stay inside the page');
    }
    const box = boundsOf(node.data.vertices);
    const sx = width / box.width;
    const sy = height / box.height;
    setVertices(
      node,
      node.data.vertices.map((p) => ({ x: x + (p.x - box.x) * sx, y: y + (p.y - box.y) * sy })),
    );
  } else node.transform = { x, y, size: { width, height } };
}

export interface ResizeArgs {
  id: string;
  corner: Corner;
  /** How far the corner moved, in canvas units. */
  dx: number;
  dy: number;
  keepAspect?: boolean;
}

/** Resizes a layer by dragging one corner; the opposite corner stays where it is. */
export const resizeLayer = defineCommand('Resize layer', (doc: DocState, args: ResizeArgs) => {
  const node = getLayer(doc, args.id);
  if (node.locked) throw new CommandError('Layer is locked');
  if (!Number.isFinite(args.dx) || !Number.isFinite(args.dy)) throw new CommandError('The resize must be finite');
  const { x, y, size } = node.transform;
  const left = args.corner === 'top-left' || args.corner === 'bottom-left';
  const top = args.corner === 'top-left' || args.corner === 'top-right';
  let width = size.width + (left ? -args.dx : args.dx);
  let height = size.height + (top ? -args.dy : args.dy);
  if (args.keepAspect && size.width > 0 && size.height > 0) {
    const scale = Math.max(width / size.width, height / size.height);
    width = size.width * scale;
    height = size.height * scale;
  }
  width = Math.max(width, MIN_LAYER_SIZE);
  height = Math.max(height, MIN_LAYER_SIZE);
  applyBox(doc, node, left ? x + size.width - width : x, top ? y + size.height - height : y, width, height);
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
