import sharp from 'sharp';
import type { Bbox } from './boxes.ts';
import { VisionInputError } from './errors.ts';
import { orientedSize } from './input.ts';

/** Spec §9: face thumbnails are 512×512, face-enhance crops 1024×1024. */
export type FaceCropSize = 512 | 1024;

/** How much context around the detected box goes into the crop (the box alone cuts off hair and chin). */
const CONTEXT = 1.5;

export interface FaceCrop {
  /** PNG of size×size. */
  image: Buffer;
  /** The square region of the source that was cut, in source pixels (may extend past the edges: padded). */
  region: Bbox;
}

/**
 * Cuts a square around a face box, with context, and resizes it to `size`. Parts of the square outside the
 * image are transparent, so the enhanced crop can be pasted back at `region` without moving the face.
 */
export async function cropFace(image: Buffer, bbox: Bbox, size: FaceCropSize): Promise<FaceCrop> {
  if (size !== 512 && size !== 1024) throw new VisionInputError('BAD_ARGUMENT', 'Face crop size must be 512 or 1024.');
  const [x0, y0, x1, y1] = bbox;
  if (!bbox.every(Number.isFinite) || x1 <= x0 || y1 <= y0) {
    throw new VisionInputError('BAD_ARGUMENT', `Invalid face box [${bbox.join(', ')}].`);
  }
  const base = sharp(image).rotate();
  const { width: w, height: h } = orientedSize(await sharp(image).metadata());
  if (x0 >= w || y0 >= h || x1 <= 0 || y1 <= 0)
    throw new VisionInputError('BAD_ARGUMENT', 'The face box lies outside the image.');
  const side = Math.max(1, Math.round(Math.max(x1 - x0, y1 - y0) * CONTEXT));
  const left = Math.round((x0 + x1) / 2 - side / 2);
  const top = Math.round((y0 + y1) / 2 - side / 2);
  const region: Bbox = [left, top, left + side, top + side];
  // Cut the part inside the image, then pad it back to the full square with transparency.
  const cl = Math.max(0, left);
  const ct = Math.max(0, top);
  const cr = Math.min(w, left + side);
  const cb = Math.min(h, top + side);
  const inside = await base
    .clone()
    .ensureAlpha()
    .extract({ left: cl, top: ct, width: cr - cl, height: cb - ct })
    .extend({
      left: cl - left,
      top: ct - top,
      right: left + side - cr,
      bottom: top + side - cb,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png()
    .toBuffer();
  const out = await sharp(inside).resize(size, size, { kernel: 'lanczos3' }).png().toBuffer();
  return { image: out, region };
}
