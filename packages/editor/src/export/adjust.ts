import { DEFAULT_FILTER_PARAMS, type FilterParams } from '@koma/domain';
import { createRaster, type Raster, type Rect } from './raster.ts';

// Image adjustments (spec §3 filterParams) on the CPU, for exports: a port of the canvas's WebGL fragment shader
// (apps/web/src/canvas/filters.ts), step for step, so that an exported page looks like the canvas and needs no
// WebGL in the worker. Change both together.

const FILTER_KEYS = Object.keys(DEFAULT_FILTER_PARAMS) as (keyof FilterParams)[];

export function isDefaultFilter(params: FilterParams): boolean {
  return FILTER_KEYS.every((k) => params[k] === DEFAULT_FILTER_PARAMS[k]);
}

const LUMA_R = 0.2126;
const LUMA_G = 0.7152;
const LUMA_B = 0.0722;

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}

/**
 * The image's pixels with its adjustments applied, as a new raster (the caller's pixels stay as they were); the
 * raster itself when every parameter is at its default. `frame` is where the whole image lies in the raster's
 * pixels — the raster may show only part of it, cut at the page edge — and places the vignette and the grain the
 * way the shader's texture coordinates do, so they stay put on the image whatever the export cuts or scales.
 * The grain is the shader's hash of that coordinate: the same document always exports the same bytes.
 * Fully transparent pixels are left transparent black.
 */
export function adjustImage(src: Raster, params: FilterParams, frame: Rect): Raster {
  if (isDefaultFilter(params) || src.width === 0 || src.height === 0) return src;
  const out = createRaster(src.width, src.height);
  const { width, height } = src;
  const s = src.data;
  const o = out.data;
  const { contrast, highlights, shadows, saturation, vignette, grain } = params;
  // texel / 255 * pow(2, exposure), as one factor.
  const gain = 2 ** params.exposure / 255;
  const black = (1 - params.blacks) * 0.5;
  const white = 1 - (1 - params.whites) * 0.5;
  const levels = 1 / Math.max(white - black, 0.001);
  const tone = highlights !== 0 || shadows !== 0;
  const saturate = saturation !== 1;
  const vignetted = vignette !== 0;
  const grainy = grain !== 0;
  const grainScale = grain * 0.2;

  // The shader's uv at each pixel centre, per column and per row. The grain's hash is sin(px·12.9898 + py·78.233)
  // with p = uv·1024; it is split into sin/cos per column and per row (sin(a+b) = sin a cos b + cos a sin b), so
  // no pixel calls Math.sin.
  const us = new Float64Array(width);
  const colSin = grainy ? new Float64Array(width) : us;
  const colCos = grainy ? new Float64Array(width) : us;
  for (let x = 0; x < width; x++) {
    const u = (x + 0.5 - frame.x) / frame.width;
    us[x] = u - 0.5;
    if (grainy) {
      const a = u * 1024 * 12.9898;
      colSin[x] = Math.sin(a);
      colCos[x] = Math.cos(a);
    }
  }

  for (let y = 0; y < height; y++) {
    const v = (y + 0.5 - frame.y) / frame.height;
    const dv = v - 0.5;
    const dv2 = dv * dv;
    const b = v * 1024 * 78.233;
    const rowSin = grainy ? Math.sin(b) : 0;
    const rowCos = grainy ? Math.cos(b) : 0;
    for (let x = 0, i = y * width * 4; x < width; x++, i += 4) {
      const alpha = s[i + 3]!;
      if (alpha === 0) continue;
      let r = s[i]! * gain;
      let g = s[i + 1]! * gain;
      let bl = s[i + 2]! * gain;
      r = (r - 0.5) * contrast + 0.5;
      g = (g - 0.5) * contrast + 0.5;
      bl = (bl - 0.5) * contrast + 0.5;
      if (tone) {
        const l = r * LUMA_R + g * LUMA_G + bl * LUMA_B;
        const lift = highlights * smoothstep(0.5, 1, l) * 0.5 + shadows * (1 - smoothstep(0, 0.5, l)) * 0.5;
        r += lift;
        g += lift;
        bl += lift;
      }
      r = (r - black) * levels;
      g = (g - black) * levels;
      bl = (bl - black) * levels;
      if (saturate) {
        // mix(vec3(luma), c, saturation)
        const l = r * LUMA_R + g * LUMA_G + bl * LUMA_B;
        r = l * (1 - saturation) + r * saturation;
        g = l * (1 - saturation) + g * saturation;
        bl = l * (1 - saturation) + bl * saturation;
      }
      if (vignetted) {
        const du = us[x]!;
        const k = 1 - vignette * smoothstep(0.3, 0.75, Math.sqrt(du * du + dv2));
        r *= k;
        g *= k;
        bl *= k;
      }
      if (grainy) {
        const h = (colSin[x]! * rowCos + colCos[x]! * rowSin) * 43758.5453;
        const n = (h - Math.floor(h) - 0.5) * grainScale;
        r += n;
        g += n;
        bl += n;
      }
      // Uint8ClampedArray clamps and rounds, as the shader's clamp(c, 0.0, 1.0) and the 8-bit framebuffer do.
      o[i] = r * 255;
      o[i + 1] = g * 255;
      o[i + 2] = bl * 255;
      o[i + 3] = alpha;
    }
  }
  return out;
}
