// The previous drawBlended (two passes over opaque runs), kept to pin the present one's output to it byte for byte.
// Its opaque pixels take the present opaqueTable (the integer formula blend.wat shares, tested on its own in
// blend-kernel.test.ts): what this pins is the loops, where each run starts and stops.
import type { BlendMode } from '@koma/domain';
import { opaqueTable } from '../../src/export/blend.ts';
import { LITTLE_ENDIAN, drawOver, pixelWords, type ClipBase, type Raster } from '../../src/export/raster.ts';

type Mix = (b: number, s: number) => number;

/** B(backdrop, source) on 0..1 channels, as the compositing spec (and Photoshop) defines each mode. */
const MIX: Record<Exclude<BlendMode, 'normal'>, Mix> = {
  multiply: (b, s) => b * s,
  screen: (b, s) => b + s - b * s,
  overlay: (b, s) => (b <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s)),
  darken: (b, s) => Math.min(b, s),
  lighten: (b, s) => Math.max(b, s),
};

/**
 * B(backdrop, source) for every pair of 8-bit channels, ×255, by mode: built once, it turns the per-channel call
 * and divisions of the common case (art over an opaque page) into one lookup.
 */
const TABLES = new Map<Exclude<BlendMode, 'normal'>, Float64Array>();
function tableOf(mode: Exclude<BlendMode, 'normal'>): Float64Array {
  let table = TABLES.get(mode);
  if (!table) {
    const mix = MIX[mode];
    table = new Float64Array(256 * 256);
    for (let b = 0; b < 256; b++) for (let s = 0; s < 256; s++) table[(b << 8) | s] = mix(b / 255, s / 255) * 255;
    TABLES.set(mode, table);
  }
  return table;
}

/**
 * Draws `src` at (left, top) over `dst` with a blend mode: where the backdrop is opaque the colour is B(backdrop,
 * source); where it is clear, the source's own colour; `opacity` and the clip base scale the source's alpha.
 * Normal goes through drawOver (its fast paths).
 */
