// Greys for a one-ink press: a page turned into pure black and white by an amplitude-modulated screen of round
// dots (the screentone look of printed manga), at a chosen line count and angle. Each output pixel is ink when it
// lies inside the dot of its screen cell, and the dot's size is chosen so that the share of the cell it covers
// equals the pixel's ink coverage (1 − grey), so tones keep their value however coarse the screen.
import type { Raster } from './raster.ts';

export interface ScreenOptions {
  /** Screen ruling in lines per inch (manga tones run 50–85). */
  lpi: number;
  /** Screen angle in degrees (45 hides the pattern best for a single ink). */
  angle: number;
  /** Resolution of the raster in pixels per inch. */
  dpi: number;
}

/** Luminance (Rec. 601 weights, as greyscale print conversion commonly uses), alpha composited over white. */
export function luminanceAt(data: Uint8ClampedArray | Uint8Array, i: number): number {
  const a = (data[i + 3] ?? 255) / 255;
  const y = 0.299 * (data[i] ?? 0) + 0.587 * (data[i + 1] ?? 0) + 0.114 * (data[i + 2] ?? 0);
  return y * a + 255 * (1 - a);
}

/** The page in greys, alpha flattened onto white. */
export function toGrey(raster: Raster): Raster {
  const out = new Uint8ClampedArray(raster.width * raster.height * 4);
  for (let i = 0; i < out.length; i += 4) {
    const y = Math.round(luminanceAt(raster.data, i));
    out[i] = out[i + 1] = out[i + 2] = y;
    out[i + 3] = 255;
  }
  return { width: raster.width, height: raster.height, data: out };
}

/**
 * Share of a unit cell (coordinates in [−½, ½]²) inside the circle u² + v² < r2: the disc while it fits, then the
 * disc less the four caps that cross the cell's edges.
 */
export function cellCoverage(r2: number): number {
  if (r2 <= 0) return 0;
  if (r2 >= 0.5) return 1;
  const disc = Math.PI * r2;
  if (r2 <= 0.25) return disc;
  const r = Math.sqrt(r2);
  const half = Math.acos(0.5 / r);
  const cap = r2 * half - 0.5 * Math.sqrt(r2 - 0.25);
  return disc - 4 * cap;
}

const STEPS = 1024;
/** r² of the dot for each ink coverage k/STEPS, by bisection on the monotone `cellCoverage`. */
const RADIUS2 = (() => {
  const table = new Float64Array(STEPS + 1);
  for (let k = 0; k <= STEPS; k++) {
    const want = k / STEPS;
    let lo = 0;
    let hi = 0.5;
    for (let n = 0; n < 40; n++) {
      const mid = (lo + hi) / 2;
      if (cellCoverage(mid) < want) lo = mid;
      else hi = mid;
    }
    table[k] = hi;
  }
  return table;
})();

/**
 * The screen itself: whether the pixel at (x, y) is ink for an ink coverage of `coverage` (0..1) under it. The page
 * screen and anything that must print on its dots (the PDF's watermark on a one-ink page) share it.
 */
export function screenInk(options: ScreenOptions): (x: number, y: number, coverage: number) => boolean {
  if (!(options.lpi > 0) || !(options.dpi > 0)) throw new RangeError('lpi and dpi must be positive');
  const cell = options.dpi / options.lpi;
  const a = (options.angle * Math.PI) / 180;
  const cos = Math.cos(a) / cell;
  const sin = Math.sin(a) / cell;
  return (x, y, coverage) => {
    // The pixel's centre in screen-cell units, then its offset from its cell's centre.
    const px = x + 0.5;
    const py = y + 0.5;
    const u = px * cos + py * sin;
    const v = -px * sin + py * cos;
    const fu = u - Math.floor(u) - 0.5;
    const fv = v - Math.floor(v) - 0.5;
    return fu * fu + fv * fv < RADIUS2[Math.round(coverage * STEPS)]!;
  };
}

/** The page as a one-bit screen: every pixel 0 or 255 (opaque), dots of ink sized by the tone under them. */
export function halftone(raster: Raster, options: ScreenOptions): Raster {
  const ink = screenInk(options);
  const { width, height } = raster;
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const value = ink(x, y, 1 - luminanceAt(raster.data, i) / 255) ? 0 : 255;
      out[i] = out[i + 1] = out[i + 2] = value;
      out[i + 3] = 255;
    }
  }
  return { width, height, data: out };
}
