/** RGBA pixels with straight (not premultiplied) alpha, rows top to bottom: the layout PSD and ImageData share. */
export interface Raster {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

export type Rgba = readonly [number, number, number, number];

/** Whether a word view of pixel bytes reads red in its low byte (every browser and Node target we know of). */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** The alpha byte's bits in a pixel read as one word. */
export const ALPHA_MASK = LITTLE_ENDIAN ? 0xff << 24 : 0xff;

export function createRaster(width: number, height: number, fill?: Rgba): Raster {
  const raster = { width, height, data: new Uint8ClampedArray(Math.max(0, width * height * 4)) };
  if (fill) pixelWords(raster).fill(packRgba(fill));
  return raster;
}

/** '#rgb', '#rrggbb' or '#rrggbbaa' to RGBA bytes; anything else is black. */
export function parseHexColor(color: string): Rgba {
  const hex = color.trim().replace(/^#/, '');
  const full =
    hex.length === 3 || hex.length === 4
      ? [...hex].map((c) => c + c).join('')
      : hex.length === 6 || hex.length === 8
        ? hex
        : '000000';
  const n = (i: number) => parseInt(full.slice(i, i + 2), 16);
  const rgb = [n(0), n(2), n(4)].map((v) => (Number.isFinite(v) ? v : 0));
  return [rgb[0]!, rgb[1]!, rgb[2]!, full.length === 8 ? n(6) : 255];
}

/**
 * Coverage of a polygon (non-zero winding) sampled at pixel centres, inside `area` of the page; drawn into `out`
 * (clear, the area's size) when given.
 */
export function fillPolygon(
  area: Rect,
  polygon: readonly Point[],
  color: Rgba,
  out: Raster = createRaster(area.width, area.height),
): Raster {
  const out32 = pixelWords(out);
  const packed = packRgba(color);
  polygonRuns(area, polygon, (row, from, to) => out32.fill(packed, row * area.width + from, row * area.width + to + 1));
  return out;
}

/**
 * Whether `fillPolygon` would cover every pixel of `area`: a rectangular panel on whole pixels does, and its area
 * is then all one colour without drawing it.
 */
export function polygonCoversArea(area: Rect, polygon: readonly Point[]): boolean {
  if (area.width <= 0 || area.height <= 0) return false;
  let row = -1;
  let next = 0;
  let covered = 0;
  polygonRuns(area, polygon, (r, from, to) => {
    if (r !== row) {
      if (next >= area.width) covered++;
      row = r;
      next = 0;
    }
    if (from <= next) next = Math.max(next, to + 1);
  });
  if (next >= area.width) covered++;
  return covered === area.height;
}

/** Each row's runs of pixels (first and last column, left to right) whose centres the polygon covers. */
function polygonRuns(
  area: Rect,
  polygon: readonly Point[],
  run: (row: number, from: number, to: number) => void,
): void {
  if (polygon.length < 3) return;
  // One buffer for every row's crossings (at most one per edge): an array emptied and refilled per row would be
  // reallocated each time, thousands of rows a page.
  const xs = new Float64Array(polygon.length);
  for (let row = 0; row < area.height; row++) {
    const y = area.y + row + 0.5;
    let count = 0;
    for (let i = 0; i < polygon.length; i++) {
      const a = polygon[i]!;
      const b = polygon[(i + 1) % polygon.length]!;
      if (a.y <= y !== b.y <= y) xs[count++] = a.x + ((y - a.y) / (b.y - a.y)) * (b.x - a.x);
    }
    sortSmall(xs, count);
    for (let k = 0; k + 1 < count; k += 2) {
      const from = Math.max(0, Math.ceil(xs[k]! - area.x - 0.5));
      const to = Math.min(area.width - 1, Math.ceil(xs[k + 1]! - area.x - 0.5) - 1);
      if (to >= from) run(row, from, to);
    }
  }
}

/**
 * Sorts the first `count` numbers in place by insertion: a row of a panel crosses two or four edges, and a sort
 * with a comparator allocates a work array on every call (thousands of rows a page: megabytes of garbage).
 */
function sortSmall(xs: Float64Array, count: number): void {
  for (let i = 1; i < count; i++) {
    const v = xs[i]!;
    let j = i - 1;
    for (; j >= 0 && xs[j]! > v; j--) xs[j + 1] = xs[j]!;
    xs[j + 1] = v;
  }
}

/**
 * A closed polygon outline `width` pixels wide, centred on the edges (as a canvas stroke draws it); drawn into `out`
 * (clear, the area's size) when given.
 */
export function strokePolygon(
  area: Rect,
  polygon: readonly Point[],
  width: number,
  color: Rgba,
  out: Raster = createRaster(area.width, area.height),
): Raster {
  const half = width / 2;
  const half2 = half * half;
  const boxes = edgeBoxes(area, polygon, width);
  const words = pixelWords(out);
  const packed = packRgba(color);
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i]!;
    const b = polygon[(i + 1) % polygon.length]!;
    const { x0, x1, y0, y1 } = boxes[i]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy || 1;
    for (let row = y0; row <= y1; row++) strokeRow(words, packed, area, row, x0, x1, a, dx, dy, len2, half2);
  }
  return out;
}

