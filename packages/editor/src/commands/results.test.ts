import { describe, expect, it } from 'vitest';
import { makeEditor, ok, pageRoot } from '../../test/support.ts';
import { addVariations, keepVariations } from './image.ts';
import { addImage } from './layers.ts';

const box = { x: 0, y: 0, size: { width: 100, height: 100 } };

function withResults() {
  const editor = makeEditor();
  const id = ok(editor.execute(addImage, { parentId: pageRoot(editor), transform: box, imageId: 'a' }));
  ok(editor.execute(addVariations, { id, imageIds: ['b', 'c', 'd'] }));
  return { editor, id };
}

const ids = (editor: ReturnType<typeof makeEditor>, id: string) => {
  const layer = editor.doc.layers[id]!;
  return layer.type === 'IMAGE'
    ? { all: layer.data.variations.map((v) => v.id), shown: layer.data.variationsIdx }
    : null;
};

describe('settling results (the results tray)', () => {
  it('drops the discarded results and shows the one picked, as one undo step', () => {
    const { editor, id } = withResults();
    ok(editor.execute(keepVariations, { id, drop: ['b', 'd'], show: 'c' }));
    expect(ids(editor, id)).toEqual({ all: ['a', 'c'], shown: 1 });
    expect(editor.undoName).toBe('Keep results');
    editor.undo();
    expect(ids(editor, id)).toEqual({ all: ['a', 'b', 'c', 'd'], shown: 1 });
  });

  it('keeps at least one result, and the shown one when none is named', () => {
    const { editor, id } = withResults();
    expect(editor.execute(keepVariations, { id, drop: ['a', 'b', 'c', 'd'] }).ok).toBe(false);
    ok(editor.execute(keepVariations, { id, drop: ['c'] }));
    expect(ids(editor, id)).toEqual({ all: ['a', 'b', 'd'], shown: 1 });
  });

  it('fits the layer to a new box with the new pictures, in the same step', () => {
    const { editor, id } = withResults();
    const transform = { x: -10, y: 5, size: { width: 200, height: 100 } };
    ok(editor.execute(addVariations, { id, imageIds: ['e'], transform }));
    expect(editor.doc.layers[id]!.transform).toEqual(transform);
    editor.undo();
    expect(editor.doc.layers[id]!.transform).toEqual(box);
    expect(
      editor.execute(addVariations, { id, imageIds: ['f'], transform: { ...transform, size: { width: 0, height: 1 } } })
        .ok,
    ).toBe(false);
  });
});
