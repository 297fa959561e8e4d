// Blend modes for the flattened picture (issue 17): the separable modes of the PSD format, on straight alpha.
import type { BlendMode } from '@koma/domain';
import { ALPHA_MASK, LITTLE_ENDIAN, drawArea, drawOver, pixelWords, type ClipBase, type Raster } from './raster.ts';
import { blendKernel, type BlendKernel } from './blend-kernel.ts';

type Mix = (b: number, s: number) => number;

/** B(backdrop, source) on 0..1 channels, as the compositing spec (and Photoshop) defines each mode. */
const MIX: Record<Exclude<BlendMode, 'normal'>, Mix> = {
  multiply: (b, s) => b * s,
  screen: (b, s) => b + s - b * s,
  overlay: (b, s) => (b <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s)),
  darken: (b, s) => Math.min(b, s),
  lighten: (b, s) => Math.max(b, s),
};

/** B(b, s) on 0..255 channels, rounded: the integer form of MIX that the opaque table and blend.wat share. */
function mixByte(mode: Exclude<BlendMode, 'normal'>, b: number, s: number): number {
  switch (mode) {
    case 'multiply':
      return Math.round((b * s) / 255);
    case 'screen':
      return b + s - Math.round((b * s) / 255);
    case 'overlay':
      return b <= 127 ? Math.round((2 * b * s) / 255) : 255 - Math.round((2 * (255 - b) * (255 - s)) / 255);
    case 'darken':
      return Math.min(b, s);
    case 'lighten':
      return Math.max(b, s);
  }
}

/** The opacity as the PSD stores it, one byte: what the opaque formula mixes by. */
function opacityByte(opacity: number): number {
  return Math.min(255, Math.max(0, Math.round(opacity * 255)));
}

/**
 * The finished channel byte for an opaque source pixel over an opaque backdrop at one opacity, by (backdrop << 8 |
 * source): round((R·a + b·(255 − a)) / 255) with R = B(b, s) rounded and a the opacity byte. Integers throughout,
 * so that blend.wat's SIMD lanes compute exactly these bytes (never halfway: 255 is odd). Art over the page is nearly
 * all such pixels, so compositing a blended layer becomes three byte lookups a pixel here.
 */
const OPAQUE = new Map<string, Uint8ClampedArray>();
export function opaqueTable(mode: Exclude<BlendMode, 'normal'>, opacity: number): Uint8ClampedArray {
  const a = opacityByte(opacity);
  const key = `${mode}:${a}`;
  let out = OPAQUE.get(key);
  if (!out) {
    out = new Uint8ClampedArray(256 * 256);
    for (let cb = 0; cb < 256; cb++) {
      for (let cs = 0; cs < 256; cs++) {
        out[(cb << 8) | cs] = Math.round((mixByte(mode, cb, cs) * a + cb * (255 - a)) / 255);
      }
    }
    // Opacities are few per page (a slider's values); bound the cache all the same.
    if (OPAQUE.size >= 32) OPAQUE.clear();
    OPAQUE.set(key, out);
  }
  return out;
}

const MODE_INDEX: Record<Exclude<BlendMode, 'normal'>, number> = {
  multiply: 0,
  screen: 1,
  overlay: 2,
  darken: 3,
  lighten: 4,
};

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
  const kernel = blendKernel();
  // An opaque base only bounds the area (its alpha is 255 wherever it would be read).
  const base = clip && !clip.opaque ? clip : undefined;
  if (kernel) return drawRows(kernel, dst, src, left, top, area, mode, opacity, base);
  const { x0, y0, x1, y1 } = area;
  const d32 = pixelWords(dst);
  const s32 = pixelWords(src);
  const k32 = base ? pixelWords(base.raster) : null;
  const kw = clip ? clip.raster.width : 0;
  // Alpha read in place (a call per pixel costs several times the loop); the word fast path reads channels by byte
  // position, so a big-endian host takes the per-pixel path throughout.
  const shift = LITTLE_ENDIAN ? 24 : 0;
  const full = opaqueTable(mode, opacity);
  const mix = MIX[mode];
  for (let y = y0; y < y1; y++) {
    const dRow = y * dst.width;
    const sRow = (y - top) * src.width - left;
    const kRow = clip ? (y - clip.top) * kw - clip.left : 0;
    let x = x0;
    while (x < x1) {
      if (LITTLE_ENDIAN) {
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
        const di = (dRow + x) << 2;
        const si = (sRow + x) << 2;
        if (sa === 255 && ka === 255 && dst.data[di + 3] === 255) opaquePixel(dst.data, di, src.data, si, full);
        else blendPixel(dst.data, di, src.data, si, (sa / 255) * opacity * (ka / 255), mix);
      }
      x++;
    }
  }
}

