import { describe, expect, it } from 'vitest';
import {
  addImage,
  addPanel,
  addPose,
  addSketch,
  addText,
  applyLayoutPreset,
  applyRandomLayout,
  changeVariation,
  clipLayer,
  duplicateLayer,
  findInvariantViolations,
  moveJoint,
  moveLayers,
  movePanelVertices,
  rearrangeLayer,
  removeLayers,
  resizeLayer,
  scaleLayer,
  setLocked,
  setReadingOrder,
  setVisibility,
  splitGap,
  splitPanel,
  swapVariationImage,
  addSketchStroke,
  unclipLayer,
  addVariations,
  togglePanelBorder,
  updateText,
  addPage,
  removePage,
  movePage,
  cycledIndex,
  dropVariation,
  type LayerNode,
} from '../src/index.ts';
import { makeEditor, ok, pageRoot, panelIds } from './support.ts';

const box = (x: number, y: number, width: number, height: number) => ({ x, y, size: { width, height } });

function expectSound(editor: ReturnType<typeof makeEditor>) {
  expect(findInvariantViolations(editor.doc)).toEqual([]);
}

describe('history basics', () => {
  it('undoes and redoes a command, and a new command clears redo', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const id = ok(editor.execute(addImage, { parentId: root, transform: box(0, 0, 100, 100), imageId: 'img' }));
    expect(editor.doc.layers[id]).toBeDefined();
    expect(editor.dirty).toBe(true);
    editor.undo();
    expect(editor.doc.layers[id]).toBeUndefined();
    expect(editor.canRedo).toBe(true);
    editor.redo();
    expect(editor.doc.layers[id]).toBeDefined();
    editor.undo();
    editor.execute(addText, { parentId: root, transform: box(0, 0, 10, 10) });
    expect(editor.canRedo).toBe(false);
  });

  it('a command that throws reports "Error executing command: …" and leaves the document exactly as it was', () => {
    const editor = makeEditor();
    const before = editor.doc;
    const messages: string[] = [];
    editor.onError((m) => messages.push(m));
    const result = editor.execute(moveLayers, { ids: ['missing'], dx: 1, dy: 1 });
    expect(result).toEqual({ ok: false, error: 'Error executing command: Layer missing not found' });
    expect(messages).toEqual(['Error executing command: Layer missing not found']);
    expect(editor.doc).toBe(before);
    expect(editor.canUndo).toBe(false);
    expect(editor.dirty).toBe(false);
  });

  it('a save makes the document clean; edits after the save keep it dirty', () => {
    const editor = makeEditor();
    editor.execute(addText, { parentId: pageRoot(editor), transform: box(0, 0, 10, 10) });
    const saving = editor.version;
    editor.execute(addText, { parentId: pageRoot(editor), transform: box(0, 0, 10, 10) });
    editor.markSaved(saving);
    expect(editor.dirty).toBe(true);
    editor.markSaved(editor.version);
    expect(editor.dirty).toBe(false);
  });

  it('page thumbnails from a save are kept outside history and ask for no new save', () => {
    const editor = makeEditor();
    editor.setPageThumbnails(['/api/images/thumb-1']);
    expect(editor.doc.pages[0]!.thumbnailUrl).toBe('/api/images/thumb-1');
    expect(editor.canUndo).toBe(false);
    expect(editor.needsSave).toBe(false);
  });

  it('view changes are saved but never undoable', () => {
    const editor = makeEditor();
    editor.setView({ x: 5, y: 6, zoom: 2 });
    expect(editor.doc.viewTransform).toEqual({ x: 5, y: 6, zoom: 2 });
    expect(editor.canUndo).toBe(false);
    expect(editor.dirty).toBe(false);
    expect(editor.needsSave).toBe(true);
  });

  it('a gesture is one history entry, recomputed from its start, and cancel restores', () => {
    const editor = makeEditor();
    const id = ok(editor.execute(addImage, { parentId: pageRoot(editor), transform: box(0, 0, 100, 100) }));
    const drag = editor.beginGesture(moveLayers);
    for (let i = 1; i <= 10; i++) drag.update({ ids: [id], dx: i, dy: 2 * i });
    expect(editor.doc.layers[id]!.transform).toMatchObject({ x: 10, y: 20 });
    drag.commit();
    expect(editor.historySize.undo).toBe(2);
    editor.undo();
    expect(editor.doc.layers[id]!.transform).toMatchObject({ x: 0, y: 0 });
    editor.redo();
    const cancelled = editor.beginGesture(moveLayers);
    cancelled.update({ ids: [id], dx: 100, dy: 0 });
    cancelled.cancel();
    expect(editor.doc.layers[id]!.transform).toMatchObject({ x: 10, y: 20 });
    expect(editor.historySize.undo).toBe(2);
  });

  it('moving one layer records a patch of that layer only', () => {
    const editor = makeEditor();
    const ids = Array.from({ length: 50 }, (_, i) =>
      ok(editor.execute(addImage, { parentId: pageRoot(editor), transform: box(i, i, 10, 10) })),
    );
    const before = editor.doc;
    editor.execute(moveLayers, { ids: [ids[7]!], dx: 3, dy: 4 });
    const changed = Object.keys(editor.doc.layers).filter((k) => editor.doc.layers[k] !== before.layers[k]);
    expect(changed).toEqual([ids[7]]);
  });
});

