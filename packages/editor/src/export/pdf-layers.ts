// A PDF page as layers (issue 23 item 2, docs/decisions/export.md "PDF"): a picture shown larger than its pixels is
// embedded at its own resolution and drawn through its placement, so the file never upsamples it; everything else
// is composed into page rasters at the setup's dpi, as the PNG export composes it. The page's stacking order is kept
// by cutting the page into runs: the layers under the first such picture make the opaque page image, each later run
// of layers is a transparent raster (with an SMask) between the pictures, and a layer with a blend mode above a
// picture is a raster of its own, blended by the PDF (ExtGState /BM) with what lies under it, picture included.
import type { BlendMode, Size } from '@koma/domain';
import { adjustImage } from './adjust.ts';
import { drawBlended } from './blend.ts';
import { layerPixels } from './psd.ts';
import type { PagePlan, PlanNode, PlanRaster } from './plan-types.ts';
import type { PixelPool } from './pool.ts';
import { createRaster, drawOver, opaqueBounds, type ClipBase, type Point, type Raster, type Rect } from './raster.ts';
import type { BandedRaster, PagePixels } from './banded.ts';
import type { PdfMatrix } from './pdf-text.ts';

/** One layer of a PDF page over its page image, in drawing order. */
export type PdfLayer =
  | {
      kind: 'raster';
      /** Page-aligned pixels (their top-left is the page's); only `crop` of them is written. */
      pixels: PagePixels;
      crop: Rect;
      /** Drawn with this blend mode (its opacity is in the pixels' alpha). */
      blendMode?: BlendMode;
    }
  | {
      kind: 'image';
      /** The picture at its own resolution, upright, adjustments applied. */
      pixels: Raster;
      /** The unit square (x right, y down: the pixels' top-left at (0, 0)) to page pixels. */
      matrix: PdfMatrix;
      /** The panel outline it is clipped to, in page pixels. */
      clip?: Point[];
      opacity: number;
      blendMode: BlendMode;
    };

export type PdfInk = 'colour' | 'grey' | 'screentone';

/** A raster of the plan in drawing order, with its visibility and what it is clipped to. */
interface Drawn {
  node: PlanRaster;
  hidden: boolean;
  /** The clipping base of a clipped raster (the nearest non-clipping raster below it in its group). */
  base?: PlanRaster;
  /** Some raster is clipped to this one. */
  isBase: boolean;
}

function drawingOrder(nodes: readonly PlanNode[]): Drawn[] {
  const out: Drawn[] = [];
  const visit = (list: readonly PlanNode[], hidden: boolean) => {
    let base: Drawn | undefined;
    for (const n of list) {
      if (n.kind === 'group') {
        visit(n.children, hidden || n.hidden);
        base = undefined;
        continue;
      }
      const entry: Drawn = { node: n, hidden: hidden || n.hidden, isBase: false };
      if (n.clipping) {
        if (base) {
          entry.base = base.node;
          base.isBase = true;
          // As the composite has it: a layer clipped to a hidden one is not drawn.
          entry.hidden ||= base.hidden;
        }
      } else base = entry;
      out.push(entry);
    }
  };
  visit(nodes, false);
  return out;
}

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The pictures of a page the PDF embeds at their own resolution, by plan key, with the pixel size to embed: every
 * visible picture whose source has fewer pixels than its box covers on the page (the page image would upsample it),
 * at min(source, box) on each axis. Left in the page image, at the page's resolution: a picture the page image
 * holds without upsampling; one clipped to anything but a panel (the clip would be a raster) or that other layers are
 * clipped to; on a one-ink screentone page, everything (the page is screened as one 1-bit raster); in greyscale, a
 * picture with a blend mode or under a layer with one (a blend of greys is not the grey of a blend).
 */
