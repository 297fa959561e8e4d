// Where the detected faces of an image layer are on the canvas: the detector's boxes are in the picture's own
// pixels (generation.md §3 face detection: bbox), the layer shows the picture stretched over its box. Shared by
// the numbered face outlines and anything pinned to a face (speech-bubble tails).
import type { FaceDetection } from '@koma/domain';
import { boxOfPoints, pictureToCanvas, type LayerNode } from '@koma/editor';

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
  const toCanvas = pictureToCanvas(layer, imageSize);
  return faces.map((f, index) => {
    const [x0, y0, x1, y1] = f.bbox;
    const corners = [
      { x: x0, y: y0 },
      { x: x1, y: y0 },
      { x: x1, y: y1 },
      { x: x0, y: y1 },
    ];
    return { index, ...boxOfPoints(corners.map(toCanvas)), score: f.score };
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
