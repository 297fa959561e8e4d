import { describe, expect, it, vi } from 'vitest';
import {
  Autosave,
  addImage,
  addPose,
  addText,
  clipLayer,
  onRotateHandle,
  rotateHandle,
  setLocked,
  setPageGutter,
  splitPreviewAt,
  currentSplitPreview,
  tailTip,
  type LayerNode,
} from '../src/index.ts';
import { TestDriver } from './driver.ts';
import { ok, panelIds } from './support.ts';

const box = (x: number, y: number, w: number, h: number) => ({ x, y, size: { width: w, height: h } });

function withImage(d: TestDriver, x = 100, y = 100, w = 200, h = 200): string {
  return ok(d.editor.execute(addImage, { parentId: d.root, transform: box(x, y, w, h), imageId: 'img' }));
}

describe('MOVE tool', () => {
  it('drags a layer as one undo step; a locked layer only gets selected', () => {
    const d = new TestDriver('INFINITE');
    const id = withImage(d);
    d.drag([150, 150], [250, 180]);
    expect(d.editor.doc.layers[id]!.transform).toEqual(box(200, 130, 200, 200));
    expect(d.ui.state.selection).toEqual([id]);
    expect(d.editor.historySize.undo).toBe(2);
    d.editor.undo();
    expect(d.editor.doc.layers[id]!.transform).toEqual(box(100, 100, 200, 200));
    d.editor.execute(setLocked, { ids: [id], locked: true });
    d.drag([150, 150], [300, 300]);
    expect(d.editor.doc.layers[id]!.transform).toEqual(box(100, 100, 200, 200));
    expect(d.ui.state.interaction).toBe('NONE');
  });

  it('resizes from a corner handle keeping an image in proportion', () => {
    const d = new TestDriver('INFINITE');
    const id = withImage(d, 100, 100, 200, 100);
    d.click(150, 150);
    d.drag([300, 200], [400, 220]);
    expect(d.editor.doc.layers[id]!.transform).toEqual(box(100, 100, 300, 150));
  });

  it('clicking empty canvas clears the selection and pans the view', () => {
    const d = new TestDriver('INFINITE');
    withImage(d);
    d.click(150, 150);
    d.drag([500, 500], [520, 470]);
    expect(d.ui.state.selection).toEqual([]);
    expect(d.view).toEqual({ x: 20, y: -30, zoom: 1 });
    expect(d.editor.canUndo).toBe(true);
    expect(d.editor.historySize.undo).toBe(1);
  });

  it('pans with the middle button and with Space held, whatever the tool', () => {
    const d = new TestDriver('INFINITE');
    withImage(d);
    d.tool('BRUSH').drag([150, 150], [160, 150], { button: 1 });
    expect(d.view.x).toBe(10);
    d.key(' ');
    d.drag([150, 150], [150, 170]);
    d.keyUp(' ');
    expect(d.view.y).toBe(20);
    expect(d.ui.state.panArmed).toBe(false);
  });
});

describe('SELECT tool', () => {
  it('selects the layers a rectangle meets and says so when it meets none', () => {
    const d = new TestDriver('INFINITE');
    const a = withImage(d, 0, 0, 50, 50);
    const b = withImage(d, 100, 0, 50, 50);
    withImage(d, 400, 400, 50, 50);
    d.tool('SELECT').drag([10, 10], [120, 20]);
    expect(d.ui.state.selection).toEqual([a, b]);
    d.drag([700, 700], [800, 800]);
    expect(d.ui.state.selection).toEqual([]);
    expect(d.ui.state.message?.text).toBe('No layer selected.');
  });
});