/**
 * One row of one edge's stroke, `from` to `to` (inclusive). A function of its own per row, so that the engine
 * optimises it whole: a column loop nested in the row loop is compiled on its own in a cold worker (on-stack
 * replacement) and thrown back to the interpreter at the end of every row (Chromium's "exit from OSR'd inner loop").
 */
function strokeRow(
  words: Int32Array,
  packed: number,
  area: Rect,
  row: number,
  from: number,
  to: number,
  a: Point,
  dx: number,
  dy: number,
  len2: number,
  half2: number,
): void {
  // Sample a hair off the pixel centre, so that an odd width on a whole-pixel edge covers exactly `width` pixels.
  const py = area.y + row + 0.501;
  const start = row * area.width;
  for (let col = from; col <= to; col++) {
    if (onEdge(a, dx, dy, len2, area.x + col + 0.501, py, half2)) words[start + col] = packed;
  }
}

/** Whether the point lies within the stroke of the edge from `a` by (dx, dy): strokePolygon's test for a pixel. */
function onEdge(a: Point, dx: number, dy: number, len2: number, px: number, py: number, half2: number): boolean {
  const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / len2));
  const ex = a.x + t * dx - px;
  const ey = a.y + t * dy - py;
  return ex * ex + ey * ey <= half2;
}

/**
 * Whether `drawn` holds exactly what `strokePolygon(area, polygon, width, color)` would draw, given that it is clear
 * outside `cover` (`strokeCover` of the same outline): each pixel of the cover is tested as strokePolygon tests it,
 * at this area's own place on the page, so an outline that matches draws the same bytes. Lets panels of one size
 * share one border raster instead of drawing each into a buffer of its own.
 */
export function strokeMatches(
  drawn: Raster,
  area: Rect,
  polygon: readonly Point[],
  width: number,
  color: Rgba,
  cover: readonly Rect[],
): boolean {
  if (drawn.width !== area.width || drawn.height !== area.height) return false;
  const half = width / 2;
  const half2 = half * half;
  const boxes = edgeBoxes(area, polygon, width);
  const words = pixelWords(drawn);
  const packed = packRgba(color);
  for (const r of cover) {
    for (let row = r.y; row < r.y + r.height; row++) {
      if (!strokeRowMatches(words, packed, area, row, r.x, r.x + r.width, polygon, boxes, half2)) return false;
    }
  }
  return true;
}

/** strokeMatches for one row, columns `from` (inclusive) to `to` (exclusive): a function per row, as strokeRow. */
function strokeRowMatches(
  words: Int32Array,
  packed: number,
  area: Rect,
  row: number,
  from: number,
  to: number,
  polygon: readonly Point[],
  boxes: readonly { x0: number; x1: number; y0: number; y1: number }[],
  half2: number,
): boolean {
  const py = area.y + row + 0.501;
  for (let col = from; col < to; col++) {
    let inside = false;
    for (let i = 0; i < polygon.length && !inside; i++) {
      const box = boxes[i]!;
      if (row < box.y0 || row > box.y1 || col < box.x0 || col > box.x1) continue;
      const a = polygon[i]!;
      const b = polygon[(i + 1) % polygon.length]!;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      inside = onEdge(a, dx, dy, dx * dx + dy * dy || 1, area.x + col + 0.501, py, half2);
    }
    if (words[row * area.width + col] !== (inside ? packed : 0)) return false;
  }
  return true;
}

