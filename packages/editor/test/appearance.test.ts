import { describe, expect, it } from 'vitest';
import {
  addImage,
  addPose,
  boxOf,
  containsPoint,
  flipLayers,
  normalizeRotation,
  placementOf,
  rotateLayers,
  setAppearance,
  snapRotation,
} from '../src/index.ts';
import { makeEditor, ok, pageRoot, panelIds } from './support.ts';

function withImage() {
  const editor = makeEditor();
  const root = pageRoot(editor);
  const id = ok(
    editor.execute(addImage, { parentId: root, transform: { x: 100, y: 100, size: { width: 400, height: 100 } } }),
  );
  return { editor, root, id };
}

describe('layer appearance', () => {
  it('sets opacity and blend mode in one step, and refuses bad values naming them', () => {
    const { editor, id } = withImage();
    ok(editor.execute(setAppearance, { ids: [id], opacity: 0.5, blendMode: 'multiply' }));
    expect(editor.doc.layers[id]).toMatchObject({ opacity: 0.5, blendMode: 'multiply' });
    expect(placementOf(editor.doc.layers[id]!)).toMatchObject({ opacity: 0.5, blendMode: 'multiply' });
    const bad = editor.execute(setAppearance, { ids: [id], opacity: 1.2 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/Opacity/);
    const mode = editor.execute(setAppearance, { ids: [id], blendMode: 'dodge' as never });
    if (!mode.ok) expect(mode.error).toMatch(/Blend mode/);
    expect(mode.ok).toBe(false);
    expect(editor.doc.layers[id]).toMatchObject({ opacity: 0.5, blendMode: 'multiply' });
    editor.undo();
    expect(editor.doc.layers[id]).toMatchObject({ opacity: 1, blendMode: 'normal' });
  });

  it('turns about the box centre: bounds and hit-testing follow, 90° commands add up', () => {
    const { editor, id } = withImage();
    ok(editor.execute(rotateLayers, { ids: [id], by: 90 }));
    const node = editor.doc.layers[id]!;
    expect(node.rotation).toBe(90);
    const b = boxOf(node);
    // 400×100 centred on (300, 150) turned a quarter: 100×400 on the same centre.
    expect(b.x).toBeCloseTo(250);
    expect(b.y).toBeCloseTo(-50);
    expect(b.width).toBeCloseTo(100);
    expect(b.height).toBeCloseTo(400);
    expect(containsPoint(node, { x: 300, y: 0 })).toBe(true);
    expect(containsPoint(node, { x: 450, y: 150 })).toBe(false);
    ok(editor.execute(rotateLayers, { ids: [id], by: 90 }));
    ok(editor.execute(rotateLayers, { ids: [id], by: 90 }));
    expect(editor.doc.layers[id]!.rotation).toBe(-90);
    expect(normalizeRotation(540)).toBe(180);
    expect(snapRotation(22)).toBe(15);
    expect(snapRotation(23)).toBe(30);
  });

  it('flips an image across its centre and refuses to turn a panel', () => {
    const { editor, root, id } = withImage();
    ok(editor.execute(flipLayers, { ids: [id], axis: 'horizontal' }));
    const m = placementOf(editor.doc.layers[id]!).matrix;
    // The layer's own left edge is now on the right of the box.
    expect(m[0]).toBe(-1);
    expect(m[4]).toBe(500);
    expect(boxOf(editor.doc.layers[id]!)).toEqual({ x: 100, y: 100, width: 400, height: 100 });
    const panel = panelIds(editor.doc, root)[0]!;
    expect(editor.execute(rotateLayers, { ids: [panel], by: 90 }).ok).toBe(false);
    expect(editor.execute(flipLayers, { ids: [panel], axis: 'vertical' }).ok).toBe(false);
    const pose = ok(
      editor.execute(addPose, { parentId: root, transform: { x: 0, y: 0, size: { width: 100, height: 200 } } }),
    );
    ok(editor.execute(flipLayers, { ids: [pose], axis: 'vertical' }));
    expect(editor.doc.layers[pose]!.flipY).toBe(true);
  });
});

describe('flips of a turned layer', () => {
  it('mirror across the canvas axis: a strip turned 90° and flipped top to bottom has its left end at the bottom', () => {
    const { editor, id } = withImage();
    ok(editor.execute(rotateLayers, { ids: [id], by: 90 }));
    ok(editor.execute(flipLayers, { ids: [id], axis: 'vertical' }));
    const node = editor.doc.layers[id]!;
    expect(node).toMatchObject({ rotation: -90, flipY: true });
    const m = placementOf(node).matrix;
    // The layer's own left end (x = 0, middle of its height) lands at the bottom of the turned box (y = 350).
    const p = { x: m[0] * 0 + m[2] * 50 + m[4], y: m[1] * 0 + m[3] * 50 + m[5] };
    expect(p.x).toBeCloseTo(300);
    expect(p.y).toBeCloseTo(350);
  });
});