describe('layer commands', () => {
  it('adds image, panel, pose, text and sketch layers', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const image = ok(editor.execute(addImage, { parentId: root, transform: box(0, 0, 832, 1216), imageId: 'a' }));
    const panel = ok(editor.execute(addPanel, { parentId: root, transform: box(200, 200, 512, 512) }));
    const pose = ok(editor.execute(addPose, { parentId: root, transform: box(0, 0, 512, 1024), fullBody: false }));
    const text = ok(editor.execute(addText, { parentId: root, transform: box(0, 0, 300, 100) }));
    const sketch = ok(editor.execute(addSketch, { parentId: root, transform: box(0, 0, 300, 100) }));
    const doc = editor.doc;
    expect(doc.layers[image]!.type).toBe('IMAGE');
    expect(doc.layers[panel]).toMatchObject({ type: 'PANEL', data: { border: true } });
    const poseNode = doc.layers[pose] as LayerNode<'POSE'>;
    expect(poseNode.data.forceFullBody).toBe(false);
    expect(poseNode.data.body.subset[0]).toHaveLength(20);
    expect((doc.layers[text] as LayerNode<'TEXT'>).data.text).toBe('Enter Text');
    expect((doc.layers[sketch] as LayerNode<'SKETCH'>).data.brushes).toEqual([]);
    expect(editor.execute(addPanel, { parentId: root, transform: box(1600, 0, 512, 512) }).ok).toBe(false);
    expect(editor.execute(addImage, { parentId: root, transform: box(0, 0, 0, 10) }).ok).toBe(false);
    expectSound(editor);
  });

  it('removes layers and releases their clip links', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const panel = panelIds(editor.doc, root)[0]!;
    const image = ok(editor.execute(addImage, { parentId: root, transform: box(0, 0, 10, 10), clipTo: panel }));
    expect(editor.doc.layers[panel]!.clippedLayers).toEqual([image]);
    editor.execute(removeLayers, { ids: [panel] });
    expect(editor.doc.layers[image]!.clipTarget).toBeNull();
    expectSound(editor);
    editor.undo();
    expect(editor.doc.layers[image]!.clipTarget).toBe(panel);
    expect(editor.execute(removeLayers, { ids: [] })).toMatchObject({
      ok: false,
      error: expect.stringContaining('No layer selected.'),
    });
  });

  it('rearranges to front, back and an index', () => {
    const editor = makeEditor('INFINITE');
    const root = editor.doc.rootId;
    const [a, b, c] = [0, 1, 2].map(() => ok(editor.execute(addText, { parentId: root, transform: box(0, 0, 5, 5) })));
    editor.execute(rearrangeLayer, { id: a!, to: 'front' });
    expect(editor.doc.layers[root]!.children).toEqual([b, c, a]);
    editor.execute(rearrangeLayer, { id: a!, to: 'back' });
    expect(editor.doc.layers[root]!.children).toEqual([a, b, c]);
    editor.execute(rearrangeLayer, { id: c!, to: 1 });
    expect(editor.doc.layers[root]!.children).toEqual([a, c, b]);
    editor.undo();
    expect(editor.doc.layers[root]!.children).toEqual([a, b, c]);
  });

  it('moves, resizes by a corner and scales by ten percent; locked layers refuse', () => {
    const editor = makeEditor('INFINITE');
    const id = ok(editor.execute(addImage, { parentId: editor.doc.rootId, transform: box(100, 100, 200, 100) }));
    editor.execute(moveLayers, { ids: [id], dx: 10, dy: -5 });
    expect(editor.doc.layers[id]!.transform).toEqual(box(110, 95, 200, 100));
    editor.execute(resizeLayer, { id, corner: 'top-left', dx: -20, dy: -10 });
    expect(editor.doc.layers[id]!.transform).toEqual(box(90, 85, 220, 110));
    editor.execute(resizeLayer, { id, corner: 'bottom-right', dx: 110, dy: 0, keepAspect: true });
    expect(editor.doc.layers[id]!.transform).toEqual(box(90, 85, 330, 165));
    editor.execute(scaleLayer, { id, direction: -1 });
    expect(editor.doc.layers[id]!.transform.size.width).toBeCloseTo(297, 9);
    expect(editor.doc.layers[id]!.transform.x).toBeCloseTo(106.5, 9);
    editor.execute(setLocked, { ids: [id], locked: true });
    expect(editor.execute(moveLayers, { ids: [id], dx: 1, dy: 1 })).toMatchObject({
      ok: false,
      error: 'Error executing command: Layer is locked',
    });
    expect(editor.execute(resizeLayer, { id, corner: 'top-right', dx: 1, dy: 1 }).ok).toBe(false);
    expect(editor.execute(scaleLayer, { id, direction: 1 }).ok).toBe(false);
  });

  it('moving a panel carries its clipped image and stays on the page', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const panel = ok(editor.execute(addPanel, { parentId: root, transform: box(100, 100, 512, 512) }));
    const image = ok(editor.execute(addImage, { parentId: root, transform: box(100, 100, 512, 512), clipTo: panel }));
    editor.execute(moveLayers, { ids: [panel], dx: -500, dy: 50 });
    expect(editor.doc.layers[panel]!.transform).toEqual(box(0, 150, 512, 512));
    expect(editor.doc.layers[image]!.transform).toEqual(box(0, 150, 512, 512));
    expectSound(editor);
  });

  it('clips and unclips', () => {
    const editor = makeEditor('INFINITE');
    const root = editor.doc.rootId;
    const a = ok(editor.execute(addImage, { parentId: root, transform: box(0, 0, 5, 5) }));
    const b = ok(editor.execute(addText, { parentId: root, transform: box(0, 0, 5, 5) }));
    editor.execute(clipLayer, { id: b, targetId: a });
    expect(editor.doc.layers[b]!.clipTarget).toBe(a);
    expect(editor.execute(clipLayer, { id: a, targetId: b }).ok).toBe(false);
    editor.execute(unclipLayer, { id: b });
    expect(editor.doc.layers[a]!.clippedLayers).toEqual([]);
    editor.undo();
    expect(editor.doc.layers[a]!.clippedLayers).toEqual([b]);
    expectSound(editor);
  });

  it('changes visibility, lock, variation and swaps the background-removed image', () => {
    const editor = makeEditor('INFINITE');
    const id = ok(editor.execute(addImage, { parentId: editor.doc.rootId, transform: box(0, 0, 5, 5), imageId: 'v0' }));
    editor.execute(addVariations, { id, imageIds: ['v1', 'v2'] });
    expect(editor.doc.layers[id]).toMatchObject({ data: { variationsIdx: 1 } });
    editor.execute(changeVariation, { id, index: 2 });
    expect(editor.execute(changeVariation, { id, index: 3 }).ok).toBe(false);
    expect(cycledIndex(2, 3, 1)).toBe(0);
    expect(cycledIndex(0, 3, -1)).toBe(2);
    editor.execute(swapVariationImage, { id, imageId: 'v2-nobg' });
    expect((editor.doc.layers[id] as LayerNode<'IMAGE'>).data.variations.map((v) => v.id)).toEqual([
      'v0',
      'v1',
      'v2-nobg',
    ]);
    editor.undo();
    expect((editor.doc.layers[id] as LayerNode<'IMAGE'>).data.variations.map((v) => v.id)).toEqual(['v0', 'v1', 'v2']);
    editor.execute(dropVariation, { id, index: 2 });
    expect(editor.doc.layers[id]).toMatchObject({ data: { variationsIdx: 1 } });
    editor.execute(setVisibility, { ids: [id], visible: false });
    expect(editor.doc.layers[id]!.visible).toBe(false);
    editor.undo();
    expect(editor.doc.layers[id]!.visible).toBe(true);
  });

  it('keeps only the last four variations when asked', () => {
    const editor = makeEditor('INFINITE');
    const id = ok(editor.execute(addImage, { parentId: editor.doc.rootId, transform: box(0, 0, 5, 5), imageId: 'v0' }));
    editor.execute(addVariations, { id, imageIds: ['v1', 'v2', 'v3', 'v4'], keepLast: 4 });
    const data = (editor.doc.layers[id] as LayerNode<'IMAGE'>).data;
    expect(data.variations.map((v) => v.id)).toEqual(['v1', 'v2', 'v3', 'v4']);
    expect(data.variationsIdx).toBe(0);
  });

  it('duplicates 10 px down and right, just above the original, clipped like it', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const panel = panelIds(editor.doc, root)[0]!;
    const image = ok(editor.execute(addImage, { parentId: root, transform: box(200, 300, 50, 50), clipTo: panel }));
    const copy = ok(editor.execute(duplicateLayer, { id: image }));
    expect(editor.doc.layers[copy]!.transform).toEqual(box(210, 310, 50, 50));
    const children = editor.doc.layers[root]!.children;
    expect(children.indexOf(copy)).toBe(children.indexOf(image) + 1);
    expect(editor.doc.layers[panel]!.clippedLayers).toEqual([image, copy]);
    expectSound(editor);
  });

  it('moves a pose joint and draws a sketch stroke, one undo step each', () => {
    const editor = makeEditor('INFINITE');
    const root = editor.doc.rootId;
    const pose = ok(editor.execute(addPose, { parentId: root, transform: box(0, 0, 512, 1024) }));
    editor.execute(moveJoint, { id: pose, candidate: 4, x: 0.9, y: 1.5 });
    expect((editor.doc.layers[pose] as LayerNode<'POSE'>).data.body.candidate[4]!.slice(0, 2)).toEqual([0.9, 1]);
    editor.undo();
    expect((editor.doc.layers[pose] as LayerNode<'POSE'>).data.body.candidate[4]!.slice(0, 2)).toEqual([0.3, 0.48]);
    const sketch = ok(editor.execute(addSketch, { parentId: root, transform: box(0, 0, 100, 100) }));
    editor.execute(addSketchStroke, { id: sketch, color: '#666', radius: 30, points: [1, 2, 3, 4] });
    editor.execute(addSketchStroke, { id: sketch, color: '#666', radius: 30, points: [5, 6] });
    const data = (editor.doc.layers[sketch] as LayerNode<'SKETCH'>).data;
    expect(data.brushes).toHaveLength(1);
    expect(data.brushes[0]!.strokes).toHaveLength(2);
    expect(editor.execute(addSketchStroke, { id: sketch, color: '#666', radius: 101, points: [1, 1] }).ok).toBe(false);
    editor.undo();
    expect((editor.doc.layers[sketch] as LayerNode<'SKETCH'>).data.brushes[0]!.strokes).toHaveLength(1);
  });

  it('edits text fields and refuses invalid values', () => {
    const editor = makeEditor('INFINITE');
    const id = ok(editor.execute(addText, { parentId: editor.doc.rootId, transform: box(0, 0, 5, 5) }));
    editor.execute(updateText, { id, patch: { text: 'こんにちは', vertical: true } });
    expect(editor.doc.layers[id]).toMatchObject({ data: { text: 'こんにちは', vertical: true, fontSize: 50 } });
    expect(editor.execute(updateText, { id, patch: { fontSize: -3 } }).ok).toBe(false);
    expect(editor.execute(updateText, { id, patch: { fontColor: 'red' } }).ok).toBe(false);
  });

  it('grows a text box to the size its text needs, but not one that shrinks its text to fit', () => {
    const editor = makeEditor('INFINITE');
    const id = ok(editor.execute(addText, { parentId: editor.doc.rootId, transform: box(100, 100, 50, 40) }));
    editor.execute(updateText, { id, patch: { text: 'longer' }, fit: { width: 90, height: 60 } });
    expect(editor.doc.layers[id]!.transform).toEqual(box(80, 90, 90, 60));
    editor.execute(updateText, { id, patch: { textFit: 'shrink' } });
    editor.execute(updateText, { id, patch: { text: 'much longer still' }, fit: { width: 300, height: 200 } });
    expect(editor.doc.layers[id]!.transform).toEqual(box(80, 90, 90, 60));
    expect(editor.execute(updateText, { id, patch: { textFit: 'squeeze' as never } })).toMatchObject({ ok: false });
  });
});

