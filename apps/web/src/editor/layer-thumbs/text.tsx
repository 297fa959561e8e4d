import type { LayerNode } from '@koma/editor';
import { ThumbSvg, thumbSize } from './frame.tsx';

/** The bubble's outline (ellipse or box) and the first two characters of the text. */
export function TextLayerThumb({ node }: { node: LayerNode<'TEXT'> }) {
  const { w, h } = thumbSize(node.transform.size);
  const bubble = node.data.backgroundType;
  return (
    <ThumbSvg w={w} h={h}>
      {bubble === 'SPEECH_BUBBLE' && (
        <ellipse
          cx={w / 2}
          cy={h / 2}
          rx={w / 2 - 1}
          ry={h / 2 - 1}
          fill={node.data.backgroundColor}
          stroke="#111"
          vectorEffect="non-scaling-stroke"
        />
      )}
      {bubble === 'RECTANGLE' && (
        <rect width={w} height={h} fill={node.data.backgroundColor} stroke="#111" vectorEffect="non-scaling-stroke" />
      )}
      <text
        x={w / 2}
        y={h / 2}
        fontSize={Math.min(w, h) * 0.5}
        textAnchor="middle"
        dominantBaseline="central"
        fill={node.data.fontColor}
      >
        {node.data.text.trim().slice(0, 2) || 'T'}
      </text>
    </ThumbSvg>
  );
}
