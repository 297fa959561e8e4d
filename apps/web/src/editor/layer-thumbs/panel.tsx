import type { LayerNode } from '@koma/editor';
import { ThumbSvg, thumbSize } from './frame.tsx';

/** The panel's polygon, solid when it has a border, dashed when it has none. */
export function PanelLayerThumb({ node }: { node: LayerNode<'PANEL'> }) {
  const { w, h } = thumbSize(node.transform.size);
  const { x, y } = node.transform;
  const points = node.data.vertices.map((v) => `${v.x - x},${v.y - y}`).join(' ');
  return (
    <ThumbSvg w={w} h={h}>
      <polygon
        points={points}
        fill="#fff"
        stroke={node.data.border ? '#111' : '#6b7280'}
        strokeWidth={2}
        strokeDasharray={node.data.border ? undefined : '3 2'}
        vectorEffect="non-scaling-stroke"
      />
    </ThumbSvg>
  );
}
