import { describe, expect, it } from 'vitest';
import type { BlendMode } from '@koma/domain';
import { buildPsd, createRaster, drawBlended, planPage, type Raster } from '../../src/export/index.ts';
import { COLORS, fixtureDoc, syntheticRasters } from './support.ts';

const px = (r: Raster, x: number, y: number) => [...r.data.slice((y * r.width + x) * 4, (y * r.width + x) * 4 + 4)];

describe('layer appearance in the export', () => {
  it('blends each mode as the PSD format defines it, over an opaque backdrop', () => {
    const expected: Record<BlendMode, number[]> = {
      normal: [200, 100, 50],
      multiply: [Math.round((200 * 128) / 255), Math.round((100 * 128) / 255), Math.round((50 * 128) / 255)],
      screen: [228, 178, 153],
      overlay: [201, 100, 50],
      darken: [128, 100, 50],
      lighten: [200, 128, 128],
    };
    for (const [mode, rgb] of Object.entries(expected) as [BlendMode, number[]][]) {
      const backdrop = createRaster(2, 1, [128, 128, 128, 255]);
      drawBlended(backdrop, createRaster(1, 1, [200, 100, 50, 255]), 0, 0, mode);
      px(backdrop, 0, 0)
        .slice(0, 3)
        .forEach((v, i) => expect(Math.abs(v - rgb[i]!), `${mode} ${i}`).toBeLessThanOrEqual(1));
      expect(px(backdrop, 1, 0)).toEqual([128, 128, 128, 255]);
    }
    // Half opacity: halfway between the backdrop and the blended colour.
    const half = createRaster(1, 1, [128, 128, 128, 255]);
    drawBlended(half, createRaster(1, 1, [255, 255, 255, 255]), 0, 0, 'multiply', 0.5);
    expect(px(half, 0, 0)).toEqual([128, 128, 128, 255]);
  });

  it('writes opacity and blend mode on the PSD layer and applies them in the composite', () => {
    const { doc, rootId } = fixtureDoc();
    const hero = Object.values(doc.layers).find((l) => l.name === 'Hero')!;
    hero.visible = true;
    hero.opacity = 0.5;
    hero.blendMode = 'multiply';
    const plan = planPage(doc, rootId);
    const { psd, composite } = buildPsd(plan, syntheticRasters(plan), { plan: 'subscriber', thumbnail: false });
    const all = (layers: typeof psd.children): NonNullable<typeof psd.children> =>
      (layers ?? []).flatMap((l) => [l, ...all(l.children)]);
    const layer = all(psd.children).find((l) => l.name === 'Hero')!;
    expect(layer.opacity).toBe(0.5);
    expect(layer.blendMode).toBe('multiply');
    // Hero multiplies its colour at half strength over the white panel area under it.
    const x = layer.left! + 3;
    const y = layer.top! + 3;
    const c = COLORS.hero!;
    const shown = px(composite, x, y);
    for (let i = 0; i < 3; i++)
      expect(Math.abs(shown[i]! - Math.round(255 * 0.5 + c[i]! * 0.5))).toBeLessThanOrEqual(1);
  });
});