/** Each edge's box of pixels (inclusive, in the area's pixels) that strokePolygon samples: nothing outside is drawn. */
function edgeBoxes(
  area: Rect,
  polygon: readonly Point[],
  width: number,
): { x0: number; x1: number; y0: number; y1: number }[] {
  const half = width / 2;
  return polygon.map((a, i) => {
    const b = polygon[(i + 1) % polygon.length]!;
    return {
      x0: Math.max(0, Math.floor(Math.min(a.x, b.x) - half - area.x)),
      x1: Math.min(area.width - 1, Math.ceil(Math.max(a.x, b.x) + half - area.x)),
      y0: Math.max(0, Math.floor(Math.min(a.y, b.y) - half - area.y)),
      y1: Math.min(area.height - 1, Math.ceil(Math.max(a.y, b.y) + half - area.y)),
    };
  });
}

/**
 * Disjoint rectangles (in the area's pixels) holding every pixel `strokePolygon` can draw: between the rows where an
 * edge's box starts or ends the boxes that cross a row are the same, and their merged column ranges are one
 * rectangle each. A rectangular panel's outline is five bands; the clear inside, most of the raster, is in none, so
 * drawing the outline need not read it.
 */
export function strokeCover(area: Rect, polygon: readonly Point[], width: number): Rect[] {
  const boxes = edgeBoxes(area, polygon, width).filter((b) => b.x0 <= b.x1 && b.y0 <= b.y1);
  const breaks = [...new Set(boxes.flatMap((b) => [b.y0, b.y1 + 1]))].sort((p, q) => p - q);
  const out: Rect[] = [];
  for (let k = 0; k + 1 < breaks.length; k++) {
    const y = breaks[k]!;
    const height = breaks[k + 1]! - y;
    const ranges = boxes
      .filter((b) => b.y0 <= y && y <= b.y1)
      .map((b) => [b.x0, b.x1] as [number, number])
      .sort((p, q) => p[0] - q[0]);
    const merged: [number, number][] = [];
    for (const [from, to] of ranges) {
      const last = merged[merged.length - 1];
      if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
      else merged.push([from, to]);
    }
    for (const [from, to] of merged) out.push({ x: from, y, width: to - from + 1, height });
  }
  return out;
}