describe('BRUSH tool', () => {
  it('paints an inpaint mask on an image in its own pixel space and opens its window', () => {
    const d = new TestDriver('INFINITE');
    const id = withImage(d, 100, 100, 200, 200);
    d.tool('BRUSH').click(150, 150);
    d.drag([150, 150], [200, 150]);
    const image = d.editor.doc.layers[id] as LayerNode<'IMAGE'>;
    expect(image.data.maskParams.mask).toHaveLength(2);
    expect(d.ui.state.toolStates[id]).toEqual({ tab: 5, window: 0 });
  });

  it('refuses to paint on a processing layer and on a layer clipped to an image', () => {
    const d = new TestDriver('INFINITE');
    const base = withImage(d, 0, 0, 300, 300);
    const top = withImage(d, 0, 0, 300, 300);
    d.editor.execute(clipLayer, { id: top, targetId: base });
    d.ui.update({ selection: [top] });
    d.tool('BRUSH').drag([10, 10], [20, 20]);
    expect(d.ui.state.message?.text).toBe('Please merge the layer before painting on it.');
    d.ui.setProcessing(base, { status: 'IN_PROGRESS' });
    d.ui.update({ selection: [base] });
    d.drag([10, 10], [20, 20]);
    expect((d.editor.doc.layers[base] as LayerNode<'IMAGE'>).data.maskParams.mask).toEqual([]);
    expect(d.ui.state.message?.text).toBe('The layer is still processing.');
  });

  it('draws a sketch stroke on empty canvas as a new sketch layer; the stroke is one undo step', () => {
    const d = new TestDriver();
    d.tool('BRUSH').drag([300, 300], [400, 350]);
    const sketch = Object.values(d.editor.doc.layers).find((l) => l.type === 'SKETCH') as LayerNode<'SKETCH'>;
    expect(sketch.data.brushes[0]!.strokes[0]!.points.length).toBe(12);
    expect(sketch.data.brushes[0]!.radius).toBe(30);
    d.editor.undo();
    expect((d.editor.doc.layers[sketch.id] as LayerNode<'SKETCH'>).data.brushes).toEqual([]);
  });

  it('[ and ] change the brush by 5 within 1 to 100', () => {
    const d = new TestDriver();
    d.key(']');
    expect(d.ui.state.brushSize).toBe(35);
    for (let i = 0; i < 30; i++) d.key(']');
    expect(d.ui.state.brushSize).toBe(100);
    for (let i = 0; i < 30; i++) d.key('[');
    expect(d.ui.state.brushSize).toBe(1);
  });
});

describe('POSE, PANEL and TEXT tools', () => {
  it('drags a pose joint as one undo step', () => {
    const d = new TestDriver('INFINITE');
    const pose = ok(d.editor.execute(addPose, { parentId: d.root, transform: box(0, 0, 500, 1000) }));
    // joint 4 (right wrist) sits at (0.3, 0.48)
    d.tool('POSE').drag([150, 480], [200, 500]);
    const joint = (d.editor.doc.layers[pose] as LayerNode<'POSE'>).data.body.candidate[4]!;
    expect(joint[0]).toBeCloseTo(0.4, 9);
    expect(joint[1]).toBeCloseTo(0.5, 9);
    expect(d.editor.historySize.undo).toBe(2);
  });

  it('splits a panel where it is clicked (Shift for a vertical cut) and drags vertices and edges', () => {
    const d = new TestDriver();
    const [panel] = panelIds(d.editor.doc, d.root);
    d.tool('PANEL').click(500, 1200);
    expect(panelIds(d.editor.doc, d.root)).toHaveLength(2);
    const clone = panelIds(d.editor.doc, d.root)[1]!;
    d.click(800, 1800, { shift: true });
    expect(panelIds(d.editor.doc, d.root)).toHaveLength(3);
    // Drag the top-left vertex of the first panel.
    d.drag([110, 110], [150, 130]);
    expect((d.editor.doc.layers[panel!] as LayerNode<'PANEL'>).data.vertices[0]).toEqual({ x: 150, y: 130 });
    // Drag the gutter edge (bottom of the top panel): the panel below follows.
    const before = (d.editor.doc.layers[clone] as LayerNode<'PANEL'>).data.vertices[0]!.y;
    const bottomY = (d.editor.doc.layers[panel!] as LayerNode<'PANEL'>).data.vertices[3]!.y;
    d.drag([400, bottomY], [400, bottomY + 50]);
    expect((d.editor.doc.layers[clone] as LayerNode<'PANEL'>).data.vertices[0]!.y).toBeCloseTo(before + 50, 6);
  });

  it('TEXT adds a speech bubble where clicked and edits an existing text in place', () => {
    const d = new TestDriver('INFINITE');
    d.tool('TEXT').click(500, 500);
    const id = d.ui.state.editingTextId!;
    expect(d.editor.doc.layers[id]).toMatchObject({
      type: 'TEXT',
      data: { backgroundType: 'SPEECH_BUBBLE', fontSize: 30 },
    });
    expect(d.ui.state.interaction).toBe('EDIT_TEXT');
    d.controller.endTextEdit();
    const other = ok(d.editor.execute(addText, { parentId: d.root, transform: box(0, 0, 100, 100) }));
    d.click(50, 50);
    expect(d.ui.state.editingTextId).toBe(other);
  });
});

