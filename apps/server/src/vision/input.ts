import sharp from 'sharp';
import { VisionInputError } from './errors.ts';

/**
 * Limits on what the vision operations accept. 8192 px covers the spec's largest generation sizes (2048)
 * upscaled twice; 40 megapixels bounds the raw RGBA buffer at 160 MB before any model runs.
 */
export const VISION_MAX_SIDE = 8192;
export const VISION_MAX_PIXELS = 40_000_000;

const FORMATS = new Set(['png', 'jpeg', 'webp', 'gif', 'avif', 'heif', 'tiff']);

export interface ImageInput {
  bytes: Buffer;
  width: number;
  height: number;
  format: string;
}

export interface ImageLimits {
  maxSide?: number;
  maxPixels?: number;
}

/**
 * Checks that `bytes` is a decodable raster image within the size limits: the header first (so an oversize
 * image costs nothing), then one full decode. Throws VisionInputError (EMPTY, NOT_AN_IMAGE, TOO_LARGE) with a
 * message fit for the user.
 */
export async function readImageInput(bytes: Uint8Array, limits: ImageLimits = {}): Promise<ImageInput> {
  const maxSide = limits.maxSide ?? VISION_MAX_SIDE;
  const maxPixels = limits.maxPixels ?? VISION_MAX_PIXELS;
  if (bytes.byteLength === 0) throw new VisionInputError('EMPTY', 'The image is empty (0 bytes).');
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let meta: sharp.Metadata;
  try {
    // Header only: an oversize image is refused before its pixels are decoded.
    meta = await sharp(buffer, { limitInputPixels: false }).metadata();
  } catch {
    throw new VisionInputError(
      'NOT_AN_IMAGE',
      'The file is not an image Koma can read (PNG, JPEG, WebP, GIF, AVIF, TIFF).',
    );
  }
  const { width, height, format } = meta;
  if (!format || !FORMATS.has(format) || !width || !height) {
    throw new VisionInputError(
      'NOT_AN_IMAGE',
      'The file is not an image Koma can read (PNG, JPEG, WebP, GIF, AVIF, TIFF).',
    );
  }
  if (width > maxSide || height > maxSide || width * height > maxPixels) {
    throw new VisionInputError(
      'TOO_LARGE',
      `The image is ${width}×${height} px; the limit is ${maxSide} px per side and ${Math.round(maxPixels / 1e6)} megapixels.`,
    );
  }
  // Decode once here so that a truncated or corrupt body fails now with a clear message, not inside a model.
  try {
    await sharp(buffer).stats();
  } catch {
    throw new VisionInputError('NOT_AN_IMAGE', 'The image is damaged or truncated and cannot be decoded.');
  }
  return { bytes: buffer, width, height, format };
}

/** Decoded pixels: packed RGB, row-major. */
export interface RgbPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Decodes to packed RGB, honouring EXIF orientation; transparent areas are flattened onto white. */
export async function decodeRgb(bytes: Buffer): Promise<RgbPixels> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}

/** Width and height as displayed, after EXIF orientation (5–8 swap the sides). */
export function orientedSize(meta: sharp.Metadata): { width: number; height: number } {
  const swap = (meta.orientation ?? 1) >= 5;
  return { width: (swap ? meta.height : meta.width) ?? 0, height: (swap ? meta.width : meta.height) ?? 0 };
}
