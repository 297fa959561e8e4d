import { initializeCanvas, writePsdUint8Array, type Layer, type Psd, type LayerTextData } from 'ag-psd';
import jpeg from 'jpeg-js';
import { PSD_MAX_SIDE, PSD_PANEL_STROKE_COLOR, PSD_PANEL_STROKE_PX, PSD_THUMBNAIL_LONGEST_SIDE } from '@koma/domain';
import { adjustImage } from './adjust.ts';
import { clampName, type PagePlan, type PlanNode, type PlanRaster } from './plan.ts';
import {
  createRaster,
  cropRaster,
  downscale,
  drawOver,
  fillPolygon,
  fillRect,
  opaqueBounds,
  parseHexColor,
  pixelWords,
  polygonCoversArea,
  strokeCover,
  strokeMatches,
  strokePolygon,
  type Raster,
  type Rect,
} from './raster.ts';
import { markRaster, needsWatermark, type Plan } from './watermark.ts';
import { drawBlended } from './blend.ts';
import type { PixelPool } from './pool.ts';
import { pixelHash } from './pixel-hash.ts';
import { komaXmp, type KomaPsdMeta } from './koma-meta.ts';

/** Why the builder or writer refused a page; the browser words each in the user's language. */
export type ExportErrorCode =
  | 'compressionLevel'
  | 'pageSize'
  | 'layerPixelsMissing'
  | 'layerPixelsSize'
  | 'noValidSize'
  | 'needsPsb'
  | 'bitDepth'
  | 'compositeSize'
  | 'pixelsAndChildren'
  | 'textTooLong'
  | 'placedLayerGuid'
  | 'layerBounds'
  | 'writeFailed';

/**
 * An export that cannot be written, with a message meant for the user in English and, from the builder, a code
 * and the values it names so that the browser can word it in the user's language.
 */
