import { readPsd, type Layer, type Psd } from 'ag-psd';
import { BLEND_MODES, type BlendMode, type Layer as KomaLayer } from '@koma/domain';
import { layerKind } from '../kinds/lookup.ts';
import { ensurePsdPixels } from './psd.ts';
import { readKomaXmp, type KomaPsdMeta, type KomaTurn } from './koma-meta.ts';
import { textLayerOf, type PsdToDoc } from './read-text.ts';
import { bakeOpacity, type Raster, type Rect } from './raster.ts';
import { turnedLayerRect, unturnPixels } from './unturn.ts';
import type { Turn } from '../kinds/placement.ts';
import { ImportError } from './import-error.ts';
import { pixelHash } from './pixel-hash.ts';

/** A raster layer of an imported PSD, ready to become an image layer: opacity and mask are in its alpha. */
export interface ImportedLayer {
  /** The layer's name, prefixed with its groups' names ("Group / Layer"). */
  name: string;
  left: number;
  top: number;
  visible: boolean;
  pixels: Raster;
}

/** Why a layer was not imported, or came in changed; the browser words it in the user's language by this code. */
export type ImportNoteCode =
  | 'adjustment'
  | 'smartObject'
  | 'shape'
  | 'empty'
  | 'not8bit'
  | 'blendMode'
  | 'clipping'
  | 'text'
  | 'effects'
  | 'watermark'
  | 'repainted'
  | 'uploadFailed';

/** Something of the file that did not become a layer, or came in changed; shown to the user, never dropped silently. */
export interface ImportNote {
  name: string;
  code: ImportNoteCode;
  /** What the reason names: the adjustment type, the blend mode, the upload error. */
  detail?: string;
  /** The reason in English. */
  reason: string;
}

/**
 * One layer to add, bottom first, in document units: pixels to upload (an index into `layers`), or a layer in
 * saved form (a panel or text). `key` names it for `clipTo` and for the references other layers hold (a panel's
 * neighbours, a tail's target); the command that adds them gives each a fresh id.
 */
export type ImportItem =
  | {
      kind: 'pixels';
      key: string;
      clipTo: string | null;
      layer: number;
      rect: { x: number; y: number; width: number; height: number };
      opacity: number;
      blendMode: BlendMode;
      /** A turned or mirrored image of Koma's own file: `rect` is its box before the turn, the pixels upright. */
      turn?: Turn;
    }
  | { kind: 'layer'; key: string; clipTo: string | null; layer: KomaLayer };

export interface PsdImport {
  width: number;
  height: number;
  /** Whether the file is Koma's own (it carried a Koma block): the comic is rebuilt rather than layered on. */
  koma: boolean;
  /** The raster layers' pixels, bottom first, as the editor stacks layers. */
  layers: ImportedLayer[];
  /** What to add, bottom first. */
  items: ImportItem[];
  /** Ids a Koma page's layers referred to that did not come back; references to them are dropped. */
  missing?: string[];
  /** What was not imported at all. */
  skipped: ImportNote[];
  /** What was imported, but not as it was (blend modes, clipping, live text). */
  changed: ImportNote[];
}

export { ImportError, type ImportErrorCode } from './import-error.ts';

const COLOR_MODES: Record<number, string> = {
  0: 'bitmap',
  1: 'grayscale',
  2: 'indexed',
  3: 'RGB',
  4: 'CMYK',
  7: 'multichannel',
  8: 'duotone',
  9: 'Lab',
};

/** Where an imported PSD lands: a comic page's size (the file is scaled down to fit it), or null (pixel size). */
export interface ImportTarget {
  width: number;
  height: number;
}

/**
 * Reads a PSD or PSB for import. Another tool's file: groups are flattened, each raster layer keeping its place in
 * the stack, its groups' names as a prefix, their visibility and opacity (baked into alpha), and type layers become
 * editable TEXT layers. Koma's own file (it carries a Koma block, koma-meta.ts) comes back as the comic it was:
 * panels and text from their saved form, art with its opacity, blend mode and clipping. Only 8-bit RGB and
 * grayscale documents are read; anything else, or a damaged Koma block, fails with ImportError.
 */