/**
 * drawBlended through the WebAssembly kernel: each row's backdrop, source and clip base are copied into the kernel's
 * memory (the rasters live in JavaScript's), blended there, and the backdrop copied back. The visible pixels that are
 * not opaque throughout come back here, drawn on the kernel's copy as the JavaScript loop draws them. Only the part
 * of each row between the source's first and last visible pixels goes through: the clear corners of a turned
 * picture (a sixth of the bench's blended area) are neither copied nor blended.
 */
function drawRows(
  kernel: BlendKernel,
  dst: Raster,
  src: Raster,
  left: number,
  top: number,
  area: { x0: number; y0: number; x1: number; y1: number },
  mode: Exclude<BlendMode, 'normal'>,
  opacity: number,
  base: ClipBase | undefined,
): void {
  const { x0, y0, x1, y1 } = area;
  const span = (x1 - x0) * 4;
  // 16 bytes of room after each segment: the kernel reads and writes its last group of four whole.
  const mem = kernel.memory(span * 3 + 48);
  const sAt = span + 16;
  const kAt = base ? 2 * (span + 16) : -1;
  const mix = MIX[mode];
  // The kernel blends every pixel that is opaque throughout itself: what comes back is never one (so no opaque
  // table, whose 65536 entries a fresh worker would build for each mode and opacity).
  kernel.soft = (dp, sp, ka) => blendPixel(mem, dp, mem, sp, (mem[sp + 3]! / 255) * opacity * (ka / 255), mix);
  const a = opacityByte(opacity);
  const modeIndex = MODE_INDEX[mode];
  const s32 = pixelWords(src);
  for (let y = y0; y < y1; y++) {
    const sRow = (y - top) * src.width - left;
    let xa = x0;
    while (xa < x1 && (s32[sRow + xa]! & ALPHA_MASK) === 0) xa++;
    if (xa === x1) continue;
    let xb = x1;
    while ((s32[sRow + xb - 1]! & ALPHA_MASK) === 0) xb--;
    const bytes = (xb - xa) * 4;
    const d0 = (y * dst.width + xa) * 4;
    const s0 = (sRow + xa) * 4;
    mem.set(dst.data.subarray(d0, d0 + bytes), 0);
    mem.set(src.data.subarray(s0, s0 + bytes), sAt);
    if (base) {
      const k0 = ((y - base.top) * base.raster.width + xa - base.left) * 4;
      mem.set(base.raster.data.subarray(k0, k0 + bytes), kAt);
    }
    kernel.row(0, sAt, kAt, xb - xa, modeIndex, a);
    dst.data.set(mem.subarray(0, bytes), d0);
  }
}

/** An opaque pixel of `src` over an opaque one of `dst`: the three channels from the opaque table, alpha kept. */
function opaquePixel(d: Uint8ClampedArray, di: number, s: Uint8ClampedArray, si: number, full: Uint8ClampedArray) {
  d[di] = full[(d[di]! << 8) | s[si]!]!;
  d[di + 1] = full[(d[di + 1]! << 8) | s[si + 1]!]!;
  d[di + 2] = full[(d[di + 2]! << 8) | s[si + 2]!]!;
}

/** One pixel of `src` (byte index si) over `dst` (byte index di) at source alpha `as` (0..1), on straight alpha. */
function blendPixel(d: Uint8ClampedArray, di: number, s: Uint8ClampedArray, si: number, as: number, mix: Mix): void {
  if (as === 0) return;
  if (d[di + 3] === 255) {
    // Opaque backdrop: the colour is B(backdrop, source) over the backdrop by the source's alpha.
    for (let c = 0; c < 3; c++) {
      const cb = d[di + c]!;
      d[di + c] = Math.round(as * mix(cb / 255, s[si + c]! / 255) * 255 + (1 - as) * cb);
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
