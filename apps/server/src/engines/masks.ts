import sharp from 'sharp';
import type { Padding } from './types.ts';
import { EngineError } from './errors.ts';
import {
  blendMasked,
  blurChannel,
  decodeImage,
  decodeMask,
  decodeResized,
  encodePng,
  featherAlpha,
} from './builtin/pixels.ts';

/** Size of an input image, or a validation error naming it. */
export async function imageSize(bytes: Buffer, what: string): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) throw new Error('no dimensions');
    return { width: meta.width, height: meta.height };
  } catch (err) {
    throw new EngineError('validation', `The ${what} could not be read as an image`, err);
  }
}

/** Re-encodes any input image as PNG (engines that take files want one known format). */
export async function toPng(bytes: Buffer, what: string): Promise<Buffer> {
  try {
    return await sharp(bytes).png().toBuffer();
  } catch (err) {
    throw new EngineError('validation', `The ${what} could not be read as an image`, err);
  }
}

function alphaToPng(alpha: Float32Array, width: number, height: number): Promise<Buffer> {
  const data = Buffer.alloc(width * height);
  for (let i = 0; i < data.length; i++) data[i] = Math.round((alpha[i] ?? 0) * 255);
  return sharp(data, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
}

/**
 * The mask every engine gets: stretched to the image, feathered inward by `blurPx` (so nothing outside the
 * user's mask can change), as a greyscale PNG with white = change.
 */
export async function featheredMask(mask: Buffer, width: number, height: number, blurPx: number): Promise<Buffer> {
  const { mask: m, blurred } = await decodeMask(mask, width, height, blurPx);
  return alphaToPng(featherAlpha(m, blurred), width, height);
}

/**
 * Outpaint as inpaint: the image grown by `padding` with its edge pixels stretched outwards, and a mask that is
 * white over the new area, feathered by `blurPx` away from the original so the original stays untouched.
 */
export async function outpaintCanvas(
  image: Buffer,
  padding: Padding,
  blurPx: number,
): Promise<{ image: Buffer; mask: Buffer; width: number; height: number }> {
  for (const [side, v] of Object.entries(padding)) {
    if (!Number.isInteger(v) || v < 0) {
      throw new EngineError('validation', `Outpaint padding ${side} must be a whole number of pixels, 0 or more`);
    }
  }
  const { left, top, right, bottom } = padding;
  if (left + top + right + bottom === 0)
    throw new EngineError('validation', 'Outpaint needs padding on at least one side');
  const size = await imageSize(image, 'input image');
  const width = size.width + left + right;
  const height = size.height + top + bottom;
  const grown = await sharp(image).extend({ left, top, right, bottom, extendWith: 'copy' }).png().toBuffer();
  const newArea = Buffer.alloc(width * height, 255);
  for (let y = top; y < top + size.height; y++) newArea.fill(0, y * width + left, y * width + left + size.width);
  const m = Float32Array.from(newArea, (v) => v / 255);
  const blurred = Float32Array.from(await blurChannel(newArea, width, height, blurPx), (v) => v / 255);
  return { image: grown, mask: await alphaToPng(featherAlpha(m, blurred), width, height), width, height };
}

/**
 * Pastes a hosted engine's result over the original through the feathered mask (white = take the result), so
 * an inpaint never changes pixels outside the user's mask even if the remote model re-renders them.
 */
export async function pasteMasked(original: Buffer, generated: Buffer, mask: Buffer): Promise<Buffer> {
  const { width, height } = await imageSize(original, 'input image');
  let fitted: Buffer;
  try {
    fitted = await sharp(generated).resize(width, height, { fit: 'fill' }).png().toBuffer();
  } catch (err) {
    throw new EngineError('engine_failed', 'The engine returned something that is not an image', err);
  }
  const base = await decodeImage(original, 'input image');
  const over = await decodeResized(fitted, 'generated image', width, height, base.channels === 4);
  const { mask: weights } = await decodeMask(mask, width, height, 0);
  return encodePng(blendMasked(base, over, weights, 1));
}

/**
 * Where the mask is 0 the original's own bytes, elsewhere the generated picture fitted to the original's size. An
 * inpaint result from any engine goes through this: the engine decides how the masked area blends, and nothing it
 * did outside (a VAE round trip, a whole re-render, the working size rounded to multiples of 8) reaches the page.
 */
export async function keepUnmasked(original: Buffer, generated: Buffer, mask: Buffer): Promise<Buffer> {
  const { width, height } = await imageSize(original, 'input image');
  const { mask: weights } = await decodeMask(mask, width, height, 0);
  return pasteMasked(
    original,
    generated,
    await alphaToPng(
      weights.map((w) => (w > 0 ? 1 : 0)),
      width,
      height,
    ),
  );
}
