// Where the detected faces of an image layer are on the canvas: the detector's boxes are in the picture's own
// pixels (generation.md §3 face detection: bbox), the layer shows the picture stretched over its box. Shared by
// the numbered face outlines and anything pinned to a face (speech-bubble tails).
import type { FaceDetection } from '@koma/domain';

export interface FaceBox {
  /** The face's number minus one: what face enhance's `face_index` names. */
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/** The faces of a picture of `imageSize` pixels shown in `transform`, in canvas units, in detection order. */
export function faceBoxesOnCanvas(
  transform: { x: number; y: number; size: { width: number; height: number } },
  faces: readonly FaceDetection[],
  imageSize: { width: number; height: number },
): FaceBox[] {
  const sx = transform.size.width / (imageSize.width || 1);
  const sy = transform.size.height / (imageSize.height || 1);
  return faces.map((f, index) => {
    const [x0, y0, x1, y1] = f.bbox;
    return {
      index,
      x: transform.x + Math.min(x0, x1) * sx,
      y: transform.y + Math.min(y0, y1) * sy,
      width: Math.abs(x1 - x0) * sx,
      height: Math.abs(y1 - y0) * sy,
      score: f.score,
    };
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