/** The smallest rectangle holding every pixel with alpha above zero, or null when all are transparent. */
export function opaqueBounds(r: Raster): Rect | null {
  const w32 = pixelWords(r);
  const w = r.width;
  const n = w32.length;
  // Rows are contiguous, so the first used pixel from the start and the last from the end give the first and last
  // rows in two flat scans; empty rows are most of a padded text raster, tested eight pixels per branch.
  let i = 0;
  for (const end8 = n - 7; i < end8; i += 8) {
    const any =
      w32[i]! | w32[i + 1]! | w32[i + 2]! | w32[i + 3]! | w32[i + 4]! | w32[i + 5]! | w32[i + 6]! | w32[i + 7]!;
    if ((any & ALPHA_MASK) !== 0) break;
  }
  while (i < n && (w32[i]! & ALPHA_MASK) === 0) i++;
  if (i === n) return null;
  let j = n - 1;
  for (; j >= i + 8; j -= 8) {
    const any =
      w32[j]! | w32[j - 1]! | w32[j - 2]! | w32[j - 3]! | w32[j - 4]! | w32[j - 5]! | w32[j - 6]! | w32[j - 7]!;
    if ((any & ALPHA_MASK) !== 0) break;
  }
  while ((w32[j]! & ALPHA_MASK) === 0) j--;
  const minY = Math.floor(i / w);
  const maxY = Math.floor(j / w);
  // Two used pixels: the columns lie between them at least.
  let minX = Math.min(i - minY * w, j - maxY * w);
  let maxX = Math.max(i - minY * w, j - maxY * w);
  for (let y = minY; y <= maxY; y++) {
    const row = y * w;
    let x = 0;
    for (; x + 8 <= minX; x += 8) {
      const k = row + x;
      const any =
        w32[k]! | w32[k + 1]! | w32[k + 2]! | w32[k + 3]! | w32[k + 4]! | w32[k + 5]! | w32[k + 6]! | w32[k + 7]!;
      if ((any & ALPHA_MASK) !== 0) break;
    }
    for (; x < minX; x++) {
      if ((w32[row + x]! & ALPHA_MASK) !== 0) {
        minX = x;
        break;
      }
    }
    let e = w - 1;
    for (; e - 8 >= maxX; e -= 8) {
      const k = row + e;
      const any =
        w32[k]! | w32[k - 1]! | w32[k - 2]! | w32[k - 3]! | w32[k - 4]! | w32[k - 5]! | w32[k - 6]! | w32[k - 7]!;
      if ((any & ALPHA_MASK) !== 0) break;
    }
    for (; e > maxX; e--) {
      if ((w32[row + e]! & ALPHA_MASK) !== 0) {
        maxX = e;
        break;
      }
    }
  }
  return { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}

export function cropRaster(r: Raster, rect: Rect): Raster {
  const out = createRaster(rect.width, rect.height);
  for (let y = 0; y < rect.height; y++) {
    const from = ((rect.y + y) * r.width + rect.x) * 4;
    out.data.set(r.data.subarray(from, from + rect.width * 4), y * rect.width * 4);
  }
  return out;
}

/** Pixels of another raster placed on the page, used as a clipping base: its alpha limits what is drawn over it. */
export interface ClipBase {
  raster: Raster;
  left: number;
  top: number;
  /** Every pixel of the base is opaque (a panel's area that fills its rectangle): it limits where, not how much. */
  opaque?: boolean;
}

/** One RGBA pixel as the signed word a little- or big-endian view of the bytes reads. */
export function packRgba(c: Rgba): number {
  return LITTLE_ENDIAN
    ? c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24)
    : (c[0] << 24) | (c[1] << 16) | (c[2] << 8) | c[3];
}

/** The pixels as one signed word each: signed, so that every value stays a small integer in V8 (no boxing). */
export function pixelWords(r: Raster): Int32Array {
  return new Int32Array(r.data.buffer, r.data.byteOffset, r.data.byteLength >> 2);
}

/**
 * The part of `dst` that `src` placed at (left, top) covers, cut to the clip base when one is given; null when that
 * is nothing. From whole numbers only (no ±Infinity), so the indices of the drawing loops stay small integers.
 */
export function drawArea(
  dst: Raster,
  src: Raster,
  left: number,
  top: number,
  clip?: ClipBase,
  within?: Rect,
): { x0: number; y0: number; x1: number; y1: number } | null {
  let x0 = Math.max(0, left);
  let y0 = Math.max(0, top);
  let x1 = Math.min(dst.width, left + src.width);
  let y1 = Math.min(dst.height, top + src.height);
  if (within) {
    x0 = Math.max(x0, left + within.x);
    y0 = Math.max(y0, top + within.y);
    x1 = Math.min(x1, left + within.x + within.width);
    y1 = Math.min(y1, top + within.y + within.height);
  }
  if (clip) {
    x0 = Math.max(x0, clip.left);
    y0 = Math.max(y0, clip.top);
    x1 = Math.min(x1, clip.left + clip.raster.width);
    y1 = Math.min(y1, clip.top + clip.raster.height);
  }
  return x1 <= x0 || y1 <= y0 ? null : { x0, y0, x1, y1 };
}

/**
 * Draws `src`, whose top-left sits at (left, top) of `dst`, over `dst` (source-over on straight alpha). `opacity`
 * scales the source; `clip`, when given, multiplies the source's alpha by the clip base's alpha (a clipping mask),
 * and nothing is drawn outside the base. Runs of opaque pixels are block copies and runs that draw nothing are
 * skipped, eight pixels per test: most of a page is opaque art inside its panel, or empty padding. `within` (in the
 * source's pixels) draws only that part of it, for a caller that knows the rest is clear.
 */