describe.each(['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT'] as const)('panels, %s', (order) => {
  it('splits horizontally and vertically with a 15 px gap, updating neighbours and reading order', () => {
    const editor = makeEditor('COMIC', order);
    const root = pageRoot(editor);
    const first = panelIds(editor.doc, root)[0]!;
    const bottom = ok(editor.execute(splitPanel, { id: first, direction: 'horizontal', at: 0.5 }));
    expect(splitGap(editor.doc, first, bottom)).toBe(15);
    const right = ok(editor.execute(splitPanel, { id: bottom, direction: 'vertical', at: 0.5 }));
    expect(splitGap(editor.doc, bottom, right)).toBeCloseTo(15, 9);
    expectSound(editor);
    const pos = (id: string) => (editor.doc.layers[id] as LayerNode<'PANEL'>).data.position;
    expect(pos(first)).toBe(1);
    // The lower tier reads from the starting side.
    if (order === 'LEFT_TO_RIGHT') expect([pos(bottom), pos(right)]).toEqual([2, 3]);
    else expect([pos(right), pos(bottom)]).toEqual([2, 3]);
    editor.undo();
    editor.undo();
    expect(panelIds(editor.doc, root)).toEqual([first]);
    expect(editor.doc.layers[first]!.transform).toEqual(box(110, 110, 1480, 2180));
  });

  it('drags a shared edge and the neighbour follows; a locked panel refuses', () => {
    const editor = makeEditor('COMIC', order);
    const root = pageRoot(editor);
    const top = panelIds(editor.doc, root)[0]!;
    const bottom = ok(editor.execute(splitPanel, { id: top, direction: 'horizontal', at: 0.5 }));
    editor.execute(movePanelVertices, {
      moves: [
        { panelId: top, index: 2 },
        { panelId: top, index: 3 },
      ],
      dx: 0,
      dy: 100,
    });
    expect(splitGap(editor.doc, top, bottom)).toBe(15);
    expect(editor.doc.layers[top]!.transform.size.height).toBeCloseTo(1182.5, 9);
    expectSound(editor);
    editor.execute(setLocked, { ids: [top], locked: true });
    expect(editor.execute(movePanelVertices, { moves: [{ panelId: top, index: 0 }], dx: 5, dy: 5 }).ok).toBe(false);
  });

  it('applies each preset as one undoable command and numbers panels in reading order', () => {
    const editor = makeEditor('COMIC', order);
    const root = pageRoot(editor);
    const original = panelIds(editor.doc, root);
    const ids = ok(editor.execute(applyLayoutPreset, { rootId: root, presetId: 'grid-2x2' }));
    expect(ids).toHaveLength(4);
    const positions = ids.map((id) => (editor.doc.layers[id] as LayerNode<'PANEL'>).data.position).sort();
    expect(positions).toEqual([1, 2, 3, 4]);
    const firstPanel = ids.find((id) => (editor.doc.layers[id] as LayerNode<'PANEL'>).data.position === 1)!;
    expect(editor.doc.layers[firstPanel]!.transform.x).toBe(order === 'LEFT_TO_RIGHT' ? 110 : 857.5);
    expectSound(editor);
    editor.undo();
    expect(panelIds(editor.doc, root)).toEqual(original);
    expect(editor.execute(applyRandomLayout, { rootId: root }).ok).toBe(true);
    expectSound(editor);
  });

  it('toggles a panel border', () => {
    const editor = makeEditor('COMIC', order);
    const panel = panelIds(editor.doc, pageRoot(editor))[0]!;
    editor.execute(togglePanelBorder, { id: panel });
    expect(editor.doc.layers[panel]).toMatchObject({ data: { border: false } });
  });
});

