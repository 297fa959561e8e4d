// A chapter as one PDF for print or reading: each page an embedded image at the page's print size, with the PDF's
// page boxes set (MediaBox ⊇ BleedBox ⊇ TrimBox, ISO 32000-1 §14.11.2) and the book's reading direction in the
// viewer preferences (/Direction /R2L, §12.2 Table 150) so viewers lay spreads out the right way for manga.
import type { PDFName } from 'pdf-lib';
import {
  PDFDocument,
  ReadingDirection,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  clip,
  closePath,
  endPath,
  lineTo,
  moveTo,
  rgb,
  setFillingGrayscaleColor,
  setGraphicsState,
  type PDFFont,
  type PDFOperator,
  type PDFRef,
} from 'pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import { BLEND_NAMES, drawTextRuns, multiplyMatrix, type PdfMatrix, type PdfTextRun } from './pdf-text.ts';
import type { PdfLayer } from './pdf-layers.ts';
import { tagSubsetFonts } from './subset-tag.ts';
import { PdfStreamSerializer, type PdfSink } from './pdf-stream.ts';
import type { BlendMode, ReadingOrder } from '@koma/domain';
import type { Raster, Rect } from './raster.ts';
import { isBanded, type PagePixels } from './banded.ts';
import type { ScreenOptions } from './halftone.ts';
import { watermarkStencils } from './pdf-watermark.ts';
import { deflateBands } from './deflate-bands.ts';
import { ExportError } from './psd.ts';

/** Points per inch in PDF user space. */
const PT_PER_INCH = 72;
/** Print resolution of colour pages in this industry (the page setups of issue 23 carry their own). */
export const PRINT_DPI = 350;
/** Length of a crop mark and its gap from the trim, in points (about 5 mm and 3 mm). */
const MARK_LENGTH = 14;
const MARK_OFFSET = 9;

export interface PdfPage {
  /** Encoded page image (PNG or JPEG) covering trim plus bleed. */
  bytes: Uint8Array;
  kind: 'png' | 'jpg';
  /** Pixel size of the image. */
  width: number;
  height: number;
  /** Lettering drawn as vector text over the image (the image then carries no glyphs of its own). */
  texts?: PdfTextRun[];
}

export interface PdfOptions {
  title: string;
  readingOrder: ReadingOrder;
  /** Pixels per inch the page images are printed at. */
  dpi?: number;
  /** Bleed in pixels on every side of the image (0: the image is the trim). */
  bleedPx?: number;
  /** Draw crop marks outside the bleed (the page grows to hold them). */
  cropMarks?: boolean;
  /** Font files (WOFF, TTF or OTF) by the name text segments use; each is embedded as a subset when first used. */
  fonts?: ReadonlyMap<string, Uint8Array>;
  /** The free tier's watermark, drawn over everything on each page (pdf-watermark.ts). */
  watermark?: boolean;
  /** The one-ink screen a screentone page is printed with: the watermark then lies on its dots, in black and white. */
  screen?: ScreenOptions;
}

/** The boxes of one page in points, origin bottom-left as PDF has it. */
export interface PageBoxes {
  media: { x: number; y: number; width: number; height: number };
  bleed: { x: number; y: number; width: number; height: number };
  trim: { x: number; y: number; width: number; height: number };
}

/** Where trim, bleed and media lie for an image of `width`×`height` px at `dpi` with `bleedPx` of bleed. */
export function pageBoxes(width: number, height: number, dpi: number, bleedPx: number, cropMarks: boolean): PageBoxes {
  const pt = (px: number) => (px * PT_PER_INCH) / dpi;
  const margin = cropMarks ? MARK_OFFSET + MARK_LENGTH : 0;
  const bleed = { x: margin, y: margin, width: pt(width), height: pt(height) };
  const b = pt(bleedPx);
  return {
    media: { x: 0, y: 0, width: bleed.width + 2 * margin, height: bleed.height + 2 * margin },
    bleed,
    trim: { x: bleed.x + b, y: bleed.y + b, width: bleed.width - 2 * b, height: bleed.height - 2 * b },
  };
}

