// Webtoon strips: the pages of a chapter stacked top to bottom at the platform's width and cut into slices no taller
// than the platform allows, each cut placed in a gutter or page margin where one exists, so that no panel or speech
// bubble is split across two files.
import { boundsOf } from '@koma/domain';
import type { DocState } from '../store/state.ts';

/** Width of a webtoon strip: the column width of Naver Webtoon / LINE Webtoon / WEBTOON Canvas uploads. */
export const WEBTOON_WIDTH = 800;
/** Default maximum slice height; WEBTOON Canvas takes up to 1280 px per image. */
export const WEBTOON_SLICE_HEIGHT = 1280;
/** A cut is not placed closer than this share of the maximum to the previous one, so no slice is a sliver. */
const MIN_SLICE_SHARE = 0.25;

/** A vertical span [top, bottom) in strip pixels. */
export interface Span {
  top: number;
  bottom: number;
}

/** Where each page sits in the strip and the scale it is drawn at. */
export interface StackedPage {
  top: number;
  height: number;
  scale: number;
}

/** Pages of a chapter one under the other, each scaled to `width`. */
export function stackPages(pages: readonly { width: number; height: number }[], width = WEBTOON_WIDTH): StackedPage[] {
  let top = 0;
  return pages.map((p) => {
    const scale = width / p.width;
    const height = Math.round(p.height * scale);
    const placed = { top, height, scale };
    top += height;
    return placed;
  });
}

/** What a cut must not cross on one page, in page units: its panels, and its text layers with their bubble tails. */
export function pageObstacles(doc: DocState, pageRootId: string): Span[] {
  const spans: Span[] = [];
  const visit = (id: string) => {
    const layer = doc.layers[id];
    if (!layer || !layer.visible) return;
    if (layer.type === 'GROUP') layer.children.forEach(visit);
    else if (layer.type === 'PANEL') {
      const box = boundsOf(layer.data.vertices);
      spans.push({ top: box.y, bottom: box.y + box.height });
    } else if (layer.type === 'TEXT') {
      const t = layer.transform;
      const bubble = layer.data.backgroundType === 'SPEECH_BUBBLE' && layer.data.hasTail;
      const reach = bubble ? layer.data.tailLength + layer.data.backgroundBorderSize : 0;
      spans.push({ top: t.y - reach, bottom: t.y + t.size.height + reach });
    }
  };
  const root = doc.layers[pageRootId];
  if (root?.type === 'GROUP') root.children.forEach(visit);
  return spans;
}

/** The obstacles of every page in strip pixels (rounded outwards). */
export function stripObstacles(perPage: readonly Span[][], stacked: readonly StackedPage[]): Span[] {
  return perPage.flatMap((spans, i) => {
    const page = stacked[i];
    if (!page) return [];
    return spans.map((s) => ({
      top: Math.max(page.top, Math.floor(page.top + s.top * page.scale)),
      bottom: Math.min(page.top + page.height, Math.ceil(page.top + s.bottom * page.scale)),
    }));
  });
}

/** Blocked spans merged and sorted, so the gaps between them are the places a cut may go. */
function merge(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.bottom > s.top).sort((a, b) => a.top - b.top);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    // Spans that only touch stay apart: the row where one ends and the next begins crosses neither.
    if (last && s.top < last.bottom) last.bottom = Math.max(last.bottom, s.bottom);
    else out.push({ ...s });
  }
  return out;
}

export interface SliceResult {
  /** The slices from top to bottom, covering [0, total) without gaps or overlaps. */
  slices: Span[];
  /** How many cuts had to go through a panel or bubble because no gap was within reach. */
  forced: number;
}

/**
 * Cuts a strip of `total` pixels into slices of at most `maxHeight`. From each slice's top, the cut goes in the
 * lowest free gap that keeps the slice within the limit (in the gap's middle when that fits, so both slices keep
 * half of the gutter); only when no gap lies between a quarter of the limit and the limit does a cut go through
 * content, at the limit, and it is counted.
 */
export function sliceStrip(total: number, maxHeight: number, obstacles: readonly Span[]): SliceResult {
  if (!(maxHeight >= 1)) throw new RangeError('maxHeight must be at least 1 pixel');
  const blocked = merge(obstacles);
  const free: Span[] = [];
  let y = 0;
  for (const b of blocked) {
    if (b.top >= y) free.push({ top: y, bottom: b.top });
    y = Math.max(y, b.bottom);
  }
  if (y < total) free.push({ top: y, bottom: total });

  const slices: Span[] = [];
  let forced = 0;
  let top = 0;
  while (total - top > maxHeight) {
    const limit = top + maxHeight;
    const floor = top + Math.max(1, Math.floor(maxHeight * MIN_SLICE_SHARE));
    let cut: number | null = null;
    for (const gap of free) {
      if (gap.bottom < floor || gap.top > limit) continue;
      const middle = Math.round((gap.top + gap.bottom) / 2);
      const candidate = Math.min(limit, middle >= floor ? middle : Math.min(gap.bottom, limit));
      if (candidate >= floor && candidate >= gap.top && (cut === null || candidate > cut)) cut = candidate;
    }
    if (cut === null) {
      cut = limit;
      forced++;
    }
    slices.push({ top, bottom: cut });
    top = cut;
  }
  if (total > top) slices.push({ top, bottom: total });
  return { slices, forced };
}

/** The file name of slice `index` of `count`, zero-padded so names sort in reading order. */
export function sliceFileName(base: string, index: number, count: number, extension: string): string {
  return `${base} ${String(index + 1).padStart(Math.max(2, String(count).length), '0')}.${extension}`;
}
