import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { keepUnmasked } from '../../src/engines/masks.ts';
import { gradientPng, raw, rectMask } from './helpers.ts';

const red = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .png()
    .toBuffer();

describe('keepUnmasked', () => {
  it('returns the original size with its bytes where the mask is 0 and the generated picture inside', async () => {
    // A 203×150 picture inpainted at the working size 200×144 (multiples of 8), mask x 50–100, y 40–90 there.
    const original = await gradientPng(203, 150);
    const out = await raw(
      await keepUnmasked(original, await red(200, 144), await rectMask(200, 144, { x: 50, y: 40, w: 50, h: 50 })),
    );
    const before = await raw(original);
    expect([out.width, out.height]).toEqual([203, 150]);
    const sx = 203 / 200;
    const sy = 150 / 144;
    let kept = 0;
    for (let y = 0; y < 150; y++) {
      for (let x = 0; x < 203; x++) {
        const i = (y * 203 + x) * out.channels;
        const j = (y * 203 + x) * before.channels;
        // Two source pixels of margin for the mask's resampling to the original size.
        const near = x >= 50 * sx - 2 && x < 100 * sx + 2 && y >= 40 * sy - 2 && y < 90 * sy + 2;
        if (!near) {
          kept++;
          expect([out.data[i], out.data[i + 1], out.data[i + 2]]).toEqual([
            before.data[j],
            before.data[j + 1],
            before.data[j + 2],
          ]);
        }
      }
    }
    expect(kept).toBeGreaterThan(25_000);
    const c = (Math.round(65 * sy) * 203 + Math.round(75 * sx)) * out.channels;
    expect([out.data[c], out.data[c + 1], out.data[c + 2]]).toEqual([255, 0, 0]);
  });

  it('takes the engine output as it is wherever the mask is partly on (the engine owns the blend)', async () => {
    const original = await gradientPng(64, 64);
    const grey = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 40, g: 40, b: 40 } } })
      .png()
      .toBuffer();
    const out = await raw(await keepUnmasked(original, await red(64, 64), grey));
    expect([...out.data.subarray(0, 3)]).toEqual([255, 0, 0]);
  });
});