export function drawOver(
  dst: Raster,
  src: Raster,
  left: number,
  top: number,
  opacity = 1,
  clip?: ClipBase,
  within?: Rect,
): void {
  const area = drawArea(dst, src, left, top, clip, within);
  if (!area) return;
  const { x0, y0, x1, y1 } = area;
  const d = dst.data;
  const s = src.data;
  const d32 = pixelWords(dst);
  const s32 = pixelWords(src);
  // An opaque base only bounds the area: its alpha is 255 wherever it is read, so it need not be read.
  const k32 = clip && !clip.opaque ? pixelWords(clip.raster) : null;
  const kw = clip?.raster.width ?? 0;
  const scale = Math.max(0, Math.min(1, opacity));
  for (let y = y0; y < y1; y++) {
    const dRow = y * dst.width;
    const sRow = (y - top) * src.width - left;
    const kRow = clip ? (y - clip.top) * kw - clip.left : 0;
    let x = x0;
    while (x < x1) {
      // A run of opaque source over opaque clip (most of a page: art inside its panel) is one block copy.
      if (scale === 1) {
        let end = x;
        if (k32) {
          // Eight at a time while both are opaque (the alpha bits of the AND of all sixteen words).
          while (end + 8 <= x1) {
            const si = sRow + end;
            const ki = kRow + end;
            const all =
              s32[si]! &
              s32[si + 1]! &
              s32[si + 2]! &
              s32[si + 3]! &
              s32[si + 4]! &
              s32[si + 5]! &
              s32[si + 6]! &
              s32[si + 7]! &
              k32[ki]! &
              k32[ki + 1]! &
              k32[ki + 2]! &
              k32[ki + 3]! &
              k32[ki + 4]! &
              k32[ki + 5]! &
              k32[ki + 6]! &
              k32[ki + 7]!;
            if ((all & ALPHA_MASK) !== ALPHA_MASK) break;
            end += 8;
          }
          while (end < x1 && alphaOf(s32[sRow + end]!) === 255 && alphaOf(k32[kRow + end]!) === 255) end++;
        } else {
          while (end + 8 <= x1) {
            const si = sRow + end;
            const all =
              s32[si]! &
              s32[si + 1]! &
              s32[si + 2]! &
              s32[si + 3]! &
              s32[si + 4]! &
              s32[si + 5]! &
              s32[si + 6]! &
              s32[si + 7]!;
            if ((all & ALPHA_MASK) !== ALPHA_MASK) break;
            end += 8;
          }
          while (end < x1 && alphaOf(s32[sRow + end]!) === 255) end++;
        }
        if (end > x) {
          // A short run (a border's side, a row of lettering) word by word: a view per run for the block copy is
          // garbage for the collector, thousands of them a page.
          if (end - x < 64) for (let i = x; i < end; i++) d32[dRow + i] = s32[sRow + i]!;
          else d32.set(s32.subarray(sRow + x, sRow + end), dRow + x);
          x = end;
          continue;
        }
      }
      // Likewise skip a run that draws nothing: transparent source (outlines, padding) or outside the clip.
      let skip = x;
      while (skip + 8 <= x1) {
        const si = sRow + skip;
        const any =
          s32[si]! |
          s32[si + 1]! |
          s32[si + 2]! |
          s32[si + 3]! |
          s32[si + 4]! |
          s32[si + 5]! |
          s32[si + 6]! |
          s32[si + 7]!;
        if ((any & ALPHA_MASK) === 0) {
          skip += 8;
          continue;
        }
        if (!k32) break;
        const ki = kRow + skip;
        const clipAny =
          k32[ki]! |
          k32[ki + 1]! |
          k32[ki + 2]! |
          k32[ki + 3]! |
          k32[ki + 4]! |
          k32[ki + 5]! |
          k32[ki + 6]! |
          k32[ki + 7]!;
        if ((clipAny & ALPHA_MASK) !== 0) break;
        skip += 8;
      }
      if (k32) {
        while (skip < x1 && (alphaOf(s32[sRow + skip]!) === 0 || alphaOf(k32[kRow + skip]!) === 0)) skip++;
      } else {
        while (skip < x1 && alphaOf(s32[sRow + skip]!) === 0) skip++;
      }
      if (skip > x) {
        x = skip;
        continue;
      }
      const word = s32[sRow + x]!;
      let sa = alphaOf(word);
      const ka = k32 ? alphaOf(k32[kRow + x]!) : 255;
      sa = (sa * scale * ka) / 255;
      if (sa > 0) {
        const dp = dRow + x;
        const di = dp << 2;
        const da = d[di + 3]!;
        if (da === 0) {
          d32[dp] = word;
          d[di + 3] = sa;
        } else {
          const si = (sRow + x) << 2;
          const as = sa / 255;
          const ad = (da / 255) * (1 - as);
          const a = as + ad;
          d[di] = (s[si]! * as + d[di]! * ad) / a;
          d[di + 1] = (s[si + 1]! * as + d[di + 1]! * ad) / a;
          d[di + 2] = (s[si + 2]! * as + d[di + 2]! * ad) / a;
          d[di + 3] = a * 255;
        }
      }
      x++;
    }
  }
}