/** A page as the pixels the exporter composed (RGBA), written into the PDF without a PNG in between. */
export interface PdfRasterPage {
  /** The page image (opaque, the page's size), whole or drawn band by band as it is written. */
  pixels: PagePixels;
  /** Drawn over the page image in order (pdf-layers.ts): pictures at their own resolution, rasters between them. */
  layers?: Iterable<PdfLayer>;
  /** Written in DeviceGray, one channel (each pixel's Rec. 601 luminance) instead of three. */
  grey?: boolean;
  texts?: PdfTextRun[];
}

/**
 * Writes a chapter's PDF one page at a time: each page's image is compressed and handed to the sink as it is added,
 * and its pixels are let go, so a chapter holds one page and the small objects (pages, fonts), not every page's
 * image nor the whole file (the caller hands pages over as it draws them, and the sink takes the bytes away).
 */
export class ChapterPdfWriter {
  private readonly embedded = new Map<string, PDFFont>();
  /** The watermark's stencils by page size, written once and shared by every page of that size. */
  private readonly states = new Map<string, PDFRef>();
  /** The band of the image being compressed, reused band after band and image after image. */
  private readonly scratch = new Scratch();
  private readonly stencils = new Map<string, { ref: PDFRef; grey: number; state: PDFRef | null }[]>();
  private readonly out: PdfStreamSerializer;

  private constructor(
    private readonly pdf: PDFDocument,
    private readonly options: PdfOptions,
    sink: PdfSink,
  ) {
    this.out = new PdfStreamSerializer(pdf.context, sink);
  }

  /** A writer handing the file's bytes to `sink` in order, as they are final. */
  static async create(options: PdfOptions, sink: PdfSink): Promise<ChapterPdfWriter> {
    // The watermark's dots are cut on the screen's grid and placed by the page's dpi: two resolutions would cross
    // the page's own dots.
    const dpi = options.dpi ?? PRINT_DPI;
    if (options.screen && options.screen.dpi !== dpi) {
      throw new ExportError(`screen.dpi (${options.screen.dpi}) must be the pages' dpi (${dpi})`);
    }
    const pdf = await PDFDocument.create();
    pdf.registerFontkit(fontkit);
    pdf.setTitle(options.title, { showInWindowTitleBar: true });
    pdf.setCreator('Koma');
    pdf.setProducer('Koma (pdf-lib)');
    const preferences = pdf.catalog.getOrCreateViewerPreferences();
    preferences.setReadingDirection(
      options.readingOrder === 'RIGHT_TO_LEFT' ? ReadingDirection.R2L : ReadingDirection.L2R,
    );
    return new ChapterPdfWriter(pdf, options, sink);
  }

  /** Adds the next page in reading order (a right-to-left book is marked so, not reordered). */
  async addPage(source: PdfPage | PdfRasterPage): Promise<void> {
    const { options, pdf } = this;
    const dpi = options.dpi ?? PRINT_DPI;
    const width = 'pixels' in source ? source.pixels.width : source.width;
    const height = 'pixels' in source ? source.pixels.height : source.height;
    const boxes = pageBoxes(width, height, dpi, options.bleedPx ?? 0, options.cropMarks ?? false);
    const page = pdf.addPage([boxes.media.width, boxes.media.height]);
    page.setBleedBox(boxes.bleed.x, boxes.bleed.y, boxes.bleed.width, boxes.bleed.height);
    page.setTrimBox(boxes.trim.x, boxes.trim.y, boxes.trim.width, boxes.trim.height);
    if ('pixels' in source) {
      const k = PT_PER_INCH / dpi;
      const toPdf: PdfMatrix = [k, 0, 0, -k, boxes.bleed.x, boxes.bleed.y + boxes.bleed.height];
      const grey = source.grey ?? false;
      const full = { x: 0, y: 0, width, height };
      await this.drawRaster(page, toPdf, { kind: 'raster', pixels: source.pixels, crop: full }, grey);
      for (const layer of source.layers ?? []) {
        if (layer.kind === 'raster') await this.drawRaster(page, toPdf, layer, grey);
        else await this.drawPicture(page, toPdf, layer, grey, full);
      }
    } else {
      const image = source.kind === 'png' ? await pdf.embedPng(source.bytes) : await pdf.embedJpg(source.bytes);
      // pdf-lib decodes a PNG to raw pixels when it is added and keeps them until save(); writing each page's image
      // now lets those pixels go, so a chapter peaks at one decoded page instead of all of them.
      await image.embed();
      page.drawImage(image, boxes.bleed);
    }
    if (source.texts?.length) {
      for (const run of source.texts) {
        for (const { font } of run.segments) {
          const bytes = options.fonts?.get(font);
          if (bytes && !this.embedded.has(font)) this.embedded.set(font, await pdf.embedFont(bytes, { subset: true }));
        }
      }
      const k = PT_PER_INCH / dpi;
      drawTextRuns(page, source.texts, [k, 0, 0, -k, boxes.bleed.x, boxes.bleed.y + boxes.bleed.height], this.embedded);
    }
    // Last of what the page shows, so that nothing (vector lettering included) lies over the mark.
    if (options.watermark) page.pushOperators(...this.watermarkOperators(page, width, height, boxes.bleed));
    if (options.cropMarks) drawCropMarks(page, boxes.trim);
  }

