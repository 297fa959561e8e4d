import { describe, expect, it } from 'vitest';
import * as cmd from '../../src/index.ts';
import { idCounter, makeEditor, ok } from '../support.ts';

// Taking in a version saved in another tab keeps this tab's undo steps that touch only what that version left
// alone: in place (no edits of ours) and rebased (our edits on other layers).

/** This tab with two text layers, and another tab starting from the same document. */
function twoTabs() {
  const mine = makeEditor('COMIC');
  const root = mine.doc.pages[0]!.rootId;
  const text = (y: number) =>
    String(
      ok(mine.execute(cmd.addText, { parentId: root, transform: { x: 10, y, size: { width: 100, height: 50 } } })),
    );
  const a = text(10);
  const b = text(90);
  const other = new cmd.Editor(mine.doc, { ids: idCounter('other') });
  return { mine, other, a, b };
}

describe('taking in another version keeps undo history', () => {
  it('with no edits of ours: steps on layers they did not change still undo, theirs stay', () => {
    const { mine, other, a, b } = twoTabs();
    // Saved before the other tab's save arrives: the document is theirs plus nothing of ours.
    ok(mine.execute(cmd.moveLayers, { ids: [a], dx: 30, dy: 0 }));
    ok(other.execute(cmd.moveLayers, { ids: [a], dx: 30, dy: 0 }));
    ok(other.execute(cmd.renameLayer, { id: b, name: 'theirs' }));
    const result = cmd.rebase(mine.doc, mine.doc, other.doc);
    if (!result.ok) throw new Error(result.conflicts.join());
    mine.replaceDocument(result.doc, result.pending, true);
    expect(mine.doc.layers[b]!.name).toBe('theirs');
    expect(mine.canUndo).toBe(true);
    mine.undo();
    expect(mine.doc.layers[a]!.transform.x).toBe(10);
    expect(mine.doc.layers[b]!.name).toBe('theirs');
  });

  it('rebased over their edit: our unsaved step undoes; a step on the layer they changed is gone, and so is every older step on it', () => {
    const { mine, a, b } = twoTabs();
    ok(mine.execute(cmd.renameLayer, { id: b, name: 'early mine' }));
    ok(mine.execute(cmd.moveLayers, { ids: [a], dx: 5, dy: 0 }));
    // Saved: base for the merge is now here.
    const saved = mine.doc;
    ok(mine.execute(cmd.moveLayers, { ids: [a], dx: 5, dy: 0 }));
    const other2 = new cmd.Editor(saved, { ids: idCounter('o2') });
    ok(other2.execute(cmd.renameLayer, { id: b, name: 'theirs' }));
    const result = cmd.rebase(saved, mine.doc, other2.doc);
    if (!result.ok) throw new Error(result.conflicts.join());
    const before = mine.historySize.undo;
    mine.replaceDocument(result.doc, result.pending, true);
    expect(mine.doc.layers[a]!.transform.x).toBe(20);
    expect(mine.doc.layers[b]!.name).toBe('theirs');
    // Kept: the two moves of a. Dropped: the rename of b (they renamed b), the add of b (it touches b too) and,
    // since that add also touched the page root, the older add of a.
    expect(before).toBe(5);
    expect(mine.historySize.undo).toBe(2);
    mine.undo();
    expect(mine.doc.layers[a]!.transform.x).toBe(15);
    mine.undo();
    expect(mine.doc.layers[a]!.transform.x).toBe(10);
    // Nothing left can bring back our rename of b over theirs.
    while (mine.canUndo) mine.undo();
    expect(mine.doc.layers[b]?.name).toBe('theirs');
  });

  it('a page they added drops steps that touched the pages (their positions moved)', () => {
    const { mine, other, a } = twoTabs();
    ok(mine.execute(cmd.addPage, {}));
    ok(other.execute(cmd.addPage, { index: 0 }));
    const result = cmd.rebase(mine.doc, mine.doc, other.doc);
    if (!result.ok) throw new Error(result.conflicts.join());
    mine.replaceDocument(result.doc, result.pending, true);
    expect(mine.doc.pages).toHaveLength(2);
    // Our page add touched the page list they changed: gone. Our text adds on the first page's root still undo.
    expect(mine.historySize.undo).toBe(2);
    while (mine.canUndo) mine.undo();
    expect(mine.doc.pages).toHaveLength(2);
    expect(mine.doc.layers[a]).toBeUndefined();
  });

  it('loading without keeping clears history as before', () => {
    const { mine, other } = twoTabs();
    mine.replaceDocument(other.doc, false);
    expect(mine.canUndo).toBe(false);
  });
});
