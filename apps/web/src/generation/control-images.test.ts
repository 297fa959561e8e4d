import { afterEach, describe, expect, it } from 'vitest';
import { createPoseLayer } from '@koma/domain';
import { boxOf, placementOf, type LayerNode } from '@koma/editor';
import { renderPose } from './control-images.ts';

/** A 2D context that keeps the canvas size and maps every drawn point through its transform, as a browser does. */
function recordingCanvas() {
  const drawn: { x: number; y: number }[] = [];
  let m = [1, 0, 0, 1, 0, 0];
  const at = (x: number, y: number) =>
    drawn.push({ x: m[0]! * x + m[2]! * y + m[4]!, y: m[1]! * x + m[3]! * y + m[5]! });
  const canvas = {
    width: 0,
    height: 0,
    getContext: () => ({
      fillRect() {},
      beginPath() {},
      stroke() {},
      fill() {},
      setTransform: (...args: number[]) => (m = args),
      moveTo: at,
      lineTo: at,
      arc: at,
    }),
    toDataURL: () => 'data:image/png;base64,',
  };
  return { canvas, drawn };
}

const original = globalThis.document;
afterEach(() => {
  globalThis.document = original;
});

/** The pose as drawn into its control image: the canvas size and every keypoint and limb end, on the canvas. */
function render(pose: LayerNode<'POSE'>) {
  const { canvas, drawn } = recordingCanvas();
  globalThis.document = { createElement: () => canvas } as unknown as Document;
  renderPose(pose);
  return { size: [canvas.width, canvas.height], drawn };
}

describe('the pose control image', () => {
  it('shows a turned pose as the canvas does, over its turned bounds', () => {
    const upright = createPoseLayer('pose', {
      x: 100,
      y: 50,
      size: { width: 200, height: 400 },
    }) as unknown as LayerNode<'POSE'>;
    const turned = { ...upright, rotation: 90 } as LayerNode<'POSE'>;
    const a = render(upright);
    const b = render(turned);
    expect(a.size).toEqual([200, 400]);
    // A quarter turn: 400 wide, 200 tall, and each point where the placement puts it, less the bounds' corner.
    expect(b.size).toEqual([400, 200]);
    const bounds = boxOf(turned);
    const [ma, mb, mc, md, me, mf] = placementOf(turned).matrix;
    expect(a.drawn.length).toBeGreaterThan(10);
    a.drawn.forEach((p, i) => {
      // The upright image draws in the pose's own frame (its box's corner at the origin).
      const want = { x: ma * p.x + mc * p.y + me - bounds.x, y: mb * p.x + md * p.y + mf - bounds.y };
      expect(b.drawn[i]!.x).toBeCloseTo(want.x, 6);
      expect(b.drawn[i]!.y).toBeCloseTo(want.y, 6);
      expect(b.drawn[i]!.x).toBeGreaterThanOrEqual(-1e-6);
      expect(b.drawn[i]!.x).toBeLessThanOrEqual(400 + 1e-6);
    });
  });
});
