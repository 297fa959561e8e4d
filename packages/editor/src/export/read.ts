import { readPsd, type Layer } from 'ag-psd';
import { ensurePsdPixels } from './psd.ts';
import { bakeOpacity, type Raster } from './raster.ts';

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

export interface PsdImport {
  width: number;
  height: number;
  /** Bottom first, as the editor stacks layers. */
  layers: ImportedLayer[];
  /** What was not imported at all. */
  skipped: ImportNote[];
  /** What was imported, but not as it was (blend modes, clipping, live text). */
  changed: ImportNote[];
}

export type ImportErrorCode = 'tooShort' | 'notPsd' | 'version' | 'depth' | 'colorMode' | 'unreadable';

/**
 * A file that cannot be imported at all, with a message for the user in English, and a code and the values it
 * names for the browser to word it in the user's language.
 */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  constructor(
    message: string,
    readonly code: ImportErrorCode,
    readonly values: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

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

/**
 * Reads a PSD or PSB for import. Groups are flattened: each raster layer keeps its place in the stack and takes
 * its groups' names as a prefix, their visibility and their opacity (our layers have no opacity field, so opacity
 * is baked into alpha). Only 8-bit RGB and grayscale documents are read; anything else fails with ImportError.
 */
export function readPsdForImport(bytes: Uint8Array): PsdImport {
  checkHeader(bytes);
  ensurePsdPixels();
  let psd;
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
  const result: PsdImport = { width: psd.width, height: psd.height, layers: [], skipped: [], changed: [] };
  const walk = (layers: readonly Layer[], prefix: string, hidden: boolean, opacity: number) => {
    for (const layer of layers) {
      const name = prefix + (layer.name ?? 'Layer');
      const layerHidden = hidden || !!layer.hidden;
      const layerOpacity = opacity * (layer.opacity ?? 1);
      if (layer.children) {
        walk(layer.children, `${name} / `, layerHidden, layerOpacity);
        continue;
      }
      if (layer.adjustment) {
        const detail = layer.adjustment.type;
        result.skipped.push({
          name,
          code: 'adjustment',
          detail,
          reason: `adjustment layer (${detail}) has no pixels of its own`,
        });
        continue;
      }
      const image = layer.imageData;
      const left = layer.left ?? 0;
      const top = layer.top ?? 0;
      if (!image || image.width === 0 || image.height === 0) {
        result.skipped.push(
          layer.placedLayer
            ? { name, code: 'smartObject', reason: 'smart object without rasterised pixels' }
            : layer.vectorFill || layer.vectorMask
              ? { name, code: 'shape', reason: 'shape layer without rasterised pixels' }
              : { name, code: 'empty', reason: 'empty layer' },
        );
        continue;
      }
      if (!(image.data instanceof Uint8ClampedArray || image.data instanceof Uint8Array)) {
        result.skipped.push({ name, code: 'not8bit', reason: 'pixels are not 8 bits per channel' });
        continue;
      }
      const pixels: Raster = { width: image.width, height: image.height, data: new Uint8ClampedArray(image.data) };
      bakeOpacity(pixels, layerOpacity * (layer.fillOpacity ?? 1));
      if (layer.mask?.imageData && !layer.mask.disabled) applyMask(pixels, left, top, layer);
      if (layer.blendMode && layer.blendMode !== 'normal' && layer.blendMode !== 'pass through') {
        const detail = layer.blendMode;
        result.changed.push({ name, code: 'blendMode', detail, reason: `blend mode “${detail}” imported as normal` });
      }
      const note = (code: ImportNoteCode, reason: string) => result.changed.push({ name, code, reason });
      if (layer.clipping) note('clipping', 'clipping mask not kept: the layer is whole');
      if (layer.text) note('text', 'text imported as a picture; it is no longer editable');
      if (layer.effects) note('effects', 'layer effects (shadows, strokes…) not imported');
      result.layers.push({ name, left, top, visible: !layerHidden, pixels });
    }
  };
  walk(psd.children ?? [], '', false, 1);
  return result;
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
