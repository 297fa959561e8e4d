import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { writePsdUint8Array } from 'ag-psd';
import { ImportError, createRaster, ensurePsdPixels, readPsdForImport } from '../../src/export/index.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
const px = (r: { width: number; data: Uint8ClampedArray }, x: number, y: number) => [
  ...r.data.slice((y * r.width + x) * 4, (y * r.width + x) * 4 + 4),
];

describe('PSD import', () => {
  it('reads the layers of a PSD made by ImageMagick with their places, names and alpha', () => {
    const result = readPsdForImport(fixture('imagemagick-layers.psd'));
    expect([result.width, result.height]).toEqual([64, 48]);
    expect(result.layers.map((l) => [l.name, l.left, l.top, l.pixels.width, l.pixels.height, l.visible])).toEqual([
      ['Red', 0, 0, 64, 48, true],
      ['Blue square', 16, 8, 32, 32, true],
      ['Half green', 4, 30, 20, 10, true],
    ]);
    expect(px(result.layers[0]!.pixels, 5, 5)).toEqual([255, 0, 0, 255]);
    expect(px(result.layers[1]!.pixels, 0, 0)).toEqual([0, 0, 255, 255]);
    const green = px(result.layers[2]!.pixels, 3, 3);
    expect(green.slice(0, 3)).toEqual([0, 255, 0]);
    expect(green[3]).toBeGreaterThanOrEqual(127);
    expect(green[3]).toBeLessThanOrEqual(128);
    expect(result.skipped).toEqual([]);
    expect(result.changed).toEqual([]);
  });

  it('refuses a 16-bit document with a message instead of dropping it', () => {
    expect(() => readPsdForImport(fixture('imagemagick-16bit.psd'))).toThrow(ImportError);
    expect(() => readPsdForImport(fixture('imagemagick-16bit.psd'))).toThrow(
      'This document has 16 bits per channel; only 8-bit documents can be imported.',
    );
    expect(() => readPsdForImport(new Uint8Array(40))).toThrow('This is not a PSD or PSB file.');
    // The browser words the error in the user's language from its code and values.
    expect(() => readPsdForImport(fixture('imagemagick-16bit.psd'))).toThrow(
      expect.objectContaining({ code: 'depth', values: { depth: 16 } }),
    );
  });

  it('flattens groups with a name prefix, bakes opacity, keeps visibility and lists what it cannot import', () => {
    ensurePsdPixels();
    const solid = (w: number, h: number) => createRaster(w, h, [10, 20, 30, 255]);
    const bytes = writePsdUint8Array({
      width: 40,
      height: 30,
      children: [
        { name: 'Base', left: 0, top: 0, imageData: solid(40, 30) },
        {
          name: 'Characters',
          opacity: 0.5,
          hidden: true,
          children: [
            { name: 'Hero', left: 5, top: 6, opacity: 0.5, imageData: solid(10, 10) },
            { name: 'Nothing', left: 0, top: 0 },
          ],
        },
        { name: 'Levels', adjustment: { type: 'brightness/contrast', brightness: 10, contrast: 0 } },
        { name: 'Glow', left: 1, top: 1, blendMode: 'screen', imageData: solid(2, 2) },
      ],
    });
    const result = readPsdForImport(bytes);
    expect(result.layers.map((l) => [l.name, l.left, l.top, l.visible])).toEqual([
      ['Base', 0, 0, true],
      ['Characters / Hero', 5, 6, false],
      ['Glow', 1, 1, true],
    ]);
    // Group opacity × layer opacity, each stored as the byte 128 (128/255): 255 × (128/255)² = 64.25.
    expect(px(result.layers[1]!.pixels, 0, 0)).toEqual([10, 20, 30, 64]);
    expect(result.skipped).toEqual([
      { name: 'Characters / Nothing', code: 'empty', reason: 'empty layer' },
      {
        name: 'Levels',
        code: 'adjustment',
        detail: 'brightness/contrast',
        reason: 'adjustment layer (brightness/contrast) has no pixels of its own',
      },
    ]);
    expect(result.changed).toEqual([
      { name: 'Glow', code: 'blendMode', detail: 'screen', reason: 'blend mode “screen” imported as normal' },
    ]);
  });
});
