// Issue 16 in the headless editor: numbered default names, shortcuts that say why they did nothing, pen pressure.
import { describe, expect, it } from 'vitest';
import { BRUSH_SIZE_MAX } from '@koma/domain';
import {
  addImage,
  addPanel,
  addPose,
  addText,
  duplicateLayer,
  pressureRadius,
  splitPanel,
  type LayerNode,
} from '../src/index.ts';
import { TestDriver } from './driver.ts';
import { ok, panelIds } from './support.ts';

const box = (x: number, y: number, w: number, h: number) => ({ x, y, size: { width: w, height: h } });

describe('default layer names', () => {
  it('numbers new layers by type, per page, and gives split and duplicated layers names of their own', () => {
    const d = new TestDriver('COMIC');
    const e = d.editor;
    const texts = [0, 1, 2].map(() => ok(e.execute(addText, { parentId: d.root, transform: box(0, 0, 100, 50) })));
    expect(texts.map((id) => e.doc.layers[id]!.name)).toEqual(['Text 1', 'Text 2', 'Text 3']);
    // The new comic's panel is called "Panel": its split clone is the second one.
    const [first] = panelIds(e.doc, d.root);
    expect(e.doc.layers[first!]!.name).toBe('Panel');
    const clone = ok(e.execute(splitPanel, { id: first!, direction: 'horizontal', at: 0.5 }));
    expect(e.doc.layers[clone]!.name).toBe('Panel 2');
    const added = ok(e.execute(addPanel, { parentId: d.root, transform: box(200, 200, 100, 100) }));
    expect(e.doc.layers[added]!.name).toBe('Panel 3');
    const copy = ok(e.execute(duplicateLayer, { id: texts[1]! }));
    expect(e.doc.layers[copy]!.name).toBe('Text 4');
    // A name someone chose is kept; numbering only replaces the type's bare default.
    const named = ok(e.execute(addImage, { parentId: d.root, transform: box(0, 0, 10, 10), name: 'cat.png' }));
    expect(e.doc.layers[named]!.name).toBe('cat.png');
    const pose = ok(e.execute(addPose, { parentId: d.root, transform: box(0, 0, 10, 10) }));
    expect(e.doc.layers[pose]!.name).toBe('Pose 1');
    const names = Object.values(e.doc.layers)
      .filter((n) => n.parent === d.root)
      .map((n) => n.name);
    expect(new Set(names).size).toBe(names.length);
    // Undo takes the name back with the layer: the next one reuses the number.
    e.undo();
    expect(ok(e.execute(addPose, { parentId: d.root, transform: box(0, 0, 10, 10) }))).toBeTruthy();
    const poses = Object.values(e.doc.layers).filter((n) => n.type === 'POSE');
    expect(poses.map((n) => n.name)).toEqual(['Pose 1']);
  });
});

describe('shortcuts that cannot run', () => {
  it('say why instead of doing nothing', () => {
    const d = new TestDriver('COMIC');
    for (const [key, mods] of [
      ['f', {}],
      ['b', {}],
      ['Delete', {}],
      ['Backspace', {}],
      ['m', {}],
      ['=', { ctrl: true }],
      ['z', { ctrl: true }],
      ['z', { ctrl: true, shift: true }],
    ] as const) {
      expect(d.key(key, mods), key).toBe(true);
    }
    expect(d.calls).toEqual([
      'refused noSelection',
      'refused noSelection',
      'refused noSelection',
      'refused noSelection',
      'refused needsKind PANEL',
      'refused noSelection',
      'refused nothingToUndo',
      'refused nothingToRedo',
    ]);
    // With something to act on, nothing is refused.
    const [panel] = panelIds(d.editor.doc, d.root);
    d.ui.update({ selection: [panel!] });
    d.calls.length = 0;
    d.key('m');
    d.key('z', { ctrl: true });
    expect(d.calls).toEqual([]);
  });
});

describe('pen pressure', () => {
  it('scales the brush: a normal press draws at the brush size, harder wider, lighter narrower', () => {
    expect(pressureRadius(30, [])).toBe(30);
    expect(pressureRadius(30, [0.5, 0.5])).toBe(30);
    expect(pressureRadius(30, [1])).toBe(53);
    expect(pressureRadius(30, [0])).toBe(8);
    expect(pressureRadius(80, [1])).toBe(BRUSH_SIZE_MAX);
    expect(pressureRadius(2, [0])).toBe(1);
  });

  it('draws a pen stroke with the radius of its mean pressure, and a mouse stroke at the brush size', () => {
    const d = new TestDriver('INFINITE');
    d.tool('BRUSH');
    d.down(100, 100, { pressure: 0.9 })
      .move(120, 100, { pressure: 0.9 })
      .move(140, 100, { pressure: 0.9 })
      .up(140, 100);
    const sketch = Object.values(d.editor.doc.layers).find((n) => n.type === 'SKETCH') as LayerNode<'SKETCH'>;
    const size = d.ui.state.brushSize;
    expect(sketch.data.brushes.map((b) => b.radius)).toEqual([Math.round(size * (0.25 + 1.5 * 0.9))]);
    d.ui.update({ selection: [sketch.id] });
    d.drag([100, 150], [140, 150]);
    const radii = (d.editor.doc.layers[sketch.id] as LayerNode<'SKETCH'>).data.brushes.map((b) => b.radius);
    expect(radii).toContain(size);
  });
});
