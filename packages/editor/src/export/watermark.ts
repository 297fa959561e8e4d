import type { Raster } from './raster.ts';

/** The plan of `GET /api/auth/me` → `user.plan`; only the free tier is watermarked (editor.md §1, §6). */
export type Plan = 'free' | 'subscriber';

export const WATERMARK_TEXT = 'MADE WITH KOMA';

/** 5×7 glyphs, one string of five bits per row, for the letters the watermark uses. */
const GLYPHS: Record<string, readonly string[]> = {
  M: ['10001', '11011', '10101', '10101', '10001', '10001', '10001'],
  A: ['01110', '10001', '10001', '11111', '10001', '10001', '10001'],
  D: ['11110', '10001', '10001', '10001', '10001', '10001', '11110'],
  E: ['11111', '10000', '10000', '11110', '10000', '10000', '11111'],
  W: ['10001', '10001', '10001', '10101', '10101', '11011', '10001'],
  I: ['11111', '00100', '00100', '00100', '00100', '00100', '11111'],
  T: ['11111', '00100', '00100', '00100', '00100', '00100', '00100'],
  H: ['10001', '10001', '10001', '11111', '10001', '10001', '10001'],
  K: ['10001', '10010', '10100', '11000', '10100', '10010', '10001'],
  O: ['01110', '10001', '10001', '10001', '10001', '10001', '01110'],
  ' ': ['00000', '00000', '00000', '00000', '00000', '00000', '00000'],
};

/** The slope of the lines of text: rising 30° to the right. */
const ANGLE = (-30 * Math.PI) / 180;
/** How far a marked pixel is pulled towards mid grey: seen on white paper and on black ink alike. */
export const WATERMARK_STRENGTH = 0.3;
/** The grey a marked pixel is pulled towards. */
export const GREY_OF_WATERMARK = 128;

/** Whether an export for this plan carries the watermark. */
export function needsWatermark(plan: Plan): boolean {
  return plan !== 'subscriber';
}

let cached: { width: number; height: number; mask: Uint8Array } | null = null;

/**
 * Where the watermark is on a page: 1 for each pixel of the mark, row by row. A diagonal text repeated over the whole
 * page (lines of "MADE WITH KOMA" 30° up, every line shifted by half a text), letters a 1/170 of the page wide, so
 * that no margin crop and no hidden layer takes it away. Depends on the page size only.
 */
export function watermarkMask(width: number, height: number): Uint8Array {
  if (cached && cached.width === width && cached.height === height) return cached.mask;
  const mask = new Uint8Array(Math.max(0, width * height));
  const cell = Math.max(2, Math.round(Math.max(width, height) / 240));
  const glyphs = [...WATERMARK_TEXT].map((ch) => GLYPHS[ch] ?? GLYPHS[' ']!);
  const textLength = glyphs.length * 6 * cell;
  const pitchU = textLength + 10 * cell;
  const pitchV = 16 * cell;
  const cos = Math.cos(ANGLE);
  const sin = Math.sin(ANGLE);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = -x * sin + y * cos;
      const line = Math.floor(v / pitchV);
      const gy = Math.floor((v - line * pitchV) / cell);
      if (gy >= 7) continue;
      const u = x * cos + y * sin + (line & 1 ? pitchU / 2 : 0) + 1e6 * pitchU;
      const along = u % pitchU;
      if (along >= textLength) continue;
      const index = Math.floor(along / (6 * cell));
      const gx = Math.floor((along - index * 6 * cell) / cell);
      if (gx < 5 && glyphs[index]![gy]![gx] === '1') mask[y * width + x] = 1;
    }
  }
  cached = { width, height, mask };
  return mask;
}

/**
 * Puts the mark into the pixels of a raster that sits at (left, top) on a page of the given size: every pixel of the
 * raster under the mark, whatever its alpha, is pulled towards grey. Each layer of a PSD carries it so.
 */
export function markRaster(raster: Raster, left: number, top: number, pageWidth: number, pageHeight: number): void {
  const mask = watermarkMask(pageWidth, pageHeight);
  const keep = 1 - WATERMARK_STRENGTH;
  const add = GREY_OF_WATERMARK * WATERMARK_STRENGTH;
  const x0 = Math.max(0, -left);
  const x1 = Math.min(raster.width, pageWidth - left);
  const y0 = Math.max(0, -top);
  const y1 = Math.min(raster.height, pageHeight - top);
  const data = raster.data;
  for (let y = y0; y < y1; y++) {
    const row = (top + y) * pageWidth + left;
    for (let x = x0; x < x1; x++) {
      if (mask[row + x] === 0) continue;
      const o = (y * raster.width + x) * 4;
      if (data[o + 3] === 0) continue;
      data[o] = data[o]! * keep + add;
      data[o + 1] = data[o + 1]! * keep + add;
      data[o + 2] = data[o + 2]! * keep + add;
    }
  }
}

/** Puts the mark into a whole page (a flattened picture) when the plan asks for one; returns whether it did. */
export function applyWatermark(page: Raster, plan: Plan): boolean {
  if (!needsWatermark(plan)) return false;
  markRaster(page, 0, 0, page.width, page.height);
  return true;
}
