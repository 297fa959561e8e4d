import { useEffect, useState } from 'react';
import type { FaceDetection } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { useDoc } from '../../editor/hooks.ts';
import type { EditorSession } from '../../editor/session.ts';
import { useT } from '../../i18n/index.ts';
import { faceBoxesOnCanvas, toScreen } from './face-boxes.ts';
import '../i18n-jobs.ts';
import './faces.css';

/** The pixel size of a stored picture, read from the picture itself (the canvas has it cached already). */
export function useImageSize(imageId: string | undefined): { width: number; height: number } | null {
  const [size, setSize] = useState<{ id: string; width: number; height: number } | null>(null);
  useEffect(() => {
    if (!imageId) return;
    let live = true;
    const img = new Image();
    img.onload = () => {
      if (live) setSize({ id: imageId, width: img.naturalWidth, height: img.naturalHeight });
    };
    img.src = `/api/images/${encodeURIComponent(imageId)}`;
    return () => {
      live = false;
    };
  }, [imageId]);
  return size && size.id === imageId ? size : null;
}

/**
 * Numbered outlines of the faces of an image layer, over the canvas (inside a positioned overlay). Reusable:
 * `onPick` makes each outline a button (face enhance picks a face, a speech-bubble tail pins to one).
 */
export function FaceOutlines({
  session,
  layer,
  faces,
  onPick,
}: {
  session: EditorSession;
  layer: LayerNode<'IMAGE'>;
  faces: readonly FaceDetection[];
  onPick?: (index: number) => void;
}) {
  const t = useT();
  useDoc(session); // follows the view (it lives in the document)
  const variation = layer.data.variations[layer.data.variationsIdx]?.id;
  const size = useImageSize(variation) ?? layer.originalSize;
  const view = session.view();
  return (
    <div className="face-outlines" data-testid="face-outlines" data-layer-id={layer.id}>
      {faceBoxesOnCanvas(layer, faces, size).map((box) => {
        const style = toScreen(box, view);
        const label = t('generation.facesFound.label', { n: box.index + 1 });
        return onPick ? (
          <button
            key={box.index}
            type="button"
            className="face-outline face-outline--pick"
            style={style}
            aria-label={label}
            data-testid={`face-outline-${box.index}`}
            onClick={() => onPick(box.index)}
          >
            <span className="face-outline__number">{box.index + 1}</span>
          </button>
        ) : (
          <div key={box.index} className="face-outline" style={style} data-testid={`face-outline-${box.index}`}>
            <span className="face-outline__number" aria-label={label}>
              {box.index + 1}
            </span>
          </div>
        );
      })}
    </div>
  );
}