describe('speech-bubble tails', () => {
  it('drags the tail tip to re-aim the tail as one undo step', () => {
    const d = new TestDriver('INFINITE');
    const id = ok(
      d.editor.execute(addText, {
        parentId: d.root,
        transform: box(200, 200, 300, 200),
        data: { backgroundType: 'SPEECH_BUBBLE' },
      }),
    );
    d.ui.update({ selection: [id] });
    const tip = tailTip(d.editor.doc.layers[id] as LayerNode<'TEXT'>)!;
    expect(tip.y).toBeGreaterThan(400); // the default tail points down, below the bubble
    d.drag([tip.x, tip.y], [700, 350]);
    const data = (d.editor.doc.layers[id] as LayerNode<'TEXT'>).data;
    expect(data.tailAngle).toBeGreaterThan(-45);
    expect(data.tailAngle).toBeLessThan(45);
    const moved = tailTip(d.editor.doc.layers[id] as LayerNode<'TEXT'>)!;
    expect(Math.hypot(moved.x - 700, moved.y - 350)).toBeLessThan(2);
    expect(d.editor.doc.layers[id]!.transform).toEqual(box(200, 200, 300, 200));
    expect(d.editor.historySize.undo).toBe(2);
    d.editor.undo();
    expect((d.editor.doc.layers[id] as LayerNode<'TEXT'>).data.tailAngle).toBe(90);
  });
});

describe('shortcuts', () => {
  it('pick tools, reorder, delete, undo, redo, clear the selection and scale', () => {
    const d = new TestDriver('INFINITE');
    const a = withImage(d, 0, 0, 100, 100);
    const b = withImage(d, 0, 0, 100, 100);
    expect(d.key('3')).toBe(true);
    expect(d.ui.state.tool).toBe('BRUSH');
    d.ui.update({ selection: [a] });
    d.key('f');
    expect(d.editor.doc.layers[d.root]!.children).toEqual([b, a]);
    d.key('b');
    expect(d.editor.doc.layers[d.root]!.children).toEqual([a, b]);
    d.key('=', { ctrl: true });
    expect(d.editor.doc.layers[a]!.transform.size.width).toBeCloseTo(110, 9);
    d.key('z', { ctrl: true });
    expect(d.editor.doc.layers[a]!.transform.size.width).toBe(100);
    d.key('z', { ctrl: true, shift: true });
    expect(d.editor.doc.layers[a]!.transform.size.width).toBeCloseTo(110, 9);
    d.key('Delete');
    expect(d.editor.doc.layers[a]).toBeUndefined();
    d.ui.update({ selection: [b] });
    d.key('d', { meta: true });
    expect(d.ui.state.selection).toEqual([]);
  });

  it('n adds a 512×512 panel, m toggles its border, the rest call out', () => {
    const d = new TestDriver();
    d.ui.update({ pointer: { x: 600, y: 600 } });
    d.key('n');
    const id = d.ui.state.selection[0]!;
    expect(d.editor.doc.layers[id]!.transform).toEqual(box(344, 344, 512, 512));
    d.key('m');
    expect((d.editor.doc.layers[id] as LayerNode<'PANEL'>).data.border).toBe(false);
    for (const k of ['g', 'v', 'e', 'c', '-', '=', 'ArrowLeft', 'ArrowRight']) d.key(k);
    expect(d.calls).toEqual([
      'generateAtPointer',
      'generateFromPoseOrSketch',
      'estimatePose',
      'recenter',
      'zoomStep -1',
      'zoomStep 1',
      'cycleVariation -1',
      'cycleVariation 1',
    ]);
  });

  it('stand aside while a text input has focus', () => {
    const d = new TestDriver();
    expect(d.key('2', { inTextInput: true })).toBe(false);
    expect(d.ui.state.tool).toBe('MOVE');
  });
});

