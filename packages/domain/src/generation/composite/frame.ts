// The generation frame of regional and brush-based (sketch-map) generation: the area of the canvas the picture
// will cover, and its size in pixels as the request sends it (docs/decisions/generation.md, "Regions and sketch map").
import type { Point } from '../../document/geometry.ts';

/** Request sides of regional and brush-based generation (generation.md §5): 256 to 2048, whole multiples of 8. */
export const COMPOSITE_MIN_SIDE = 256;
export const COMPOSITE_MAX_SIDE = 2048;
export const COMPOSITE_SIDE_MULTIPLE = 8;

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PixelSize {
  width: number;
  height: number;
}

export interface GenerationFrame {
  /** Where the picture lands, in canvas units. */
  box: Box;
  /** The request's width and height. */
  pixels: PixelSize;
  /** The panel the picture is clipped to, or null on the open canvas. */
  panelId: string | null;
}

/** One request side: rounded down to a multiple of 8, then kept within 256 to 2048. */
export function compositeSide(value: number): number {
  if (!Number.isFinite(value)) return COMPOSITE_MIN_SIDE;
  const floored = Math.floor(value / COMPOSITE_SIDE_MULTIPLE) * COMPOSITE_SIDE_MULTIPLE;
  return Math.min(COMPOSITE_MAX_SIDE, Math.max(COMPOSITE_MIN_SIDE, floored));
}

/** On the open canvas: the chosen image size, centred on a point (where txt2img would put it). */
export function frameAt(centre: Point, dimension: PixelSize): GenerationFrame {
  const pixels = { width: compositeSide(dimension.width), height: compositeSide(dimension.height) };
  return {
    box: { x: centre.x - pixels.width / 2, y: centre.y - pixels.height / 2, ...pixels },
    pixels,
    panelId: null,
  };
}

/**
 * Over a panel: the picture takes the panel's proportions at about the chosen image size's pixel count, and covers
 * the panel's bounding box centred on it (as generating into a panel does), so the frame is exactly the picture.
 */
export function frameOver(panel: Box, dimension: PixelSize, panelId: string | null): GenerationFrame {
  if (!(panel.width > 0 && panel.height > 0)) {
    return { ...frameAt({ x: panel.x + panel.width / 2, y: panel.y + panel.height / 2 }, dimension), panelId };
  }
  const k = Math.sqrt((dimension.width * dimension.height) / (panel.width * panel.height));
  const pixels = { width: compositeSide(panel.width * k), height: compositeSide(panel.height * k) };
  const scale = Math.max(panel.width / pixels.width, panel.height / pixels.height);
  const width = pixels.width * scale;
  const height = pixels.height * scale;
  return {
    box: { x: panel.x + (panel.width - width) / 2, y: panel.y + (panel.height - height) / 2, width, height },
    pixels,
    panelId,
  };
}

/** A canvas point as fractions of the frame (not clamped). */
export function toFrame(p: Point, box: Box): Point {
  return { x: (p.x - box.x) / box.width, y: (p.y - box.y) / box.height };
}
