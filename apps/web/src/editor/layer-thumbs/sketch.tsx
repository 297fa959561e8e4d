import type { LayerNode } from '@koma/editor';
import { ThumbSvg, thumbSize } from './frame.tsx';

/** Every stroke of every brush; erasing strokes in white. */
export function SketchLayerThumb({ node }: { node: LayerNode<'SKETCH'> }) {
  const { w, h } = thumbSize(node.transform.size);
  return (
    <ThumbSvg w={w} h={h}>
      {node.data.brushes.flatMap((brush, b) =>
        brush.strokes.map((stroke, s) => (
          <polyline
            key={`${b}-${s}`}
            points={stroke.points.join(' ')}
            fill="none"
            stroke={stroke.erase ? '#fff' : brush.color}
            strokeWidth={Math.max(stroke.radius, w / 40)}
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        )),
      )}
    </ThumbSvg>
  );
}