describe('autosave', () => {
  function fakeTimers() {
    let callback: (() => void) | null = null;
    return {
      timers: { setInterval: (cb: () => void) => ((callback = cb), 1), clearInterval: () => (callback = null) },
      tick: () => callback?.(),
    };
  }

  it('saves every tick while dirty, with a thumbnail first and every 6th tick, and stays dirty after a late edit', async () => {
    const d = new TestDriver('INFINITE');
    const save = vi.fn(() => Promise.resolve(true));
    const clock = fakeTimers();
    const autosave = new Autosave(d.editor, save, clock.timers);
    autosave.start();
    clock.tick();
    expect(save).not.toHaveBeenCalled();
    withImage(d);
    expect(autosave.status).toBe('dirty');
    for (let i = 0; i < 5; i++) {
      withImage(d);
      clock.tick();
      await autosave.saveNow();
    }
    // The first save carries a thumbnail (issue 16), then the 6th tick does.
    expect(save.mock.calls.map((c) => (c as unknown as [{ withThumbnail: boolean }])[0].withThumbnail)).toEqual([
      true,
      false,
      false,
      false,
      true,
    ]);
    expect(autosave.status).toBe('saved');
    expect(d.editor.dirty).toBe(false);

    let release!: (v: boolean) => void;
    save.mockImplementationOnce(() => new Promise<boolean>((r) => (release = r)));
    withImage(d);
    const pending = autosave.saveNow();
    withImage(d); // an edit while the save is in flight
    release(true);
    await pending;
    expect(d.editor.dirty).toBe(true);
    expect(autosave.status).toBe('dirty');
  });

  it('refreshes a stale thumbnail on the 6th tick even when the edits were already saved, and only then', async () => {
    const d = new TestDriver('INFINITE');
    const save = vi.fn(() => Promise.resolve(true));
    const clock = fakeTimers();
    const autosave = new Autosave(d.editor, save, clock.timers);
    const thumbnails = () =>
      save.mock.calls.map((c) => (c as unknown as [{ withThumbnail: boolean }])[0].withThumbnail);
    autosave.start();
    withImage(d);
    clock.tick(); // tick 1: the first save, with its thumbnail
    await autosave.saveNow();
    withImage(d);
    clock.tick(); // tick 2: saved without a thumbnail; the picture is now behind the document
    await autosave.saveNow();
    for (let tick = 3; tick <= 5; tick++) clock.tick();
    expect(thumbnails()).toEqual([true, false]);
    clock.tick(); // tick 6: nothing unsaved, but the thumbnail is stale
    await autosave.saveNow();
    expect(thumbnails()).toEqual([true, false, true]);
    for (let tick = 7; tick <= 12; tick++) clock.tick(); // nothing changed since: no more saves
    await autosave.saveNow();
    expect(thumbnails()).toEqual([true, false, true]);
    expect(autosave.status).toBe('saved');
  });

  it('reports a conflict and an error without marking the document clean', async () => {
    const d = new TestDriver('INFINITE');
    const autosave = new Autosave(d.editor, () => Promise.resolve('conflict' as const), fakeTimers().timers);
    withImage(d);
    await autosave.saveNow();
    expect(autosave.status).toBe('conflict');
    expect(d.editor.dirty).toBe(true);
    const failing = new Autosave(d.editor, () => Promise.reject(new Error('offline')), fakeTimers().timers);
    await failing.saveNow();
    expect(failing.status).toBe('error');
    expect(d.editor.dirty).toBe(true);
  });
});