/** The alpha byte of a pixel read as one word. */
export function alphaOf(word: number): number {
  return LITTLE_ENDIAN ? word >>> 24 : word & 0xff;
}

/** Box-sampled downscale to fit inside `longest` pixels on the longest side (for thumbnails). */
export function downscale(r: Raster, longest: number): Raster {
  const scale = Math.min(1, longest / Math.max(r.width, r.height));
  const w = Math.max(1, Math.round(r.width * scale));
  const h = Math.max(1, Math.round(r.height * scale));
  const out = createRaster(w, h);
  // Sample a 3x3 grid of each output pixel's source box: enough for a 160 px preview and cheap on a full page. The
  // grid's columns (byte offsets in a row) and rows (byte offsets of the row) are worked out once, not per pixel.
  const cols = gridOffsets(r.width, w, 4);
  const rows = gridOffsets(r.height, h, r.width * 4);
  for (let y = 0; y < h; y++) downscaleRow(r.data, out.data, y, w, cols, rows);
  return out;
}

/** One row of downscale's output: a function per row, as strokeRow, so that a cold worker optimises it whole. */
function downscaleRow(
  d: Uint8ClampedArray,
  o: Uint8ClampedArray,
  y: number,
  w: number,
  cols: Int32Array,
  rows: Int32Array,
): void {
  for (let x = 0; x < w; x++) {
    let rr = 0;
    let gg = 0;
    let bb = 0;
    let aa = 0;
    for (let j = 0; j < 3; j++) {
      const row = rows[y * 3 + j]!;
      for (let i = 0; i < 3; i++) {
        const si = row + cols[x * 3 + i]!;
        const a = d[si + 3]!;
        rr += d[si]! * a;
        gg += d[si + 1]! * a;
        bb += d[si + 2]! * a;
        aa += a;
      }
    }
    const oi = (y * w + x) * 4;
    if (aa > 0) {
      o[oi] = rr / aa;
      o[oi + 1] = gg / aa;
      o[oi + 2] = bb / aa;
    }
    o[oi + 3] = aa / 9;
  }
}

/**
 * For each of `count` output cells along a side of `size` source pixels, the three sample positions (the centres of
 * the thirds of its source span), times `stride`.
 */
function gridOffsets(size: number, count: number, stride: number): Int32Array {
  const out = new Int32Array(count * 3);
  for (let c = 0; c < count; c++) {
    const s0 = Math.floor((c * size) / count);
    const s1 = Math.max(s0 + 1, Math.floor(((c + 1) * size) / count));
    for (let k = 0; k < 3; k++)
      out[c * 3 + k] = Math.min(size - 1, s0 + Math.floor(((s1 - s0) * (k + 0.5)) / 3)) * stride;
  }
  return out;
}

/** Fills a rectangle of `dst` (cut to it) with one pixel value. */
export function fillRect(dst: Raster, rect: Rect, color: Rgba): void {
  const x0 = Math.max(0, rect.x);
  const x1 = Math.min(dst.width, rect.x + rect.width);
  if (x1 <= x0) return;
  const words = pixelWords(dst);
  const packed = packRgba(color);
  for (let y = Math.max(0, rect.y); y < Math.min(dst.height, rect.y + rect.height); y++) {
    words.fill(packed, y * dst.width + x0, y * dst.width + x1);
  }
}

/** Multiplies every alpha by `opacity` (0..1): how an imported layer's opacity becomes part of its pixels. */
export function bakeOpacity(r: Raster, opacity: number): void {
  if (opacity >= 1) return;
  for (let i = 3; i < r.data.length; i += 4) r.data[i] = r.data[i]! * opacity;
}
