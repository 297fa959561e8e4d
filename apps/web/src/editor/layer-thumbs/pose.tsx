import { OPENPOSE_COLORS, OPENPOSE_LIMBS } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { ThumbSvg, thumbSize } from './frame.tsx';

/** The first body's limbs in OpenPose colours. */
export function PoseLayerThumb({ node }: { node: LayerNode<'POSE'> }) {
  const { w, h } = thumbSize(node.transform.size);
  const row = node.data.body.subset[0];
  const at = (joint: number) => {
    const index = row?.[joint];
    const c = index === undefined || index < 0 ? undefined : node.data.body.candidate[index];
    return c ? { x: c[0] * w, y: c[1] * h } : null;
  };
  return (
    <ThumbSvg w={w} h={h}>
      {OPENPOSE_LIMBS.map(([a, b], i) => {
        const p = at(a);
        const q = at(b);
        return p && q ? (
          <line
            key={i}
            x1={p.x}
            y1={p.y}
            x2={q.x}
            y2={q.y}
            stroke={OPENPOSE_COLORS[i % OPENPOSE_COLORS.length]}
            strokeWidth={2.5}
            vectorEffect="non-scaling-stroke"
          />
        ) : null;
      })}
    </ThumbSvg>
  );
}