describe('rotate handle', () => {
  it('turns an image about its centre by the swept angle, as one undo step', () => {
    const d = new TestDriver('INFINITE');
    const id = withImage(d, 100, 100, 200, 100);
    d.click(150, 150);
    // The handle stands 28 screen px above the top edge's midpoint: (200, 72); the centre is (200, 150).
    expect(rotateHandle(d.editor.doc.layers[id]!, 1).handle).toEqual({ x: 200, y: 72 });
    const before = d.editor.historySize.undo;
    d.down(200, 72).move(260, 150).move(278, 150);
    expect(d.ui.state.interaction).toBe('ROTATE_LAYER');
    d.up(278, 150);
    const node = d.editor.doc.layers[id]!;
    expect(node.rotation).toBeCloseTo(90, 6);
    expect(node.transform).toEqual(box(100, 100, 200, 100));
    expect(d.editor.historySize.undo).toBe(before + 1);
    d.editor.undo();
    expect(d.editor.doc.layers[id]!.rotation ?? 0).toBe(0);
  });

  it('lands on 15° steps while Shift is held, and follows the turned handle', () => {
    const d = new TestDriver('INFINITE');
    const id = withImage(d, 100, 100, 200, 100);
    d.click(150, 150);
    // 20° clockwise from straight up about (200, 150): Shift rounds it to 15°.
    const a = (20 * Math.PI) / 180;
    d.down(200, 72)
      .move(200 + Math.sin(a) * 78, 150 - Math.cos(a) * 78, { shift: true })
      .up(200 + Math.sin(a) * 78, 150 - Math.cos(a) * 78);
    expect(d.editor.doc.layers[id]!.rotation).toBe(15);
    const { handle } = rotateHandle(d.editor.doc.layers[id]!, 1);
    expect(handle.x).toBeCloseTo(200 + Math.sin(Math.PI / 12) * 78, 6);
    expect(onRotateHandle(d.editor.doc.layers[id]!, handle, 1)).toBe(true);
    // Without Shift it keeps the exact angle.
    d.down(handle.x, handle.y)
      .move(200 + 78, 150)
      .up(200 + 78, 150);
    expect(d.editor.doc.layers[id]!.rotation).toBeCloseTo(90, 6);
  });

  it('is not offered on a panel or a locked layer', () => {
    const d = new TestDriver('INFINITE');
    const id = withImage(d, 100, 100, 200, 100);
    d.editor.execute(setLocked, { ids: [id], locked: true });
    expect(onRotateHandle(d.editor.doc.layers[id]!, { x: 200, y: 72 }, 1)).toBe(false);
    const p = new TestDriver('COMIC');
    const panel = panelIds(p.editor.doc, p.root)[0]!;
    const node = p.editor.doc.layers[panel]!;
    expect(onRotateHandle(node, rotateHandle(node, 1).handle, 1)).toBe(false);
  });
});

