// Face enhance as an inpaint of a crop: the mask the engine gets (an ellipse over the face box, in the crop's
// working pixels) and the paste of the enhanced crop back into the source through the same feathered ellipse, at
// the source's own size. Only the paste guarantees that pixels away from the face keep their exact bytes: the crop
// is resampled twice (to the working size and back), and a hosted engine may re-render all of it.
import { FACE_ENHANCE_MASK_BLUR, FACE_ENHANCE_MASK_FEATHERING } from '@koma/domain';
import sharp from 'sharp';
import { featheredMask, pasteMasked } from '../../engines/masks.ts';
import type { Bbox } from '../../vision/index.ts';

export interface Ellipse {
  cx: number;
  cy: number;
  rx: number;
  ry: number;
}

/** The face's ellipse in source pixels: the box's centre, a little wider (1.1) and taller (1.2) for hair and chin. */
export function faceEllipse(bbox: Bbox): Ellipse {
  const [x0, y0, x1, y1] = bbox;
  return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, rx: ((x1 - x0) / 2) * 1.1, ry: ((y1 - y0) / 2) * 1.2 };
}

/**
 * The mask blur at the working size (spec: face-enhance mask blur 50, feathering 0.1), read as the editor reads an
 * inpaint mask's: blur plus the feathering share of half the shorter side.
 */
export function faceMaskBlur(width: number, height: number): number {
  return FACE_ENHANCE_MASK_BLUR + FACE_ENHANCE_MASK_FEATHERING * Math.min(width, height) * 0.5;
}

/** The ellipse moved into a square region of the source scaled to `width` × `height` working pixels. */
export function ellipseInRegion(e: Ellipse, region: Bbox, width: number, height: number): Ellipse {
  const [rx0, ry0, rx1, ry1] = region;
  const sx = width / (rx1 - rx0);
  const sy = height / (ry1 - ry0);
  return { cx: (e.cx - rx0) * sx, cy: (e.cy - ry0) * sy, rx: e.rx * sx, ry: e.ry * sy };
}

/** White ellipse on black, as a PNG of `width` × `height`. */
export function ellipseMask(e: Ellipse, width: number, height: number): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="${width}" height="${height}" fill="black"/>` +
    `<ellipse cx="${e.cx}" cy="${e.cy}" rx="${e.rx}" ry="${e.ry}" fill="white"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * Puts an enhanced crop (any size; it covers `region` of the source) back into the source through the ellipse,
 * feathered inwards by `blurPx` source pixels. Outside the ellipse the result is the source's bytes; returns PNG.
 */
export async function pasteFace(
  source: Buffer,
  crop: Buffer,
  region: Bbox,
  ellipse: Ellipse,
  blurPx: number,
): Promise<Buffer> {
  const meta = await sharp(source).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const [rx0, ry0, rx1, ry1] = region;
  const left = Math.round(rx0);
  const top = Math.round(ry0);
  const side = { w: Math.round(rx1 - rx0), h: Math.round(ry1 - ry0) };
  const patch = await sharp(crop).resize(side.w, side.h, { fit: 'fill' }).png().toBuffer();
  // The part of the square that lies inside the source (a face near an edge has a padded crop).
  const cut = {
    left: Math.max(0, -left),
    top: Math.max(0, -top),
    width: Math.min(side.w, width - left) - Math.max(0, -left),
    height: Math.min(side.h, height - top) - Math.max(0, -top),
  };
  const placed = await sharp(source)
    .composite([
      { input: await sharp(patch).extract(cut).png().toBuffer(), left: Math.max(0, left), top: Math.max(0, top) },
    ])
    .png()
    .toBuffer();
  const mask = await featheredMask(await ellipseMask(ellipse, width, height), width, height, blurPx);
  return pasteMasked(source, placed, mask);
}