export function pdfImageSizes(
  plan: PagePlan,
  sourceSize: (node: PlanRaster) => Size | null,
  ink: PdfInk,
): Map<string, Size> {
  const out = new Map<string, Size>();
  if (ink === 'screentone') return out;
  const order = drawingOrder(plan.nodes);
  order.forEach(({ node, hidden, base, isBase }, i) => {
    if (node.role !== 'image' || hidden || !node.placed || isBase) return;
    if (node.clipping && !(base?.role === 'panelArea' && base.polygon && base.polygon.length >= 3)) return;
    const source = sourceSize(node);
    if (!source || source.width < 1 || source.height < 1) return;
    const [a, b, c, d] = node.placed.matrix;
    const covered = {
      width: node.placed.width * Math.hypot(a, b),
      height: node.placed.height * Math.hypot(c, d),
    };
    // Half a pixel of slack: a box that rounds to the source's size is not upsampled.
    if (covered.width <= source.width + 0.5 && covered.height <= source.height + 0.5) return;
    if (ink === 'grey') {
      if ((node.blendMode ?? 'normal') !== 'normal') return;
      const blendedAbove = order
        .slice(i + 1)
        .some((m) => !m.hidden && (m.node.blendMode ?? 'normal') !== 'normal' && overlaps(m.node.rect, node.rect));
      if (blendedAbove) return;
    }
    out.set(node.key, {
      width: Math.max(1, Math.min(source.width, Math.round(covered.width))),
      height: Math.max(1, Math.min(source.height, Math.round(covered.height))),
    });
  });
  return out;
}

export interface PdfPageLayers {
  /**
   * The opaque page image: the background and every layer under the first picture drawn at its own resolution;
   * banded when asked for (composed a band at a time as it is written).
   */
  pixels: PagePixels;
  /**
   * The rest of the page in drawing order. Lazily composed: a raster's pixels are reused for the next run once the
   * iteration moves on, so the consumer writes each layer before asking for the next.
   */
  layers: Iterable<PdfLayer>;
}

/**
 * Composes a page for the PDF from the plan and the caller's rasters (by plan key), with `sources` (by plan key) the
 * pictures drawn at their own resolution (upright, `pdfImageSizes`) instead of into the page. The same composition
 * as the PNG export's (buildPsd) without the watermark, which the PDF writer draws over everything.
 */
export function composePdfPage(
  plan: PagePlan,
  rasters: ReadonlyMap<string, Raster>,
  sources: ReadonlyMap<string, Raster>,
  pool?: PixelPool,
  options: { banded?: boolean } = {},
): PdfPageLayers {
  // Banded only over the visible white page, which makes it opaque without looking at a pixel.
  const first = plan.nodes[0];
  const banded = !!options.banded && first?.kind === 'raster' && first.role === 'background' && !first.hidden;
  const parts = pageParts(plan, rasters, sources, pool, banded);
  const image = parts.next();
  if (image.done || image.value.kind !== 'raster') throw new Error('A PDF page starts with its page image');
  return { pixels: image.value.pixels, layers: { [Symbol.iterator]: () => parts } };
}

