import type { FaceDetection, Point } from '@koma/domain';
import type { DocState, LayerNode } from '../store/state.ts';
import { pictureToCanvas } from '../kinds/placement.ts';

/**
 * The canvas point a pinned tail aims at: the centre of the chosen face of the target image's shown variation,
 * mapped from the image's pixels to where the layer is drawn. Null when the pin points at nothing (no such layer,
 * variation or face), in which case the tail keeps its own angle.
 */
export function pinnedFaceCentre(doc: DocState, text: LayerNode<'TEXT'>): Point | null {
  const d = text.data;
  if (!d.pinToFace || d.tailTargetLayerId === null || d.tailTargetFaceIdx === null) return null;
  const image = doc.layers[d.tailTargetLayerId];
  if (image?.type !== 'IMAGE') return null;
  const variation = image.data.variations[image.data.variationsIdx];
  const face = variation ? image.data.faceStore[variation.id]?.[d.tailTargetFaceIdx] : undefined;
  if (!face) return null;
  const [x0, y0, x1, y1] = face.bbox;
  // Through the layer's placement: a flipped or turned picture shows the face elsewhere than its upright box would.
  return pictureToCanvas(image, image.originalSize)({ x: (x0 + x1) / 2, y: (y0 + y1) / 2 });
}

/** An image a tail can be pinned to, with the faces found in its shown picture. */
export interface PinnableFaces {
  image: LayerNode<'IMAGE'>;
  faces: readonly FaceDetection[];
}

/**
 * The images beside a text layer (same parent) whose shown picture has detected faces, in layer order: what the
 * tail menu lists ("image · face n") and what the canvas outlines, numbered alike, while the bubble is selected.
 */
export function pinnableFaces(doc: DocState, text: LayerNode<'TEXT'>): PinnableFaces[] {
  const siblings = doc.layers[text.parent ?? '']?.children ?? [];
  return siblings.flatMap((id) => {
    const image = doc.layers[id];
    if (image?.type !== 'IMAGE') return [];
    const variation = image.data.variations[image.data.variationsIdx];
    const faces = variation ? (image.data.faceStore[variation.id] ?? []) : [];
    return faces.length > 0 ? [{ image, faces }] : [];
  });
}
