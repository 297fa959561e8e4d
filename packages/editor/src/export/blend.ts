// Blend modes for the flattened picture (issue 17): the separable modes of the PSD format, on straight alpha.
import type { BlendMode } from '@koma/domain';
import { LITTLE_ENDIAN, drawArea, drawOver, pixelWords, type ClipBase, type Raster } from './raster.ts';

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
 * The finished channel byte for an opaque source pixel over an opaque backdrop at one opacity, by (backdrop << 8 |
 * source): the general formula below with the source's alpha equal to `opacity`, evaluated once per pair instead of
 * once per pixel. Art over the page is nearly all such pixels, so compositing a blended layer becomes three byte
 * lookups a pixel. Clamped like the pixel bytes, so it stores exactly what the formula would.
 */
const OPAQUE = new Map<string, Uint8ClampedArray>();
function opaqueTable(mode: Exclude<BlendMode, 'normal'>, opacity: number): Uint8ClampedArray {
  const key = `${mode}:${opacity}`;
  let out = OPAQUE.get(key);
  if (!out) {
    const table = tableOf(mode);
    out = new Uint8ClampedArray(256 * 256);
    for (let cb = 0; cb < 256; cb++) {
      for (let cs = 0; cs < 256; cs++) {
        out[(cb << 8) | cs] = Math.round(opacity * table[(cb << 8) | cs]! + (1 - opacity) * cb);
      }
    }
    // Opacities are few per page (a slider's values); bound the cache all the same.
    if (OPAQUE.size >= 32) OPAQUE.clear();
    OPAQUE.set(key, out);
  }
  return out;
}

/**
 * Draws `src` at (left, top) over `dst` with a blend mode: where the backdrop is opaque the colour is B(backdrop,
 * source); where it is clear, the source's own colour; `opacity` and the clip base scale the source's alpha.
 * Normal goes through drawOver (its fast paths).
 */
export function drawBlended(
  dst: Raster,
  src: Raster,
  left: number,
  top: number,
  mode: BlendMode,
  opacity = 1,
  clip?: ClipBase,
): void {
  if (mode === 'normal') return drawOver(dst, src, left, top, opacity, clip);
  const area = drawArea(dst, src, left, top, clip);
  if (!area) return;
  const { x0, y0, x1, y1 } = area;
  const d32 = pixelWords(dst);
  const s32 = pixelWords(src);
  // An opaque base only bounds the area (its alpha is 255 wherever it would be read).
  const k32 = clip && !clip.opaque ? pixelWords(clip.raster) : null;
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
        // One pass while source, clip and backdrop are all opaque (the alpha bits of the AND of their words): the
        // body of every picture inside its panel. One read of each word a pixel; a first pass testing eight words
        // at a time before this one read the source and the clip twice.
        if (k32) {
          for (; x < x1; x++) {
            const dp = dRow + x;
            const dw = d32[dp]!;
            const sw = s32[sRow + x]!;
            if ((dw & sw & k32[kRow + x]!) >>> 24 !== 255) break;
            d32[dp] =
              full[((dw & 0xff) << 8) | (sw & 0xff)]! |
              (full[(dw & 0xff00) | ((sw >>> 8) & 0xff)]! << 8) |
              (full[((dw >>> 8) & 0xff00) | ((sw >>> 16) & 0xff)]! << 16) |
              (dw & -0x1000000);
          }
        } else {
          for (; x < x1; x++) {
            const dp = dRow + x;
            const dw = d32[dp]!;
            const sw = s32[sRow + x]!;
            if ((dw & sw) >>> 24 !== 255) break;
            d32[dp] =
              full[((dw & 0xff) << 8) | (sw & 0xff)]! |
              (full[(dw & 0xff00) | ((sw >>> 8) & 0xff)]! << 8) |
              (full[((dw >>> 8) & 0xff00) | ((sw >>> 16) & 0xff)]! << 16) |
              (dw & -0x1000000);
          }
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
