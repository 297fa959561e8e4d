import sharp from 'sharp';
import { EngineError } from '../errors.ts';

/** Raw interleaved 8-bit pixels. */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

async function decodeWith(image: sharp.Sharp, what: string, alpha: boolean): Promise<Pixels> {
  try {
    const pipeline = image.toColourspace('srgb');
    const { data, info } = await (alpha ? pipeline.ensureAlpha() : pipeline.removeAlpha())
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: alpha ? 4 : 3 };
  } catch (err) {
    throw new EngineError('validation', `The ${what} could not be read as an image`, err);
  }
}

/** Decodes an input image, keeping an alpha channel only if it has one (so unchanged pixels round-trip exactly). */
export async function decodeImage(bytes: Buffer, what: string): Promise<Pixels> {
  let hasAlpha: boolean;
  try {
    hasAlpha = (await sharp(bytes).metadata()).hasAlpha;
  } catch (err) {
    throw new EngineError('validation', `The ${what} could not be read as an image`, err);
  }
  return decodeWith(sharp(bytes), what, hasAlpha);
}

/** Decodes and stretches an image to exactly width x height. */
export async function decodeResized(
  bytes: Buffer,
  what: string,
  width: number,
  height: number,
  alpha: boolean,
): Promise<Pixels> {
  return decodeWith(sharp(bytes).resize(width, height, { fit: 'fill' }), what, alpha);
}

/** A single-channel 0..1 weight map of the mask's first channel, stretched to the image size (white = change). */
export async function decodeMask(
  bytes: Buffer,
  width: number,
  height: number,
  blurPx: number,
): Promise<{ mask: Float32Array; blurred: Float32Array }> {
  let raw: Buffer;
  try {
    raw = await sharp(bytes).resize(width, height, { fit: 'fill' }).removeAlpha().extractChannel(0).raw().toBuffer();
  } catch (err) {
    throw new EngineError('validation', 'The mask could not be read as an image', err);
  }
  return { mask: toWeights(raw), blurred: toWeights(await blurChannel(raw, width, height, blurPx)) };
}

function toWeights(raw: Buffer): Float32Array {
  const out = new Float32Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = (raw[i] ?? 0) / 255;
  return out;
}

/** Gaussian blur of a one-channel map; `blurPx` is the feather width, sigma is half of it. */
export async function blurChannel(raw: Buffer, width: number, height: number, blurPx: number): Promise<Buffer> {
  const sigma = blurPx / 2;
  if (sigma < 0.3) return raw;
  return sharp(raw, { raw: { width, height, channels: 1 } })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer();
}

/**
 * Feathers inward: the alpha is 0 wherever the mask is 0 (so those pixels never change), equals the mask in its
 * interior, and ramps from 0 at the mask's edge to full over about the blur width. 2*blurred - mask does exactly
 * that: at a hard edge the blur is mask/2, deep inside it equals the mask. It is capped by the mask itself, because
 * an anti-aliased rim pixel (mask nearly 0, blur nearly 1/2) would otherwise take almost all of the new picture.
 */
export function featherAlpha(mask: Float32Array, blurred: Float32Array): Float32Array {
  const alpha = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) {
    const m = mask[i] ?? 0;
    alpha[i] = m > 0 ? Math.min(m, Math.max(0, 2 * (blurred[i] ?? 0) - m)) : 0;
  }
  return alpha;
}

/** base + (over - base) * t per pixel; t = 0 returns base's bytes exactly, t = 1 returns over's. */
export function blendUniform(base: Pixels, over: Pixels, t: number): Pixels {
  assertSameShape(base, over);
  const data = Buffer.alloc(base.data.length);
  for (let i = 0; i < data.length; i++) {
    const a = base.data[i] ?? 0;
    data[i] = t === 0 ? a : t === 1 ? (over.data[i] ?? 0) : Math.round(a + ((over.data[i] ?? 0) - a) * t);
  }
  return { ...base, data };
}

/** Like blendUniform with a per-pixel alpha (one value per pixel, all channels). */
export function blendMasked(base: Pixels, over: Pixels, alpha: Float32Array, strength: number): Pixels {
  assertSameShape(base, over);
  const data = Buffer.from(base.data);
  const c = base.channels;
  for (let p = 0; p < alpha.length; p++) {
    const t = (alpha[p] ?? 0) * strength;
    if (t === 0) continue;
    for (let k = p * c; k < p * c + c; k++) {
      const a = base.data[k] ?? 0;
      data[k] = Math.round(a + ((over.data[k] ?? 0) - a) * t);
    }
  }
  return { ...base, data };
}

function assertSameShape(a: Pixels, b: Pixels): void {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) {
    throw new Error(
      `pixel buffers differ: ${a.width}x${a.height}x${a.channels} vs ${b.width}x${b.height}x${b.channels}`,
    );
  }
}

export function withChannels(p: { data: Buffer; width: number; height: number }, channels: 3 | 4): Pixels {
  if (channels === 3) return { ...p, channels: 3 };
  const data = Buffer.alloc(p.width * p.height * 4);
  for (let i = 0, j = 0; i < p.data.length; i += 3, j += 4) {
    data[j] = p.data[i] ?? 0;
    data[j + 1] = p.data[i + 1] ?? 0;
    data[j + 2] = p.data[i + 2] ?? 0;
    data[j + 3] = 255;
  }
  return { data, width: p.width, height: p.height, channels: 4 };
}

export async function encodePng(p: Pixels): Promise<Buffer> {
  return sharp(p.data, { raw: { width: p.width, height: p.height, channels: p.channels } })
    .png()
    .toBuffer();
}