export class ExportError extends Error {
  override readonly name = 'ExportError';
  constructor(
    message: string,
    readonly code?: ExportErrorCode,
    readonly values: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

let canvasReady = false;
/** ag-psd asks for a canvas to hold pixels; plain ImageData-shaped objects do in Node and in workers. */
export function ensurePsdPixels(): void {
  if (canvasReady) return;
  canvasReady = true;
  const noCanvas = (): never => {
    throw new Error('No canvas here: read with useImageData');
  };
  const imageData = (width: number, height: number) => ({
    width,
    height,
    data: new Uint8ClampedArray(width * height * 4),
    colorSpace: 'srgb',
  });
  // ag-psd types these with DOM classes, which this package (built for Node and workers) does not load.
  initializeCanvas(noCanvas as never, imageData as never);
}

export interface PsdBuildOptions {
  /** The user's plan as the server reports it; 'free' adds the watermark (editor.md §1). */
  plan: Plan;
  /**
   * Adds the 160 px JPEG thumbnail (generation.md §9) encoded with jpeg-js; on by default. Browser code passes
   * false and calls attachThumbnail with a JPEG from OffscreenCanvas instead (jpeg-js reaches for Node's Buffer).
   */
  thumbnail?: boolean;
  onProgress?: (done: number, total: number) => void;
  /**
   * Where the composite and the panel rasters come from, for a job that writes page after page: the caller
   * reclaims the pool once a page is written (and its composite no longer read).
   */
  pool?: PixelPool;
}

export interface BuiltPsd {
  psd: Psd;
  /** The flattened page, watermark included: the PSD's composite image, and the picture a PNG export shows. */
  composite: Raster;
  layerCount: number;
}

/**
 * Turns a page plan and the caller's rasters (by plan key) into an ag-psd document: groups per panel, clipping
 * layers for what is clipped to a panel, editable text layers carrying their rasterised text as pixels, hidden
 * layers hidden, and a composite image computed here so that viewers which only read the composite see the page.
 */
export function buildPsd(plan: PagePlan, rasters: ReadonlyMap<string, Raster>, options: PsdBuildOptions): BuiltPsd {
  const total = countRasters(plan.nodes);
  let done = 0;
  let layerCount = 0;
  const pool = options.pool;
  const composite = pool ? pool.take(plan.width, plan.height) : createRaster(plan.width, plan.height);
  // The free tier's mark is in the pixels of every layer it crosses (no layer of its own that hiding would take
  // away); the composite, drawn from those layers, carries it wherever there is art.
  const watermark = needsWatermark(options.plan);
  // Panels of one size share one border raster when their outlines draw the same pixels (a grid of equal panels):
  // only read, like the white page, so not when the free tier's mark is drawn into each layer's own pixels.
  const sharing: Sharing = { borders: watermark ? undefined : [] };

  /** Clip base for clipping layers: the last non-clipping layer's pixels in this group. */
  interface Base {
    raster: Raster | null;
    left: number;
    top: number;
    hidden: boolean;
    opaque: boolean;
  }

  // Every PSD layer gets an id (Photoshop keeps them), by which the Koma block says what the layer shows.
  const metaNodes: KomaPsdMeta['nodes'] = {};
  const convert = (nodes: readonly PlanNode[], parentHidden: boolean): Layer[] => {
    const out: Layer[] = [];
    let base: Base = { raster: null, left: 0, top: 0, hidden: false, opaque: false };
    for (const node of nodes) {
      layerCount++;
      const id = layerCount;
      metaNodes[id] = {
        layerId: node.layerId,
        role: node.kind === 'group' ? 'group' : node.role,
        ...(node.kind === 'raster' && node.turn ? { turn: node.turn } : {}),
      };
      if (node.kind === 'group') {
        out.push({
          id,
          name: clampName(node.name),
          hidden: node.hidden,
          opened: true,
          children: convert(node.children, parentHidden || node.hidden),
        });
        base = { raster: null, left: 0, top: 0, hidden: false, opaque: false };
        continue;
      }
      const { raster, rect, white: opaque, cover } = pixelsFor(node, rasters, plan, watermark, pool, sharing);
      if (node.role === 'shape' && node.layerId && plan.restorable?.[node.layerId]) {
        metaNodes[id].hash = pixelHash(raster);
      }
      const layer: Layer = {
        id,
        name: clampName(node.name),
        hidden: node.hidden,
        left: rect.x,
        top: rect.y,
        right: rect.x + rect.width,
        bottom: rect.y + rect.height,
      };
      if (raster.width > 0 && raster.height > 0) layer.imageData = raster;
      if (node.clipping) layer.clipping = true;
      if (node.opacity !== undefined && node.opacity !== 1) layer.opacity = node.opacity;
      if (node.blendMode && node.blendMode !== 'normal') layer.blendMode = node.blendMode;
      if (node.text) layer.text = textData(node);
      if (node.text?.stroke) {
        const { color, size } = node.text.stroke;
        layer.effects = {
          stroke: [
            {
              enabled: true,
              present: true,
              showInDialog: true,
              position: 'outside',
              fillType: 'color',
              blendMode: 'normal',
              opacity: 1,
              size: { units: 'Pixels', value: size },
              color: hexToRgb(color),
            },
          ],
        };
      }
      out.push(layer);

      const hidden = parentHidden || node.hidden || (node.clipping && base.hidden);
      const mode = node.blendMode ?? 'normal';
      const opacity = node.opacity ?? 1;
      if (!hidden && raster.width > 0) {
        // The composite starts as the page: the shared white page is a fill (no 16 MB read), a marked one a copy.
        if (node.role === 'background' && done === 0) {
          if (raster === white) pixelWords(composite).fill(-1);
          else composite.data.set(raster.data);
        } else if (!node.clipping && opaque && mode === 'normal' && opacity === 1) {
          // An all-white layer at full opacity (a panel's area) is a fill, and an outline is drawn where it can be
          // (its clear inside unread): the same bytes as drawing them whole.
          fillRect(composite, rect, [255, 255, 255, 255]);
        } else if (!node.clipping && cover && mode === 'normal') {
          for (const part of cover) drawOver(composite, raster, rect.x, rect.y, opacity, undefined, part);
        } else if (!node.clipping) drawBlended(composite, raster, rect.x, rect.y, mode, opacity);
        else if (base.raster) {
          drawBlended(composite, raster, rect.x, rect.y, mode, opacity, { ...base, raster: base.raster });
        }
      }
      if (!node.clipping) base = { raster, left: rect.x, top: rect.y, hidden: parentHidden || node.hidden, opaque };
      options.onProgress?.(++done, total);
    }
    return out;
  };

  const children = convert(plan.nodes, false);

  const psd: Psd = { width: plan.width, height: plan.height, children, imageData: composite };
  if (options.thumbnail !== false) psd.imageResources = { thumbnailRaw: thumbnailOf(composite) };
  if (plan.restorable) {
    const meta: KomaPsdMeta = {
      format: 'koma-psd',
      version: 1,
      area: plan.area,
      scaleX: plan.scaleX,
      scaleY: plan.scaleY,
      nodes: metaNodes,
      layers: plan.restorable,
    };
    psd.imageResources = { ...psd.imageResources, xmpMetadata: komaXmp(meta) };
  }
  return { psd, composite, layerCount };
}

export interface PsdWriteOptions {
  /**
   * 0 writes RLE (what Photoshop itself writes, read by every tool); 1 to 9 writes zip-compressed channels.
   * ag-psd deflates at one fixed level, so 1–9 all mean "zip" (generation.md §9 names levels 0 to 9).
   */
  compression?: number;
}

/** Writes the document, as PSB when a side exceeds 30000 px; ag-psd's errors become ExportError messages. */
export function writePsdBytes(psd: Psd, options: PsdWriteOptions = {}): Uint8Array {
  const level = options.compression ?? 0;
  if (!Number.isInteger(level) || level < 0 || level > 9) {
    throw new ExportError(
      `The compression level must be a whole number from 0 to 9, not ${level}.`,
      'compressionLevel',
      {
        level,
      },
    );
  }
  if (!(psd.width > 0 && psd.height > 0) || !Number.isFinite(psd.width) || !Number.isFinite(psd.height)) {
    throw new ExportError(`The page size ${psd.width}×${psd.height} cannot be exported.`, 'pageSize', {
      width: psd.width,
      height: psd.height,
    });
  }
  const psb = psd.width > PSD_MAX_SIDE || psd.height > PSD_MAX_SIDE;
  ensurePsdPixels();
  try {
    return writePsdUint8Array(psd, { psb, compress: level > 0, noBackground: true });
  } catch (error) {
    throw psdWriteError(error);
  }
}

/** The file extension the size calls for. */
export function psdExtension(width: number, height: number): 'psd' | 'psb' {
  return width > PSD_MAX_SIDE || height > PSD_MAX_SIDE ? 'psb' : 'psd';
}

const WRITER_RULES: [RegExp, ExportErrorCode, string][] = [
  [/Invalid document size/i, 'noValidSize', 'The page has no valid size to export.'],
  [
    /too large|max is 30000/i,
    'needsPsb',
    'The page is larger than 30000×30000 pixels: it must be saved as a PSB file.',
  ],
  [/bitsPerChannel|bit ?depth|bitDepth/i, 'bitDepth', 'Only 8 bits per channel can be written to a PSD file.'],
  [
    /same size as document/i,
    'compositeSize',
    'The flattened picture does not match the page size; nothing was written.',
  ],
  [
    /both '(canvas|imageData)' and 'children'/i,
    'pixelsAndChildren',
    'A layer cannot hold both pixels and other layers.',
  ],
  [/String too long/i, 'textTooLong', 'A name or text in the file is longer than 255 characters.'],
  [/GUID/i, 'placedLayerGuid', 'A placed layer needs a GUID id.'],
  [/dimentions|dimensions/i, 'layerBounds', 'A layer’s pixels do not match its bounds.'],
];

/** An ag-psd error as an ExportError the user can act on (the writer rules of generation.md §5). */
export function psdWriteError(error: unknown): ExportError {
  const message = error instanceof Error ? error.message : String(error);
  const hit = WRITER_RULES.find(([pattern]) => pattern.test(message));
  return hit
    ? new ExportError(hit[2], hit[1])
    : new ExportError(`The PSD file could not be written: ${message}`, 'writeFailed', { message });
}

/** A sentence for the user from an ag-psd error (the writer rules of generation.md §5). */
export function explainPsdError(error: unknown): string {
  return psdWriteError(error).message;
}

function countRasters(nodes: readonly PlanNode[]): number {
  return nodes.reduce((n, node) => n + (node.kind === 'group' ? countRasters(node.children) : 1), 0);
}

/**
 * The white page of the Background layer, one per page size and shared by every build: it is only read (by the
 * writer and the composite), and a whole comic's pages are one size, so each page after the first skips 16 MB of
 * fresh memory (a 1700×2400 page) and its fill. One worker runs one export job, so this lives as long as the job.
 */
let white: Raster | undefined;
function whitePage(width: number, height: number): Raster {
  if (white?.width !== width || white.height !== height) white = createRaster(width, height, [255, 255, 255, 255]);
  return white;
}

/** The border rasters of one build, by their cover (size and where the outline may draw). */
type BorderShelf = { key: string; raster: Raster }[];

/** What one PSD build's layers may share: the white page (always) and equal borders (not in a free build). */
interface Sharing {
  borders: BorderShelf | undefined;
}

/**
 * A panel area that fills its rectangle: all white, so a view of the shared white page (only read, as the page is)
 * instead of a buffer of its own drawn white — six fewer fresh buffers (≈ 13 MB) on the bench's page.
 */
function whiteArea(plan: PagePlan, width: number, height: number): Raster {
  const page = whitePage(plan.width, plan.height);
  return { width, height, data: page.data.subarray(0, width * height * 4) };
}

function pixelsFor(
  node: PlanRaster,
  rasters: ReadonlyMap<string, Raster>,
  plan: PagePlan,
  watermark: boolean,
  pool: PixelPool | undefined,
  sharing: Sharing,
): { raster: Raster; rect: Rect; white: boolean; cover?: Rect[] } {
  const out = layerPixels(node, rasters, plan, pool, sharing);
  if (!watermark || out.raster.width === 0) return { ...out, white: out.white === true };
  // The caller's raster is never changed: it may be drawn again (another format, another plan); nor is the shared
  // white page, nor a view of it.
  const shared = out.raster === rasters.get(node.key) || out.raster.data.buffer === white?.data.buffer;
  const raster = shared ? { ...out.raster, data: out.raster.data.slice() } : out.raster;
  markRaster(raster, out.rect.x, out.rect.y, plan.width, plan.height);
  // The mark changes pixels: no longer all white, nor only where the outline is.
  return { raster, rect: out.rect, white: false };
}

/**
 * A plan raster's pixels and where they sit: the builder's own (background, panels) or the caller's, adjusted. With
 * `sharing` (the PSD build), a panel area that fills its rectangle is a view of the shared white page and equal
 * borders share a raster; without it (the PDF, which never holds the white page), each has a buffer of its own.
 */
export function layerPixels(
  node: PlanRaster,
  rasters: ReadonlyMap<string, Raster>,
  plan: PagePlan,
  pool: PixelPool | undefined,
  sharing?: Sharing,
): { raster: Raster; rect: Rect; white?: boolean; cover?: Rect[] } {
  const local = { x: node.rect.x, y: node.rect.y, width: node.rect.width, height: node.rect.height };
  let raster: Raster;
  // Every pixel opaque white (the page, a panel area that fills its rectangle): a fill to draw, an opaque clip base.
  let white = false;
  let cover: Rect[] | undefined;
  switch (node.role) {
    case 'background':
      raster = whitePage(plan.width, plan.height);
      white = true;
      break;
    case 'panelArea': {
      const polygon = node.polygon ?? [];
      white = !!sharing && polygonCoversArea(local, polygon);
      raster = white
        ? whiteArea(plan, local.width, local.height)
        : fillPolygon(local, polygon, [255, 255, 255, 255], pool?.take(local.width, local.height));
      break;
    }
    case 'panelBorder': {
      const polygon = node.polygon ?? [];
      const width = node.stroke?.width ?? PSD_PANEL_STROKE_PX;
      const color = parseHexColor(node.stroke?.color ?? PSD_PANEL_STROKE_COLOR);
      cover = strokeCover(local, polygon, width);
      const key = JSON.stringify(cover);
      const borders = sharing?.borders;
      const same = borders?.find((b) => b.key === key && strokeMatches(b.raster, local, polygon, width, color, cover!));
      raster = same?.raster ?? strokePolygon(local, polygon, width, color, pool?.take(local.width, local.height));
      if (!same) borders?.push({ key, raster });
      break;
    }
    default: {
      const given = rasters.get(node.key);
      if (!given) {
        throw new ExportError(`The pixels of layer “${node.name}” are missing.`, 'layerPixelsMissing', {
          name: node.name,
        });
      }
      if (given.width !== local.width || given.height !== local.height) {
        throw new ExportError(
          `The pixels of layer “${node.name}” are ${given.width}×${given.height}, expected ${local.width}×${local.height}.`,
          'layerPixelsSize',
          { name: node.name, got: `${given.width}×${given.height}`, expected: `${local.width}×${local.height}` },
        );
      }
      // An image's adjustments, placed by its whole box (the raster may be cut at the page edge).
      raster = node.adjust
        ? adjustImage(given, node.adjust.params, {
            x: node.adjust.box.x - local.x,
            y: node.adjust.box.y - local.y,
            width: node.adjust.box.width,
            height: node.adjust.box.height,
          })
        : given;
    }
  }
  if (!node.trim) return { raster, rect: local, white, cover };
  const used = opaqueBounds(raster);
  if (!used) return { raster: createRaster(0, 0), rect: { x: local.x, y: local.y, width: 0, height: 0 } };
  return {
    raster: cropRaster(raster, used),
    rect: { x: local.x + used.x, y: local.y + used.y, width: used.width, height: used.height },
  };
}

function hexToRgb(color: string): { r: number; g: number; b: number } {
  const [r, g, b] = parseHexColor(color);
  return { r, g, b };
}

/** The editable text; its rasterised copy is the layer's own pixels, which tools without a text engine show. */
function textData(node: PlanRaster): LayerTextData {
  const t = node.text!;
  return {
    text: t.value,
    // The text box in its own frame (turned and flipped as on the canvas), so Photoshop wraps and turns the text
    // where the editor did.
    transform: t.frame ? [...t.frame.matrix] : [1, 0, 0, 1, t.box.x, t.box.y],
    shapeType: 'box',
    boxBounds: t.frame ? [0, 0, t.frame.width, t.frame.height] : [0, 0, t.box.width, t.box.height],
    antiAlias: 'smooth',
    orientation: t.vertical ? 'vertical' : 'horizontal',
    style: {
      font: { name: t.fontName },
      fontSize: t.fontSize,
      fauxBold: t.bold,
      fauxItalic: t.italic,
      fillColor: hexToRgb(t.color),
    },
    paragraphStyle: { justification: t.align },
  };
}

/** The flattened page shrunk to a longest side of 160 px and laid on white: what the PSD thumbnail shows. */
export function thumbnailPixels(composite: Raster): Raster {
  const small = downscale(composite, PSD_THUMBNAIL_LONGEST_SIDE);
  const d = small.data;
  for (let i = 0; i < d.length; i += 4) {
    const a = d[i + 3]! / 255;
    d[i] = d[i]! * a + 255 * (1 - a);
    d[i + 1] = d[i + 1]! * a + 255 * (1 - a);
    d[i + 2] = d[i + 2]! * a + 255 * (1 - a);
    d[i + 3] = 255;
  }
  return small;
}

/** Puts an already-encoded JPEG thumbnail into the document (a browser worker encodes it with OffscreenCanvas). */
export function attachThumbnail(psd: Psd, jpegBytes: Uint8Array, width: number, height: number): void {
  psd.imageResources = { ...psd.imageResources, thumbnailRaw: { width, height, data: jpegBytes } };
}

/** The thumbnail encoded in pure JavaScript (jpeg-js), for Node. */
function thumbnailOf(composite: Raster): { width: number; height: number; data: Uint8Array } {
  const small = thumbnailPixels(composite);
  const encoded = jpeg.encode({ width: small.width, height: small.height, data: small.data }, 85);
  return { width: small.width, height: small.height, data: new Uint8Array(encoded.data) };
}
