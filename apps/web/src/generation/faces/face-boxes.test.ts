import { describe, expect, it } from 'vitest';
import { createImageLayer } from '@koma/domain';
import type { LayerNode } from '@koma/editor';
import { faceBoxesOnCanvas } from './face-boxes.ts';

/** A 1024×1024 picture shown at half size in the box (100, 50)–(612, 562), turned or flipped as given. */
const shown = (turn: { rotation?: number; flipX?: boolean }) =>
  ({
    ...createImageLayer('img', { x: 100, y: 50, size: { width: 512, height: 512 } }),
    ...turn,
  }) as unknown as LayerNode;

const faces = [{ bbox: [200, 100, 400, 300] as [number, number, number, number], label: 'face', score: 0.9 }];
const outline = (layer: LayerNode) => {
  const b = faceBoxesOnCanvas(layer, faces, { width: 1024, height: 1024 })[0]!;
  return [b.x, b.y, b.width, b.height].map((v) => Math.round(v * 1e6) / 1e6);
};

describe('face outlines on the canvas', () => {
  it('sit on the face as the layer shows it: scaled, mirrored, turned', () => {
    // The face's pixels 200–400 × 100–300 at half size: 100–200 × 50–150 in the box.
    expect(outline(shown({}))).toEqual([200, 100, 100, 100]);
    // Mirrored about the box's middle (256 in the box): 312–412 in the box.
    expect(outline(shown({ flipX: true }))).toEqual([412, 100, 100, 100]);
    // A quarter turn clockwise about the box's centre (356, 306): the face's centre (250, 150) goes to (512, 200).
    expect(outline(shown({ rotation: 90 }))).toEqual([462, 150, 100, 100]);
  });
});
