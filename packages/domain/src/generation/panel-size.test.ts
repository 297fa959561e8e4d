import { describe, expect, it } from 'vitest';
import { panelImageSize } from './panel-size.ts';

const SQUARE = { width: 1024, height: 1024 };
/** How much of a picture of `image` shows when it covers `panel` (scaled to cover, centred). */
function shown(panel: { width: number; height: number }, image: { width: number; height: number }): number {
  const scale = Math.max(panel.width / image.width, panel.height / image.height);
  return (panel.width * panel.height) / (image.width * scale * image.height * scale);
}

describe('panelImageSize', () => {
  it('asks a 1024×512 panel for a 2:1 picture of about the chosen pixel count, in 64-px steps', () => {
    const size = panelImageSize({ width: 1024, height: 512 }, SQUARE, 'sdxl');
    expect(size).toEqual({ width: 1408, height: 704 });
    expect((size.width % 64) + (size.height % 64)).toBe(0);
    expect(shown({ width: 1024, height: 512 }, size)).toBeGreaterThan(0.95);
    // Before: an 832×1216 picture on the same panel showed a third of itself.
    expect(shown({ width: 1024, height: 512 }, { width: 832, height: 1216 })).toBeLessThan(0.35);
  });

  it('keeps tall and square panels in shape, and stays within 512–1536 a side', () => {
    expect(panelImageSize({ width: 400, height: 1200 }, SQUARE, 'fluxdev')).toEqual({ width: 512, height: 1536 });
    expect(panelImageSize({ width: 700, height: 700 }, { width: 832, height: 1216 }, 'sdxl')).toEqual({
      width: 1024,
      height: 1024,
    });
    const strip = panelImageSize({ width: 3000, height: 300 }, SQUARE, 'sdxl');
    expect(strip).toEqual({ width: 1536, height: 512 });
  });

  it('gives GPT Image the one of its three sizes nearest the panel', () => {
    expect(panelImageSize({ width: 1024, height: 512 }, SQUARE, 'gpt')).toEqual({ width: 1536, height: 1024 });
    expect(panelImageSize({ width: 500, height: 900 }, SQUARE, 'gpt')).toEqual({ width: 1024, height: 1536 });
    expect(panelImageSize({ width: 800, height: 760 }, SQUARE, 'gpt')).toEqual({ width: 1024, height: 1024 });
  });
});
