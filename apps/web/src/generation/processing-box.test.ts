import { describe, expect, it } from 'vitest';
import { createImageLayer, createPanelLayer } from '@koma/domain';
import { placedCorners, placementOf, type LayerNode } from '@koma/editor';
import { processingBox, type ProcessingBox } from './processing-box.ts';

const view = { x: 40, y: -25, zoom: 0.5 };

/** Where CSS puts a corner of the box: the preview mirrored about the centre, then the box turned about it. */
function cssCorner(box: ProcessingBox, u: number, v: number) {
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height / 2;
  const x = (box.flipX ? -1 : 1) * (u * box.width - box.width / 2);
  const y = (box.flipY ? -1 : 1) * (v * box.height - box.height / 2);
  const r = (box.rotation * Math.PI) / 180;
  return { x: cx + x * Math.cos(r) - y * Math.sin(r), y: cy + x * Math.sin(r) + y * Math.cos(r) };
}

function node(turn: { rotation?: number; flipX?: boolean; flipY?: boolean }): LayerNode {
  const layer = createImageLayer('img', { x: 300, y: 120, size: { width: 640, height: 360 } });
  return { ...layer, ...turn, children: [] } as unknown as LayerNode;
}

describe('the processing box', () => {
  it.each([
    { rotation: 30 },
    { rotation: 90, flipX: true },
    { rotation: -135, flipY: true },
    { rotation: 200, flipX: true, flipY: true },
  ])('puts the preview’s corners where the canvas puts the picture’s (%o)', (turn) => {
    const n = node(turn);
    const box = processingBox(n, view);
    const screen = (p: { x: number; y: number }) => ({ x: p.x * view.zoom + view.x, y: p.y * view.zoom + view.y });
    const expected = placedCorners(placementOf(n)).map(screen);
    const got = [cssCorner(box, 0, 0), cssCorner(box, 1, 0), cssCorner(box, 1, 1), cssCorner(box, 0, 1)];
    got.forEach((p, i) => {
      expect(p.x).toBeCloseTo(expected[i]!.x, 6);
      expect(p.y).toBeCloseTo(expected[i]!.y, 6);
    });
  });

  it('keeps a panel upright, as the canvas does (panels do not turn)', () => {
    const panel = { ...createPanelLayer('p', { x: 10, y: 20, size: { width: 100, height: 50 } }), rotation: 45 };
    expect(processingBox(panel as unknown as LayerNode, view)).toMatchObject({ rotation: 0, flipX: false });
  });
});