  /** A page-aligned raster's `crop`, drawn where it lies on the page; written out at once. */
  private async drawRaster(
    page: Page,
    toPdf: PdfMatrix,
    layer: Extract<PdfLayer, { kind: 'raster' }>,
    grey: boolean,
  ): Promise<void> {
    const { crop } = layer;
    if (crop.width <= 0 || crop.height <= 0) return;
    const image = await writeRaster(this.pdf, this.out, layer.pixels, grey, crop, false, this.scratch);
    const ops: PDFOperator[] = [pushGraphicsState()];
    if (layer.blendMode && layer.blendMode !== 'normal')
      ops.push(setGraphicsState(this.state(page, 1, layer.blendMode)));
    ops.push(
      concatTransformationMatrix(...unitSquare(toPdf, [crop.width, 0, 0, crop.height, crop.x, crop.y])),
      drawObject(page.node.newXObject('Im', image)),
      popGraphicsState(),
    );
    page.pushOperators(...ops);
  }

  /**
   * A picture at its own resolution through its placement, inside the page image's area and its panel's outline,
   * with its opacity and blend mode; written out at once.
   */
  private async drawPicture(
    page: Page,
    toPdf: PdfMatrix,
    layer: Extract<PdfLayer, { kind: 'image' }>,
    grey: boolean,
    area: Rect,
  ): Promise<void> {
    const { pixels } = layer;
    if (pixels.width <= 0 || pixels.height <= 0) return;
    // Drawn larger than its pixels: viewers smooth it, as the canvas does, instead of showing square pixels.
    const whole = { x: 0, y: 0, width: pixels.width, height: pixels.height };
    const image = await writeRaster(this.pdf, this.out, pixels, grey, whole, true, this.scratch);
    const at = (p: { x: number; y: number }) => ({
      x: toPdf[0] * p.x + toPdf[2] * p.y + toPdf[4],
      y: toPdf[1] * p.x + toPdf[3] * p.y + toPdf[5],
    });
    const path = (points: readonly { x: number; y: number }[]) => [
      ...points.map((p, i) => (i === 0 ? moveTo(at(p).x, at(p).y) : lineTo(at(p).x, at(p).y))),
      closePath(),
      clip(),
      endPath(),
    ];
    const { x, y, width, height } = area;
    const ops: PDFOperator[] = [
      pushGraphicsState(),
      // The page image's area: a picture reaching past it stays off the crop marks' margin.
      ...path([
        { x, y },
        { x: x + width, y },
        { x: x + width, y: y + height },
        { x, y: y + height },
      ]),
    ];
    if (layer.clip && layer.clip.length >= 3) ops.push(...path(layer.clip));
    if (layer.opacity < 1 || layer.blendMode !== 'normal') {
      ops.push(setGraphicsState(this.state(page, layer.opacity, layer.blendMode)));
    }
    ops.push(
      concatTransformationMatrix(...unitSquare(toPdf, layer.matrix)),
      drawObject(page.node.newXObject('Im', image)),
      popGraphicsState(),
    );
    page.pushOperators(...ops);
  }

  /** An ExtGState of an opacity and a blend mode, one per pair in the file. */
  private state(page: Page, opacity: number, mode: BlendMode): PDFName {
    const key = `${opacity}:${mode}`;
    let ref = this.states.get(key);
    if (!ref) {
      const { context } = this.pdf;
      ref = context.register(context.obj({ Type: 'ExtGState', ca: opacity, CA: opacity, BM: BLEND_NAMES[mode] }));
      this.states.set(key, ref);
    }
    return page.node.newExtGState('GS', ref);
  }

