import { useState } from 'react';
import type { LayerNode } from '@koma/editor';
import { localImageUrl } from '../../api/imageLoader.ts';
import { ThumbSvg, thumbSize } from './frame.tsx';

/** Images use the server's 256 px thumbnail of the shown variation (or the local copy while it uploads). */
export function ImageLayerThumb({ node }: { node: LayerNode<'IMAGE'> }) {
  const variation = node.data.variations[node.data.variationsIdx];
  const { w, h } = thumbSize(node.transform.size);
  if (!variation) {
    return (
      <ThumbSvg w={w} h={h}>
        <rect width={w} height={h} fill="#e5e7eb" />
      </ThumbSvg>
    );
  }
  return <StoredThumb id={variation.id} />;
}

function StoredThumb({ id }: { id: string }) {
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
