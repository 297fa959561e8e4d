// Where a layer's live generation progress sits over the canvas: on the layer as it is placed, so a turned or
// flipped picture being regenerated shows its progress and preview where the picture is, not on its upright box.
import { TURNING_KINDS, type LayerNode } from '@koma/editor';
import { toScreen } from './faces/face-boxes.ts';

export interface ProcessingBox {
  /** The layer's box in screen pixels, before its turn. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** Degrees clockwise about the box centre (CSS `rotate`), as the canvas turns the layer. */
  rotation: number;
  /** The preview's mirror inside the turned box (CSS `scale`): the layer flips before it turns. */
  flipX: boolean;
  flipY: boolean;
}

export function processingBox(node: LayerNode, view: { x: number; y: number; zoom: number }): ProcessingBox {
  const t = node.transform;
  const turns = TURNING_KINDS.has(node.type);
  return {
    ...toScreen({ x: t.x, y: t.y, ...t.size }, view),
    rotation: turns ? (node.rotation ?? 0) : 0,
    flipX: turns && !!node.flipX,
    flipY: turns && !!node.flipY,
  };
}