function* pageParts(
  plan: PagePlan,
  rasters: ReadonlyMap<string, Raster>,
  sources: ReadonlyMap<string, Raster>,
  pool: PixelPool | undefined,
  banded: boolean,
): Generator<PdfLayer, void, undefined> {
  const take = () => (pool ? pool.take(plan.width, plan.height) : createRaster(plan.width, plan.height));
  /** Banded: what the page image draws, kept to be drawn band by band when the writer reads it. */
  const bandOps: ((band: Raster, y0: number) => void)[] = [];
  const whole = banded ? null : take();
  const page: PagePixels = whole ?? bandedPage(plan, bandOps);
  const full = { x: 0, y: 0, width: plan.width, height: plan.height };
  /** Where layers are drawn: the page image (when whole) until the first picture of its own, then a transparent run. */
  let target: Raster | null = whole;
  let onPage = true;
  let run: Raster | null = null;
  let drawn = false;
  const clear = (r: Raster) => r.data.fill(0);

  function* endRun(): Generator<PdfLayer, void, undefined> {
    if (onPage) {
      yield { kind: 'raster', pixels: page, crop: full };
      onPage = false;
      target = run ??= take();
      return;
    }
    if (!drawn || !target) return;
    const used = opaqueBounds(target);
    if (used) yield { kind: 'raster', pixels: target, crop: used };
    clear(target);
    drawn = false;
  }

  /** Draws a layer on the page image or the run: at once, or, on a banded page image, band by band later. */
  const paint = (raster: Raster, rect: Rect, mode: BlendMode, opacity: number, clip: ClipBase | undefined) => {
    if (target) return drawBlended(target, raster, rect.x, rect.y, mode, opacity, clip);
    bandOps.push((band, y0) =>
      drawBlended(band, raster, rect.x, rect.y - y0, mode, opacity, clip && { ...clip, top: clip.top - y0 }),
    );
  };

  interface Base {
    raster: Raster | null;
    left: number;
    top: number;
    hidden: boolean;
    /** The background: a layer clipped to it is clipped to the whole page, i.e. not at all. */
    whole?: boolean;
  }
  function* walk(nodes: readonly PlanNode[], parentHidden: boolean): Generator<PdfLayer, void, undefined> {
    let base: Base = { raster: null, left: 0, top: 0, hidden: false };
    let polygon: Point[] | undefined;
    for (const node of nodes) {
      if (node.kind === 'group') {
        yield* walk(node.children, parentHidden || node.hidden);
        base = { raster: null, left: 0, top: 0, hidden: false };
        polygon = undefined;
        continue;
      }
      const hidden = parentHidden || node.hidden || (node.clipping && base.hidden);
      const mode = node.blendMode ?? 'normal';
      const opacity = node.opacity ?? 1;
      const source = sources.get(node.key);
      if (source) {
        if (!hidden && node.placed) {
          yield* endRun();
          const { matrix, width, height } = node.placed;
          const pixels = node.adjust
            ? adjustImage(source, node.adjust.params, { x: 0, y: 0, width: source.width, height: source.height })
            : source;
          yield {
            kind: 'image',
            pixels,
            // Unit square → the box in its own units → the page.
            matrix: [
              matrix[0] * width,
              matrix[1] * width,
              matrix[2] * height,
              matrix[3] * height,
              matrix[4],
              matrix[5],
            ],
            ...(node.clipping && polygon ? { clip: polygon } : {}),
            opacity,
            blendMode: mode,
          };
        }
        // Nothing is clipped to a picture drawn on its own (pdfImageSizes).
        if (!node.clipping) {
          base = { raster: null, left: 0, top: 0, hidden };
          polygon = undefined;
        }
        continue;
      }
      if (node.role === 'background' && onPage) {
        // White filled in place: the PSD's shared white Background raster would be one more page of memory, held
        // by the worker for the whole export, only to be copied here. (A banded page is white under every band.)
        if (!hidden && target) target.data.fill(255);
        base = { raster: null, left: 0, top: 0, hidden, whole: true };
        polygon = undefined;
        continue;
      }
      const { raster, rect } = layerPixels(node, rasters, plan, pool);
      if (!hidden && raster.width > 0) {
        const clip = node.clipping
          ? base.whole
            ? undefined
            : base.raster
              ? { ...base, raster: base.raster }
              : null
          : undefined;
        if (clip !== null) {
          if (!onPage && mode !== 'normal') {
            // Blended with what lies under it, pictures included: the PDF blends it, as a raster of its own.
            yield* endRun();
            const own = (run ??= take());
            drawOver(own, raster, rect.x, rect.y, opacity, clip);
            const used = opaqueBounds(own);
            if (used) yield { kind: 'raster', pixels: own, crop: used, blendMode: mode };
            clear(own);
          } else {
            paint(raster, rect, mode, opacity, clip);
            drawn = true;
          }
        }
      }
      if (!node.clipping) {
        base = { raster, left: rect.x, top: rect.y, hidden: parentHidden || node.hidden };
        polygon = node.role === 'panelArea' ? node.polygon : undefined;
      }
    }
  }

  yield* walk(plan.nodes, false);
  if (onPage) yield { kind: 'raster', pixels: page, crop: full };
  else yield* endRun();
}

/** The page image of `plan` as bands: the white page, then each of `ops` (filled in as the page is walked). */
function bandedPage(plan: PagePlan, ops: readonly ((band: Raster, y0: number) => void)[]): BandedRaster {
  return {
    width: plan.width,
    height: plan.height,
    opaque: true,
    drawRows(y0, band) {
      band.data.fill(255);
      for (const op of ops) op(band, y0);
    },
  };
}
