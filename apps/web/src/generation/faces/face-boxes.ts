// Where the detected faces of an image layer are on the canvas: the detector's boxes are in the picture's own
// pixels (generation.md §3 face detection: bbox), the layer shows the picture stretched over its box. Shared by
// the numbered face outlines and anything pinned to a face (speech-bubble tails).
import type { FaceDetection } from '@koma/domain';
import { applyMatrix, placementOf, type LayerNode } from '@koma/editor';

export interface FaceBox {
  /** The face's number minus one: what face enhance's `face_index` names. */
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/**
 * The faces of a picture of `imageSize` pixels shown by `layer`, in canvas units, in detection order: each the
 * upright box that holds the face as the layer places it (flipped or turned pictures show their faces elsewhere
 * than their upright box would).
 */
export function faceBoxesOnCanvas(
  layer: LayerNode,
  faces: readonly FaceDetection[],
  imageSize: { width: number; height: number },
): FaceBox[] {
  const { size } = layer.transform;
  const sx = size.width / (imageSize.width || 1);
  const sy = size.height / (imageSize.height || 1);
  const { matrix } = placementOf(layer);
  return faces.map((f, index) => {
    const [x0, y0, x1, y1] = f.bbox;
    const corners = [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
    ].map(([x, y]) => applyMatrix(matrix, { x: x! * sx, y: y! * sy }));
    const xs = corners.map((c) => c.x);
    const ys = corners.map((c) => c.y);
    const [left, top] = [Math.min(...xs), Math.min(...ys)];
    return { index, x: left, y: top, width: Math.max(...xs) - left, height: Math.max(...ys) - top, score: f.score };
  });
}

/** A canvas box in screen pixels for a view (pan and zoom). */
export function toScreen(
  box: { x: number; y: number; width: number; height: number },
  view: { x: number; y: number; zoom: number },
): { left: number; top: number; width: number; height: number } {
  return {
    left: box.x * view.zoom + view.x,
    top: box.y * view.zoom + view.y,
    width: box.width * view.zoom,
    height: box.height * view.zoom,
  };
}