  /** The watermark over a `width`×`height` px page image placed in `box` (points). */
  private watermarkOperators(page: Page, width: number, height: number, box: PageBoxes['bleed']): PDFOperator[] {
    const { context } = this.pdf;
    const key = `${width}x${height}`;
    let stencils = this.stencils.get(key);
    if (!stencils) {
      stencils = watermarkStencils(width, height, this.options.screen).map((s) => {
        const ref = context.register(
          context.flateStream(s.bits, {
            Type: 'XObject',
            Subtype: 'Image',
            Width: s.width,
            Height: s.height,
            ImageMask: true,
            BitsPerComponent: 1,
            // A set bit paints (the default decode paints the clear ones).
            Decode: [1, 0],
          }),
        );
        this.out.writeNow(ref);
        const state = s.opacity < 1 ? context.register(context.obj({ Type: 'ExtGState', ca: s.opacity })) : null;
        if (state) this.out.writeNow(state);
        return { ref, grey: s.grey, state };
      });
      this.stencils.set(key, stencils);
    }
    return stencils.flatMap(({ ref, grey, state }) => [
      pushGraphicsState(),
      ...(state ? [setGraphicsState(page.node.newExtGState('GS', state))] : []),
      setFillingGrayscaleColor(grey),
      concatTransformationMatrix(box.width, 0, 0, box.height, box.x, box.y),
      drawObject(page.node.newXObject('Wm', ref)),
      popGraphicsState(),
    ]);
  }

  /** Writes what is left (pages, fonts subset to the glyphs used, the cross-reference table): the file is whole. */
  async finish(): Promise<void> {
    await tagSubsetFonts(this.pdf, this.embedded.values());
    // What pdf-lib's save() would embed first (fonts, images added through its own API).
    await this.pdf.flush();
    this.out.finish();
  }
}

/** Builds the PDF from all its pages at once, as one array (see ChapterPdfWriter to hand pages over one by one). */
export async function buildChapterPdf(
  pages: readonly (PdfPage | PdfRasterPage)[],
  options: PdfOptions,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const writer = await ChapterPdfWriter.create(options, (chunk) => chunks.push(chunk));
  for (const page of pages) await writer.addPage(page);
  await writer.finish();
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** Bytes of converted rows handed to the compressor at a time (a few hundred rows of a page). */
const BAND_BYTES = 1 << 19;

/**
 * The `crop` of RGBA pixels as a Flate-compressed image XObject (ISO 32000-1 §8.9.5), written out now: colour in
 * DeviceRGB, or DeviceGray as each pixel's Rec. 601 luminance (the greyscale ink), and an SMask only when some pixel
 * is not opaque, as pdf-lib does for a PNG, minus decoding one first. Converted and compressed a band of rows at a
 * time (deflate-bands.ts), so it costs the page no copy of its own size.
 */
async function writeRaster(
  pdf: PDFDocument,
  out: PdfStreamSerializer,
  raster: PagePixels,
  grey: boolean,
  crop: Rect,
  interpolate: boolean,
  scratch: Scratch,
): Promise<PDFRef> {
  const { context } = pdf;
  const image = {
    Type: 'XObject',
    Subtype: 'Image',
    Width: crop.width,
    Height: crop.height,
    BitsPerComponent: 8,
    Filter: 'FlateDecode',
    ...(interpolate ? { Interpolate: true } : {}),
  };
  const ref = context.nextRef();
  const smask = (isBanded(raster) ? raster.opaque : opaque(raster, crop)) ? null : context.nextRef();
  const dict = context.obj({
    ...image,
    ColorSpace: grey ? 'DeviceGray' : 'DeviceRGB',
    ...(smask ? { SMask: smask } : {}),
  });
  await out.writeStreamed(ref, context.nextRef(), dict, (emit) =>
    deflateBands(bands(raster, crop, grey ? 'grey' : 'rgb', scratch), emit),
  );
  if (smask) {
    const alpha = context.obj({ ...image, ColorSpace: 'DeviceGray' });
    await out.writeStreamed(smask, context.nextRef(), alpha, (emit) =>
      deflateBands(bands(raster, crop, 'alpha', scratch), emit),
    );
  }
  return ref;
}

/** Whether every pixel of the crop is opaque. */
function opaque(raster: Raster, crop: Rect): boolean {
  const { data } = raster;
  for (let y = 0; y < crop.height; y++) {
    const row = ((crop.y + y) * raster.width + crop.x) * 4 + 3;
    const end = row + crop.width * 4;
    for (let p = row; p < end; p += 4) if (data[p] !== 255) return false;
  }
  return true;
}

/**
 * The crop's rows as one channel set (RGB, grey or alpha), a band of rows at a time in the scratch buffer; a banded
 * raster draws each band's rows into the scratch's RGBA band first.
 */
function* bands(
  raster: PagePixels,
  crop: Rect,
  channels: 'rgb' | 'grey' | 'alpha',
  scratch: Scratch,
): Generator<Uint8Array<ArrayBuffer>> {
  const { width, height } = crop;
  const rowBytes = width * (channels === 'rgb' ? 3 : 1);
  const rows = Math.max(1, Math.floor(BAND_BYTES / rowBytes));
  const band = scratch.take(Math.min(rows, height) * rowBytes);
  for (let y0 = 0; y0 < height; y0 += rows) {
    const count = Math.min(rows, height - y0);
    // Where the band's first row is in `data`: the raster's own row, or row 0 of the freshly drawn band.
    let data: Uint8ClampedArray;
    let first: number;
    if (isBanded(raster)) {
      const drawn = { width: raster.width, height: count, data: scratch.rgba(count * raster.width * 4) };
      raster.drawRows(crop.y + y0, drawn);
      data = drawn.data;
      first = -y0;
    } else {
      data = raster.data;
      first = crop.y;
    }
    let o = 0;
    for (let y = y0; y < y0 + count; y++) {
      let p = ((first + y) * raster.width + crop.x) * 4;
      const end = p + width * 4;
      if (channels === 'rgb') {
        for (; p < end; p += 4) {
          band[o++] = data[p]!;
          band[o++] = data[p + 1]!;
          band[o++] = data[p + 2]!;
        }
      } else if (channels === 'grey') {
        for (; p < end; p += 4) band[o++] = Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!);
      } else {
        for (p += 3; p < end; p += 4) band[o++] = data[p]!;
      }
    }
    yield band.subarray(0, o);
  }
}

