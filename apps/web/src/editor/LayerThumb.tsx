import { useState } from 'react';
import { OPENPOSE_COLORS, OPENPOSE_LIMBS } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { localImageUrl } from '../api/imageLoader.ts';

/**
 * A small picture of a layer for its row in the layer list. Images use the server's 256 px thumbnail of the shown
 * variation; the other kinds are drawn from their own data as SVG (cheap to redraw on every edit, no canvas).
 */
export function LayerThumb({ node }: { node: LayerNode }) {
  const { width, height } = node.transform.size;
  const w = Math.max(width, 1);
  const h = Math.max(height, 1);
  const svg = (children: React.ReactNode, viewBox = `0 0 ${w} ${h}`) => (
    <svg viewBox={viewBox} preserveAspectRatio="xMidYMid meet" aria-hidden="true">
      {children}
    </svg>
  );
  switch (node.type) {
    case 'IMAGE': {
      const variation = node.data.variations[node.data.variationsIdx];
      return variation ? <ImageThumb id={variation.id} /> : svg(<rect width={w} height={h} fill="#e5e7eb" />);
    }
    case 'PANEL': {
      const { x, y } = node.transform;
      const points = node.data.vertices.map((v) => `${v.x - x},${v.y - y}`).join(' ');
      return svg(
        <polygon
          points={points}
          fill="#fff"
          stroke={node.data.border ? '#111' : '#6b7280'}
          strokeWidth={2}
          strokeDasharray={node.data.border ? undefined : '3 2'}
          vectorEffect="non-scaling-stroke"
        />,
      );
    }
    case 'TEXT': {
      const bubble = node.data.backgroundType;
      return svg(
        <>
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
            <rect
              width={w}
              height={h}
              fill={node.data.backgroundColor}
              stroke="#111"
              vectorEffect="non-scaling-stroke"
            />
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
        </>,
      );
    }
    case 'POSE': {
      const row = node.data.body.subset[0];
      const at = (joint: number) => {
        const index = row?.[joint];
        const c = index === undefined || index < 0 ? undefined : node.data.body.candidate[index];
        return c ? { x: c[0] * w, y: c[1] * h } : null;
      };
      return svg(
        OPENPOSE_LIMBS.map(([a, b], i) => {
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
        }),
      );
    }
    case 'SKETCH':
      return svg(
        node.data.brushes.flatMap((brush, b) =>
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
        ),
      );
    case 'FILL':
      return svg(<rect width={w} height={h} fill={node.data.color} stroke="#d1d5db" />);
    default:
      return svg(<rect x={2} y={2} width={20} height={20} fill="none" stroke="#6b7280" />, '0 0 24 24');
  }
}

function ImageThumb({ id }: { id: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <svg viewBox="0 0 24 24" aria-hidden="true">
        <rect x={2} y={4} width={20} height={16} fill="#f3f4f6" stroke="#9ca3af" />
        <path d="M4 18l5-6 4 4 3-3 4 5" fill="none" stroke="#9ca3af" />
      </svg>
    );
  }
  const src = localImageUrl(id) ?? `/api/images/${encodeURIComponent(id)}/thumbnail`;
  return <img src={src} alt="" loading="lazy" decoding="async" onError={() => setFailed(true)} />;
}
