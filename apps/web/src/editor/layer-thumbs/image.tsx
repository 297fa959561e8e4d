import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { LayerNode } from '@koma/editor';
import { localImageUrl } from '../../api/imageLoader.ts';
import { sharedImageStore } from '../../canvas/images.ts';
import { ThumbSvg, thumbSize } from './frame.tsx';

/** The row's thumbnail is 32 CSS px square (layer-list.css). */
const THUMB_CSS_PX = 32;
/** How long a row waits for the canvas to ask for its picture before asking the server for a thumbnail. */
const SERVER_THUMB_AFTER_MS = 100;

/**
 * Images draw the shown variation from the copy the canvas decoded for the open page (one request fewer per picture,
 * on the connections the page's own pictures wait for; docs/how-it-works/chapter-memory.md), or use the server's 256 px
 * thumbnail (or the local copy while it uploads) when nothing of it is decoded or coming.
 */
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
  return <PictureThumb key={variation.id} id={variation.id} />;
}

function PictureThumb({ id }: { id: string }) {
  const store = sharedImageStore();
  const side = THUMB_CSS_PX * Math.min(3, Math.max(1, globalThis.devicePixelRatio || 1));
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  // The server's thumbnail, once nothing decoded is held or coming: off-page, failed, or not drawn by the view.
  const [fromServer, setFromServer] = useState(false);
  // The copy last drawn stays shown if the store lets it go (the drawn canvas keeps its pixels).
  const last = useRef<ImageBitmap | HTMLCanvasElement | null>(null);
  const copy = store.peek(id, side) ?? last.current;
  last.current = copy;
  useEffect(() => {
    // Checked after the render is committed, and once more a moment later: the canvas asks for the open page's
    // pictures as it syncs with the change that rendered this row, or, when the editor opens, as it is made (its
    // effect may run after this one), so a picture about to be decoded is not fetched a second time as a thumbnail.
    let retry: ReturnType<typeof setTimeout> | undefined;
    const check = (last: boolean) => {
      if (store.peek(id, side)) redraw();
      else if (store.expecting(id)) return;
      else if (last) setFromServer(true);
      else retry = setTimeout(() => check(true), SERVER_THUMB_AFTER_MS);
    };
    check(false);
    const stop = store.onLoad((loaded) => {
      if (loaded === id) check(true);
    });
    return () => {
      stop();
      clearTimeout(retry);
    };
  }, [store, id, side]);
  if (copy) return <CopyThumb image={copy} side={side} />;
  if (fromServer) return <ServerThumb id={id} />;
  return <span className="layer-row__thumb-wait" aria-hidden="true" />;
}

/** The decoded copy cropped to the centre square and flattened on white, as the server's thumbnail is made. */
function CopyThumb({ image, side }: { image: ImageBitmap | HTMLCanvasElement; side: number }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const px = Math.round(side);
  useLayoutEffect(() => {
    const context = canvas.current?.getContext('2d');
    // A closed bitmap (an export let go of a whole picture) has no size: keep what was drawn.
    if (!context || image.width === 0 || image.height === 0) return;
    const crop = Math.min(image.width, image.height);
    context.fillStyle = '#fff';
    context.fillRect(0, 0, px, px);
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, (image.width - crop) / 2, (image.height - crop) / 2, crop, crop, 0, 0, px, px);
  }, [image, px]);
  return <canvas ref={canvas} width={px} height={px} data-testid="layer-thumb-copy" aria-hidden="true" />;
}

function ServerThumb({ id }: { id: string }) {
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
