import { describe, expect, it } from 'vitest';
import type { Detection } from '../../src/vision/boxes.ts';
import { mergeDetections } from '../../src/vision/faces.ts';

const face = (x0: number, y0: number, x1: number, y1: number, score: number): Detection => ({
  bbox: [x0, y0, x1, y1],
  label: 'face',
  score,
});

describe('mergeDetections (SSD + tiny detector)', () => {
  it('drops a looser tiny box around an SSD face, keeps a tiny face SSD missed', () => {
    const ssd = [face(418, 209, 513, 324, 0.99)];
    const tiny = [face(387, 221, 545, 350, 0.8), face(160, 198, 352, 371, 0.55)];
    expect(mergeDetections(ssd, tiny)).toEqual([ssd[0], tiny[1]]);
  });

  it('keeps SSD alone when the tiny detector finds nothing, and is empty when both are', () => {
    const ssd = [face(0, 0, 10, 10, 0.5)];
    expect(mergeDetections(ssd, [])).toEqual(ssd);
    expect(mergeDetections([], [])).toEqual([]);
  });
});