export function previousDrawBlended(
  dst: Raster,
  src: Raster,
  left: number,
  top: number,
  mode: BlendMode,
  opacity = 1,
  clip?: ClipBase,
): void {
  if (mode === 'normal') return drawOver(dst, src, left, top, opacity, clip);
  // Bounds from whole numbers only (no ±Infinity), so that the indices below stay small integers.
  let x0 = Math.max(0, left);
  let y0 = Math.max(0, top);
  let x1 = Math.min(dst.width, left + src.width);
  let y1 = Math.min(dst.height, top + src.height);
  if (clip) {
    x0 = Math.max(x0, clip.left);
    y0 = Math.max(y0, clip.top);
    x1 = Math.min(x1, clip.left + clip.raster.width);
    y1 = Math.min(y1, clip.top + clip.raster.height);
  }
  if (x1 <= x0 || y1 <= y0) return;
  const d32 = pixelWords(dst);
  const s32 = pixelWords(src);
  const k32 = clip ? pixelWords(clip.raster) : null;
  const kw = clip ? clip.raster.width : 0;
  // Alpha read in place (a call per pixel costs several times the loop); the word fast path reads channels by byte
  // position, so a big-endian host takes the general path throughout.
  const shift = LITTLE_ENDIAN ? 24 : 0;
  const full = LITTLE_ENDIAN ? opaqueTable(mode, opacity) : null;
  const table = tableOf(mode);
  const mix = MIX[mode];
  for (let y = y0; y < y1; y++) {
    const dRow = y * dst.width;
    const sRow = (y - top) * src.width - left;
    const kRow = clip ? (y - clip.top) * kw - clip.left : 0;
    let x = x0;
    while (x < x1) {
      if (full) {
        // Eight at a time while source and clip are opaque (the alpha bits of the AND of their words): the body of
        // every picture inside its panel.
        let end = x;
        while (end + 8 <= x1) {
          const si = sRow + end;
          let all = s32[si]! & s32[si + 1]! & s32[si + 2]! & s32[si + 3]!;
          all &= s32[si + 4]! & s32[si + 5]! & s32[si + 6]! & s32[si + 7]!;
          if (k32) {
            const ki = kRow + end;
            all &= k32[ki]! & k32[ki + 1]! & k32[ki + 2]! & k32[ki + 3]!;
            all &= k32[ki + 4]! & k32[ki + 5]! & k32[ki + 6]! & k32[ki + 7]!;
          }
          if (all >>> 24 !== 255) break;
          end += 8;
        }
        // A backdrop pixel that is not opaque ends the run; the general path below takes it (one call site for it
        // keeps this loop small enough to stay fast).
        for (; x < end; x++) {
          const dp = dRow + x;
          const dw = d32[dp]!;
          if (dw >>> 24 !== 255) break;
          const sw = s32[sRow + x]!;
          d32[dp] =
            full[((dw & 0xff) << 8) | (sw & 0xff)]! |
            (full[(dw & 0xff00) | ((sw >>> 8) & 0xff)]! << 8) |
            (full[((dw >>> 8) & 0xff00) | ((sw >>> 16) & 0xff)]! << 16) |
            (dw & -0x1000000);
        }
        if (x >= x1) break;
      }
      // Skip a run that draws nothing, eight at a time: the clear corners of a turned picture, padding.
      while (x + 8 <= x1) {
        const si = sRow + x;
        let any = s32[si]! | s32[si + 1]! | s32[si + 2]! | s32[si + 3]!;
        any |= s32[si + 4]! | s32[si + 5]! | s32[si + 6]! | s32[si + 7]!;
        if (((any >>> shift) & 0xff) !== 0) break;
        x += 8;
      }
      if (x >= x1) break;
      const sw = s32[sRow + x]!;
      const sa = (sw >>> shift) & 0xff;
      const ka = k32 ? (k32[kRow + x]! >>> shift) & 0xff : 255;
      if (sa !== 0 && ka !== 0) {
        const dp = dRow + x;
        const dw = d32[dp]!;
        if (full && sa === 255 && ka === 255 && dw >>> 24 === 255) {
          d32[dp] =
            full[((dw & 0xff) << 8) | (sw & 0xff)]! |
            (full[(dw & 0xff00) | ((sw >>> 8) & 0xff)]! << 8) |
            (full[((dw >>> 8) & 0xff00) | ((sw >>> 16) & 0xff)]! << 16) |
            (dw & -0x1000000);
        } else blendPixel(dst.data, dp << 2, src.data, (sRow + x) << 2, (sa / 255) * opacity * (ka / 255), table, mix);
      }
      x++;
    }
  }
}

/** One pixel of `src` (byte index si) over `dst` (byte index di) at source alpha `as` (0..1), on straight alpha. */
function blendPixel(
  d: Uint8ClampedArray,
  di: number,
  s: Uint8ClampedArray,
  si: number,
  as: number,
  table: Float64Array,
  mix: Mix,
): void {
  if (as === 0) return;
  if (d[di + 3] === 255) {
    // Opaque backdrop: the colour is B(backdrop, source) over the backdrop by the source's alpha.
    for (let c = 0; c < 3; c++) {
      const cb = d[di + c]!;
      d[di + c] = Math.round(as * table[(cb << 8) | s[si + c]!]! + (1 - as) * cb);
    }
    return;
  }
  const ab = d[di + 3]! / 255;
  const ao = as + ab * (1 - as);
  for (let c = 0; c < 3; c++) {
    const cs = s[si + c]! / 255;
    const cb = d[di + c]! / 255;
    const mixed = (1 - ab) * cs + ab * mix(cb, cs);
    d[di + c] = Math.round(((as * mixed + ab * (1 - as) * cb) / ao) * 255);
  }
  d[di + 3] = Math.round(ao * 255);
}