/** One growing buffer for the band being converted, image after image (a page's worth of it was fresh memory per page). */
class Scratch {
  private buffer = new Uint8Array(0);
  private band = new Uint8ClampedArray(0);

  take(length: number): Uint8Array<ArrayBuffer> {
    if (this.buffer.length < length) this.buffer = new Uint8Array(length);
    return this.buffer.subarray(0, length);
  }

  /** The RGBA rows a banded raster draws a band into, before they are converted into `take`'s buffer. */
  rgba(length: number): Uint8ClampedArray<ArrayBuffer> {
    if (this.band.length < length) this.band = new Uint8ClampedArray(length);
    return this.band.subarray(0, length);
  }
}

/** The matrix drawing an image (its unit square, y up, first row at the top) as `m` places a y-down unit square. */
function unitSquare(toPdf: PdfMatrix, m: PdfMatrix): PdfMatrix {
  return multiplyMatrix(multiplyMatrix(toPdf, m), [1, 0, 0, -1, 0, 1]);
}

type Page = ReturnType<PDFDocument['addPage']>;

/** Corner marks on the trim lines, outside the bleed, in registration black. */
function drawCropMarks(page: Page, trim: PageBoxes['trim']): void {
  const color = rgb(0, 0, 0);
  const x0 = trim.x;
  const x1 = trim.x + trim.width;
  const y0 = trim.y;
  const y1 = trim.y + trim.height;
  const outer = MARK_OFFSET + MARK_LENGTH;
  const line = (sx: number, sy: number, ex: number, ey: number) =>
    page.drawLine({ start: { x: sx, y: sy }, end: { x: ex, y: ey }, thickness: 0.25, color });
  const media = page.getMediaBox();
  for (const x of [x0, x1]) {
    line(x, Math.max(0, y0 - outer), x, Math.max(0, y0 - MARK_OFFSET));
    line(x, Math.min(media.height, y1 + MARK_OFFSET), x, Math.min(media.height, y1 + outer));
  }
  for (const y of [y0, y1]) {
    line(Math.max(0, x0 - outer), y, Math.max(0, x0 - MARK_OFFSET), y);
    line(Math.min(media.width, x1 + MARK_OFFSET), y, Math.min(media.width, x1 + outer), y);
  }
}
