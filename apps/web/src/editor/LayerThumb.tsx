import type { LayerNode } from '@koma/editor';
import { thumbOf } from './layer-thumbs/registry.ts';

/**
 * A small picture of a layer for its row in the layer list. Images draw the shown variation from the canvas's decoded
 * copy (the server's 256 px thumbnail when none is held or coming); the other kinds are drawn from their own data as SVG (cheap to redraw on every edit, no canvas). Each
 * kind's picture lives in layer-thumbs/.
 */
export function LayerThumb({ node }: { node: LayerNode }) {
  const Thumb = thumbOf(node);
  return <Thumb node={node} />;
}