describe('split preview', () => {
  it('shows exactly the edges the click then makes, the page gutter apart; Shift turns it down', () => {
    const d = new TestDriver('COMIC');
    const uuid = d.editor.doc.pages[0]!.uuid;
    ok(d.editor.execute(setPageGutter, { uuid, gutter: { horizontal: 40, vertical: 24 } }));
    const first = panelIds(d.editor.doc, d.root)[0]!;
    d.tool('PANEL');
    const across = splitPreviewAt(d.editor.doc, d.root, { x: 700, y: 900 }, false, 1)!;
    expect(across.panelId).toBe(first);
    expect(across.edges[1][0].y - across.edges[0][0].y).toBeCloseTo(24, 9);
    const down = splitPreviewAt(d.editor.doc, d.root, { x: 700, y: 900 }, true, 1)!;
    expect(down.direction).toBe('vertical');
    expect(down.edges[1][0].x - down.edges[0][0].x).toBeCloseTo(40, 9);
    // Shift held from the keyboard alone flips what the hover would do.
    d.key('Shift');
    expect(d.ui.state.shiftHeld).toBe(true);
    d.keyUp('Shift');
    expect(d.ui.state.shiftHeld).toBe(false);
    d.click(700, 900, { shift: true });
    const [a, b] = d.ui.state.selection as [string, string];
    const left = d.editor.doc.layers[a] as LayerNode<'PANEL'>;
    const right = d.editor.doc.layers[b] as LayerNode<'PANEL'>;
    expect([left.data.vertices[1], left.data.vertices[2]]).toEqual(down.edges[0]);
    expect([right.data.vertices[0], right.data.vertices[3]]).toEqual(down.edges[1]);
  });

  it('shows nothing where a click would not split: off the panels, on a vertex, too near an edge', () => {
    const d = new TestDriver('COMIC');
    const panel = d.editor.doc.layers[panelIds(d.editor.doc, d.root)[0]!] as LayerNode<'PANEL'>;
    const v = panel.data.vertices[0]!;
    expect(splitPreviewAt(d.editor.doc, d.root, { x: 5, y: 5 }, false, 1)).toBeNull();
    expect(splitPreviewAt(d.editor.doc, d.root, { x: v.x + 2, y: v.y + 2 }, false, 1)).toBeNull();
    // 25 px under the top edge: the top part would keep less than 20 px once half the gutter is taken.
    expect(splitPreviewAt(d.editor.doc, d.root, { x: v.x + 300, y: v.y + 25 }, false, 1)).toBeNull();
  });

  it('a drag cuts through where it began, along the drag, and shows that cut until it lifts', () => {
    const d = new TestDriver('COMIC');
    const first = panelIds(d.editor.doc, d.root)[0]!;
    d.tool('PANEL').down(700, 900).move(701, 901);
    // Within the click slop it is still a click: the hover preview, no cut chosen.
    expect(d.ui.state.splitCut).toBeNull();
    d.move(705, 960).move(712, 1100);
    // Mostly down: a cut down through x 700, shown as the preview of that cut (not of the pointer's place).
    expect(d.ui.state.splitCut).toEqual({ at: { x: 700, y: 900 }, vertical: true });
    const shown = currentSplitPreview(d.editor.doc, d.root, { ...d.ui.state, pointer: { x: 712, y: 1100 } }, 1)!;
    expect(shown).toEqual(splitPreviewAt(d.editor.doc, d.root, { x: 700, y: 900 }, true, 1));
    d.up(712, 1100);
    expect(d.ui.state.splitCut).toBeNull();
    const [a, b] = d.ui.state.selection as [string, string];
    expect(a).toBe(first);
    const left = d.editor.doc.layers[a] as LayerNode<'PANEL'>;
    const right = d.editor.doc.layers[b] as LayerNode<'PANEL'>;
    expect([left.data.vertices[1], left.data.vertices[2]]).toEqual(shown.edges[0]);
    expect([right.data.vertices[0], right.data.vertices[3]]).toEqual(shown.edges[1]);
    // Sideways across the right part: a cut across through y 600; one undo step each.
    d.down(1200, 600).move(1300, 610).up(1400, 620);
    const across = d.editor.doc.layers[d.ui.state.selection[1]!] as LayerNode<'PANEL'>;
    expect(across.data.vertices[0]!.y).toBeGreaterThan(600);
    expect(across.data.vertices[0]!.y).toBeLessThan(640);
    expect(panelIds(d.editor.doc, d.root)).toHaveLength(3);
    d.editor.undo();
    d.editor.undo();
    expect(panelIds(d.editor.doc, d.root)).toHaveLength(1);
    // Escape during a drag cuts nothing and takes the preview away.
    d.down(700, 900).move(700, 1000);
    expect(d.ui.state.splitCut).not.toBeNull();
    d.controller.cancel();
    expect(d.ui.state.splitCut).toBeNull();
    d.up(700, 1000);
    expect(panelIds(d.editor.doc, d.root)).toHaveLength(1);
  });
});
