import type { LayerNode } from '@koma/editor';
import { ThumbSvg, thumbSize } from './frame.tsx';

/** A fill is its colour. */
export function FillLayerThumb({ node }: { node: LayerNode<'FILL'> }) {
  const { w, h } = thumbSize(node.transform.size);
  return (
    <ThumbSvg w={w} h={h}>
      <rect width={w} height={h} fill={node.data.color} stroke="#d1d5db" />
    </ThumbSvg>
  );
}

/** A group is an outlined square: its rows below show what it holds. */
export function GroupLayerThumb(_: { node: LayerNode<'GROUP'> }) {
  return (
    <ThumbSvg w={24} h={24}>
      <rect x={2} y={2} width={20} height={20} fill="none" stroke="#6b7280" />
    </ThumbSvg>
  );
}