describe('reading order and pages', () => {
  it('renumbers every page when the reading order changes', () => {
    const editor = makeEditor('COMIC', 'LEFT_TO_RIGHT');
    const root = pageRoot(editor);
    const ids = ok(editor.execute(applyLayoutPreset, { rootId: root, presetId: 'grid-2x2' }));
    const posOf = () => ids.map((id) => (editor.doc.layers[id] as LayerNode<'PANEL'>).data.position);
    const before = posOf();
    editor.execute(setReadingOrder, { order: 'RIGHT_TO_LEFT' });
    expect(posOf()).not.toEqual(before);
    expect([...posOf()].sort()).toEqual([1, 2, 3, 4]);
  });

  it('adds, moves and deletes pages', () => {
    const editor = makeEditor('COMIC');
    const first = editor.doc.pages[0]!.uuid;
    const second = ok(editor.execute(addPage, {}));
    expect(editor.doc.pages.map((p) => p.uuid)).toEqual([first, second]);
    editor.execute(movePage, { uuid: second, to: 0 });
    expect(editor.doc.pages.map((p) => p.uuid)).toEqual([second, first]);
    editor.execute(removePage, { uuid: second });
    expect(editor.doc.pages.map((p) => p.uuid)).toEqual([first]);
    expect(editor.execute(removePage, { uuid: first }).ok).toBe(false);
    expectSound(editor);
    editor.undo();
    expect(editor.doc.pages).toHaveLength(2);
    expectSound(editor);
  });
});