export function readPsdForImport(bytes: Uint8Array, target: ImportTarget | null = null): PsdImport {
  checkHeader(bytes);
  ensurePsdPixels();
  let psd: Psd;
  try {
    psd = readPsd(bytes, {
      useImageData: true,
      skipCompositeImageData: true,
      skipThumbnail: true,
      skipLinkedFilesData: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ImportError(`This PSD file could not be read: ${message}`, 'unreadable', { message });
  }
  const meta = readKomaXmp(psd.imageResources?.xmpMetadata);
  const result: PsdImport = {
    width: psd.width,
    height: psd.height,
    koma: meta !== null,
    layers: [],
    items: [],
    skipped: [],
    changed: [],
  };
  if (meta) readKomaLayers(psd, meta, result);
  else readForeignLayers(psd, target, result);
  return result;
}

/** Another tool's PSD: today's flattened layers, plus type layers as TEXT. */
function readForeignLayers(psd: Psd, target: ImportTarget | null, result: PsdImport): void {
  const scale = target ? Math.min(1, target.width / psd.width, target.height / psd.height) : 1;
  const place: PsdToDoc = { scale, x: 0, y: 0 };
  const walk = (layers: readonly Layer[], prefix: string, hidden: boolean, opacity: number) => {
    for (const layer of layers) {
      const name = prefix + (layer.name ?? 'Layer');
      const layerHidden = hidden || !!layer.hidden;
      const layerOpacity = opacity * (layer.opacity ?? 1);
      if (layer.children) {
        walk(layer.children, `${name} / `, layerHidden, layerOpacity);
        continue;
      }
      if (layer.text && typeof layer.text.text === 'string') {
        const key = `psd:${result.items.length}`;
        const text = textLayerOf(key, { ...layer, name, hidden: layerHidden }, layer.text, place);
        if (layerOpacity !== 1) text.opacity = Math.min(1, Math.max(0, layerOpacity));
        result.items.push({ kind: 'layer', key, clipTo: null, layer: text });
        continue;
      }
      const pixels = pixelsOf(layer, name, result);
      if (!pixels) continue;
      bakeOpacity(pixels, layerOpacity * (layer.fillOpacity ?? 1));
      if (layer.blendMode && layer.blendMode !== 'normal' && layer.blendMode !== 'pass through') {
        const detail = layer.blendMode;
        result.changed.push({ name, code: 'blendMode', detail, reason: `blend mode “${detail}” imported as normal` });
      }
      const note = (code: ImportNoteCode, reason: string) => result.changed.push({ name, code, reason });
      if (layer.clipping) note('clipping', 'clipping mask not kept: the layer is whole');
      if (layer.effects) note('effects', 'layer effects (shadows, strokes…) not imported');
      pushPixels(result, layer, name, !layerHidden, pixels, place, { opacity: 1, blendMode: 'normal', clipTo: null });
    }
  };
  walk(psd.children ?? [], '', false, 1);
}

/** The roles of a Koma PSD's layers that the rebuilt layers draw themselves (a panel's area and frame, a bubble). */
const DRAWN_BY_RESTORED = new Set(['panelArea', 'panelBorder', 'textBackground']);

/**
 * Koma's own PSD. A PSD layer the block names as a restorable layer's comes back as that layer (a panel group as
 * the panel, with what is clipped inside it clipped to it); the page background and what a restored layer draws
 * itself are left out; every other layer comes in as pixels with its own opacity, blend mode and clipping. Layers
 * added in another tool (no id in the block) come in as pixels too, except an old-style "Watermark" layer.
 */
function readKomaLayers(psd: Psd, meta: KomaPsdMeta, result: PsdImport): void {
  const place: PsdToDoc = { scale: 1 / meta.scaleX, x: meta.area.x, y: meta.area.y };
  const scaleY = meta.scaleX / meta.scaleY;
  const used = new Set<string>();
  const keyFor = (layerId: string | null) => {
    const key = layerId && !used.has(layerId) ? layerId : `psd:${result.items.length}`;
    used.add(key);
    return key;
  };
  const restore = (layerId: string | null | undefined): KomaLayer | null => {
    if (!layerId) return null;
    const saved = meta.layers[layerId];
    return saved && layerKind(saved.type).export.restore ? structuredClone(saved) : null;
  };
  const walk = (layers: readonly Layer[], prefix: string, hidden: boolean, clipBase: string | null) => {
    let base = clipBase;
    for (const layer of layers) {
      const entry = layer.id !== undefined ? meta.nodes[String(layer.id)] : undefined;
      const name = prefix + (layer.name ?? 'Layer');
      const layerHidden = hidden || !!layer.hidden;
      const restored = restore(entry?.layerId);
      if (layer.children) {
        if (restored) {
          const key = keyFor(restored.id);
          restored.visible = restored.visible && !layerHidden;
          result.items.push({ kind: 'layer', key, clipTo: null, layer: restored });
          // What the group holds is clipped to the panel, as the group's clipping base (its area) says.
          walk(layer.children, '', layerHidden, key);
          base = null;
        } else {
          walk(layer.children, `${name} / `, layerHidden, null);
        }
        continue;
      }
      if (!entry && /^watermark$/i.test(layer.name ?? '')) {
        result.skipped.push({ name, code: 'watermark', reason: 'the watermark is not art' });
        continue;
      }
      if (entry?.role === 'background' || (entry && DRAWN_BY_RESTORED.has(entry.role) && entry.layerId)) {
        continue;
      }
      const clipTo = layer.clipping ? base : null;
      if (restored && entry?.hash !== undefined && !samePixels(layer, entry.hash)) {
        result.changed.push({ name, code: 'repainted', reason: 'painted over in another tool: imported as pixels' });
      } else if (restored) {
        const key = keyFor(restored.id);
        // Text edited in Photoshop comes back edited (ruby notation stays text).
        if (layer.text && typeof layer.text.text === 'string' && 'text' in restored.data) {
          (restored.data as { text: string }).text = layer.text.text;
        }
        restored.visible = restored.visible && !layerHidden;
        result.items.push({ kind: 'layer', key, clipTo, layer: restored });
        if (!layer.clipping) base = key;
        continue;
      }
      if (layer.text && typeof layer.text.text === 'string') {
        // A type layer added in another tool.
        const key = keyFor(null);
        const text = textLayerOf(key, { ...layer, name, hidden: layerHidden }, layer.text, place);
        result.items.push({ kind: 'layer', key, clipTo, layer: text });
        if (!layer.clipping) base = key;
        continue;
      }
      const pixels = pixelsOf(layer, name, result);
      if (!pixels) continue;
      if (layer.mask?.imageData && !layer.mask.disabled) applyMask(pixels, layer.left ?? 0, layer.top ?? 0, layer);
      const blend = layer.blendMode ?? 'normal';
      const blendMode = (BLEND_MODES as readonly string[]).includes(blend) ? (blend as BlendMode) : 'normal';
      if (blendMode !== blend && blend !== 'pass through') {
        result.changed.push({
          name,
          code: 'blendMode',
          detail: blend,
          reason: `blend mode “${blend}” imported as normal`,
        });
      }
      bakeOpacity(pixels, layer.fillOpacity ?? 1);
      const key = keyFor(entry?.layerId ?? null);
      const appearance = { opacity: Math.min(1, Math.max(0, layer.opacity ?? 1)), blendMode, clipTo, key };
      const turn = entry?.turn && turnStillFits(entry.turn, layer, pixels, meta, psd);
      if (entry?.turn && turn) {
        // A turned image: its pixels back upright, the layer turned instead (so it can be turned again losslessly).
        const { box } = entry.turn;
        const upright = unturnPixels(pixels, layer.left ?? 0, layer.top ?? 0, box, turn, meta);
        pushUpright(result, layer, name, !layerHidden, upright, { ...appearance, rect: box, turn });
      } else {
        pushPixels(result, layer, name, !layerHidden, pixels, place, { ...appearance, scaleY });
      }
      if (!layer.clipping) base = key;
    }
  };
  walk(psd.children ?? [], '', false, null);
  // Layers of the page that did not come back (deleted in another tool): references to them are dropped.
  const sources = new Set([...Object.values(meta.nodes).map((n) => n.layerId), ...Object.keys(meta.layers)]);
  result.missing = [...sources].filter((id): id is string => id !== null && !used.has(id));
}

/** True when a layer's pixels are the ones Koma wrote (their hash in the Koma block). */
function samePixels(layer: Layer, hash: string): boolean {
  const image = layer.imageData;
  return pixelHash(image ?? { width: 0, height: 0, data: new Uint8ClampedArray(0) }) === hash;
}

/** A raster layer's 8-bit pixels, or null with a note saying why it has none. */
function pixelsOf(layer: Layer, name: string, result: PsdImport): Raster | null {
  if (layer.adjustment) {
    const detail = layer.adjustment.type;
    result.skipped.push({
      name,
      code: 'adjustment',
      detail,
      reason: `adjustment layer (${detail}) has no pixels of its own`,
    });
    return null;
  }
  const image = layer.imageData;
  if (!image || image.width === 0 || image.height === 0) {
    result.skipped.push(
      layer.placedLayer
        ? { name, code: 'smartObject', reason: 'smart object without rasterised pixels' }
        : layer.vectorFill || layer.vectorMask
          ? { name, code: 'shape', reason: 'shape layer without rasterised pixels' }
          : { name, code: 'empty', reason: 'empty layer' },
    );
    return null;
  }
  if (!(image.data instanceof Uint8ClampedArray || image.data instanceof Uint8Array)) {
    result.skipped.push({ name, code: 'not8bit', reason: 'pixels are not 8 bits per channel' });
    return null;
  }
  return { width: image.width, height: image.height, data: new Uint8ClampedArray(image.data) };
}

function pushPixels(
  result: PsdImport,
  layer: Layer,
  name: string,
  visible: boolean,
  pixels: Raster,
  place: PsdToDoc,
  options: { opacity: number; blendMode: BlendMode; clipTo: string | null; key?: string; scaleY?: number },
): void {
  const left = layer.left ?? 0;
  const top = layer.top ?? 0;
  if (layer.mask?.imageData && !layer.mask.disabled && !result.koma) applyMask(pixels, left, top, layer);
  const index = result.layers.length;
  result.layers.push({ name, left, top, visible, pixels });
  const sy = place.scale * (options.scaleY ?? 1);
  result.items.push({
    kind: 'pixels',
    key: options.key ?? `psd:${result.items.length}`,
    clipTo: options.clipTo,
    layer: index,
    rect: {
      x: place.x + left * place.scale,
      y: place.y + top * sy,
      width: pixels.width * place.scale,
      height: pixels.height * sy,
    },
    opacity: options.opacity,
    blendMode: options.blendMode,
  });
}

/** The turn of a Koma block entry, when the PSD layer still sits where the export put it (not moved or cropped). */
function turnStillFits(entry: KomaTurn, layer: Layer, pixels: Raster, meta: KomaPsdMeta, psd: Psd): Turn | null {
  const { rotation, flipX, flipY, box } = entry;
  const turn = { rotation, flipX, flipY };
  const at = turnedLayerRect(box, turn, { ...meta, width: psd.width, height: psd.height });
  const left = layer.left ?? 0;
  const top = layer.top ?? 0;
  const near = (p: number, q: number) => Math.abs(p - q) <= 1;
  const fits =
    near(left, at.x) &&
    near(top, at.y) &&
    near(left + pixels.width, at.x + at.width) &&
    near(top + pixels.height, at.y + at.height);
  return fits ? turn : null;
}

/** A turned image of Koma's own file, its pixels already upright: placed at its box from the Koma block. */
function pushUpright(
  result: PsdImport,
  layer: Layer,
  name: string,
  visible: boolean,
  pixels: Raster,
  options: { opacity: number; blendMode: BlendMode; clipTo: string | null; key: string; rect: Rect; turn: Turn },
): void {
  const index = result.layers.length;
  result.layers.push({ name, left: layer.left ?? 0, top: layer.top ?? 0, visible, pixels });
  result.items.push({
    kind: 'pixels',
    key: options.key,
    clipTo: options.clipTo,
    layer: index,
    rect: { ...options.rect },
    opacity: options.opacity,
    blendMode: options.blendMode,
    turn: options.turn,
  });
}

function checkHeader(bytes: Uint8Array): void {
  if (bytes.length < 26) throw new ImportError('This file is too short to be a PSD.', 'tooShort');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const signature = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  if (signature !== '8BPS') throw new ImportError('This is not a PSD or PSB file.', 'notPsd');
  const version = view.getUint16(4);
  if (version !== 1 && version !== 2) {
    throw new ImportError(`PSD version ${version} is not supported.`, 'version', { version });
  }
  const depth = view.getUint16(22);
  if (depth !== 8) {
    throw new ImportError(
      `This document has ${depth} bits per channel; only 8-bit documents can be imported.`,
      'depth',
      { depth },
    );
  }
  const mode = view.getUint16(24);
  if (mode !== 3 && mode !== 1) {
    const name = COLOR_MODES[mode] ?? `colour mode ${mode}`;
    throw new ImportError(`This document is in ${name}; only RGB and grayscale can be imported.`, 'colorMode', {
      mode: COLOR_MODES[mode] ?? mode,
    });
  }
}

/** Multiplies alpha by the layer mask, which has its own bounds and a colour for everywhere outside them. */
function applyMask(pixels: Raster, left: number, top: number, layer: Layer): void {
  const mask = layer.mask!;
  const m = mask.imageData!;
  const mLeft = mask.left ?? 0;
  const mTop = mask.top ?? 0;
  const outside = mask.defaultColor ?? 0;
  for (let y = 0; y < pixels.height; y++) {
    for (let x = 0; x < pixels.width; x++) {
      const mx = left + x - mLeft;
      const my = top + y - mTop;
      const inside = mx >= 0 && my >= 0 && mx < m.width && my < m.height;
      const value = inside ? m.data[(my * m.width + mx) * 4]! : outside;
      const i = (y * pixels.width + x) * 4 + 3;
      pixels.data[i] = (pixels.data[i]! * value) / 255;
    }
  }
}
