// Resizing a turned (or flipped) layer by a corner handle works in the layer's own frame: the opposite corner stays
// put on the canvas, and a free resize brings the dragged corner under the pointer.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addImage,
  addPose,
  flipLayers,
  placedCorners,
  placementOf,
  resizeLayer,
  rotateLayers,
  type Corner,
} from '../src/index.ts';
import type { Point } from '@koma/domain';
import { TestDriver } from './driver.ts';
import { ok } from './support.ts';

const box = (x: number, y: number, w: number, h: number) => ({ x, y, size: { width: w, height: h } });
const CORNERS: Corner[] = ['top-left', 'top-right', 'bottom-right', 'bottom-left'];

function cornersOf(d: TestDriver, id: string): [Point, Point, Point, Point] {
  return placedCorners(placementOf(d.editor.doc.layers[id]!));
}

function expectAt(actual: Point, expected: Point): void {
  expect(Math.abs(actual.x - expected.x)).toBeLessThan(1e-6);
  expect(Math.abs(actual.y - expected.y)).toBeLessThan(1e-6);
}

/** A layer turned by `rotation` degrees, selected with the Move tool. */
function turned(kind: 'POSE' | 'IMAGE', rotation: number): { d: TestDriver; id: string } {
  const d = new TestDriver('INFINITE');
  const transform = box(300, 300, 200, 100);
  const id =
    kind === 'POSE'
      ? ok(d.editor.execute(addPose, { parentId: d.root, transform }))
      : ok(d.editor.execute(addImage, { parentId: d.root, transform, imageId: 'img' }));
  ok(d.editor.execute(rotateLayers, { ids: [id], to: rotation }));
  d.ui.update({ selection: [id] });
  return { d, id };
}

describe('resizing a turned layer by its bottom-right handle', () => {
  for (const rotation of [30, 90, 200]) {
    it(`at ${rotation}°, keeps the top-left corner put and brings the dragged corner to the pointer`, () => {
      const { d, id } = turned('POSE', rotation);
      const [anchor, , grabbed] = cornersOf(d, id);
      const before = d.editor.historySize.undo;
      const to = { x: grabbed.x + 37, y: grabbed.y - 21 };
      d.drag([grabbed.x, grabbed.y], [to.x, to.y]);
      const after = cornersOf(d, id);
      expectAt(after[0], anchor);
      expectAt(after[2], to);
      expect(d.editor.doc.layers[id]!.rotation).toBeCloseTo(rotation > 180 ? rotation - 360 : rotation, 9);
      expect(d.editor.historySize.undo).toBe(before + 1);
      d.editor.undo();
      expect(d.editor.doc.layers[id]!.transform).toEqual(box(300, 300, 200, 100));
    });

    it(`at ${rotation}°, an image keeps its proportion: the dragged corner stays on the diagonal`, () => {
      const { d, id } = turned('IMAGE', rotation);
      const [anchor, , grabbed] = cornersOf(d, id);
      d.drag([grabbed.x, grabbed.y], [grabbed.x + 40, grabbed.y + 5]);
      const after = cornersOf(d, id);
      expectAt(after[0], anchor);
      const size = d.editor.doc.layers[id]!.transform.size;
      expect(size.width / size.height).toBeCloseTo(2, 9);
      // anchor → old corner and anchor → new corner are parallel.
      const u = { x: grabbed.x - anchor.x, y: grabbed.y - anchor.y };
      const v = { x: after[2].x - anchor.x, y: after[2].y - anchor.y };
      expect(Math.abs(u.x * v.y - u.y * v.x) / Math.hypot(u.x, u.y)).toBeLessThan(1e-6);
      expect(Math.hypot(v.x, v.y)).toBeGreaterThan(Math.hypot(u.x, u.y));
    });
  }

  it('a flipped layer takes its handle by the corner drawn under the pointer', () => {
    const { d, id } = turned('POSE', 30);
    ok(d.editor.execute(flipLayers, { ids: [id], axis: 'horizontal' }));
    const corners = cornersOf(d, id);
    const to = { x: corners[2].x - 15, y: corners[2].y + 25 };
    d.drag([corners[2].x, corners[2].y], [to.x, to.y]);
    const after = cornersOf(d, id);
    expectAt(after[0], corners[0]);
    expectAt(after[2], to);
  });

  it('an upright layer resizes as before', () => {
    const d = new TestDriver('INFINITE');
    const id = ok(d.editor.execute(addPose, { parentId: d.root, transform: box(100, 100, 200, 100) }));
    d.ui.update({ selection: [id] });
    d.drag([100, 100], [80, 90]);
    expect(d.editor.doc.layers[id]!.transform).toEqual(box(80, 90, 220, 110));
  });
});

describe('resizing a turned layer (property)', () => {
  it('the opposite corner never moves; a free drag puts the corner at the pointer unless it hits the minimum', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -180, max: 180, noNaN: true }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 3 }),
        fc.double({ min: -300, max: 300, noNaN: true }),
        fc.double({ min: -300, max: 300, noNaN: true }),
        fc.boolean(),
        (rotation, flipX, flipY, c, dx, dy, keepAspect) => {
          const d = new TestDriver('INFINITE');
          const id = ok(d.editor.execute(addPose, { parentId: d.root, transform: box(300, 300, 200, 100) }));
          ok(d.editor.execute(rotateLayers, { ids: [id], to: rotation }));
          if (flipX) ok(d.editor.execute(flipLayers, { ids: [id], axis: 'horizontal' }));
          if (flipY) ok(d.editor.execute(flipLayers, { ids: [id], axis: 'vertical' }));
          const before = cornersOf(d, id);
          ok(d.editor.execute(resizeLayer, { id, corner: CORNERS[c]!, dx, dy, keepAspect }));
          const after = cornersOf(d, id);
          expectAt(after[(c + 2) % 4]!, before[(c + 2) % 4]!);
          const size = d.editor.doc.layers[id]!.transform.size;
          // At the minimum size a side stops shrinking on its own, so the checks below hold above it.
          if (size.width <= 1 || size.height <= 1) return;
          if (keepAspect) expect(size.width / size.height).toBeCloseTo(2, 9);
          else expectAt(after[c]!, { x: before[c]!.x + dx, y: before[c]!.y + dy });
        },
      ),
      { numRuns: 300 },
    );
  });
});
