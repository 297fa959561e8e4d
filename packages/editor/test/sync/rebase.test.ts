import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeWorkspaceData, encodeWorkspaceData } from '@koma/domain';
import * as cmd from '../../src/index.ts';
import { idCounter, makeEditor, ok } from '../support.ts';

// Issue 14 item 3: a save from elsewhere meets this tab's unsaved edits. Different layers: both survive. The same
// layer: a conflict naming it. Nothing the server would refuse comes out.

/** A base with two text layers on page 1, and two tabs editing copies of it with their own ids. */
function twoTabs() {
  const seed = makeEditor('COMIC');
  const root = seed.doc.pages[0]!.rootId;
  const a = ok(
    seed.execute(cmd.addText, { parentId: root, transform: { x: 10, y: 10, size: { width: 100, height: 50 } } }),
  );
  const b = ok(
    seed.execute(cmd.addText, { parentId: root, transform: { x: 10, y: 90, size: { width: 100, height: 50 } } }),
  );
  const base = seed.doc;
  const ours = new cmd.Editor(base, { ids: idCounter('ours') });
  const theirs = new cmd.Editor(base, { ids: idCounter('theirs') });
  return { base, ours, theirs, root, a: String(a), b: String(b) };
}

function merged(result: cmd.RebaseResult): cmd.DocState {
  if (!result.ok) throw new Error(`unexpected conflict: ${result.conflicts.join(', ')}`);
  return result.doc;
}

describe('rebase', () => {
  it('without edits of ours it is their version, with our view kept', () => {
    const { base, ours, theirs, a } = twoTabs();
    ok(theirs.execute(cmd.moveLayers, { ids: [a], dx: 40, dy: 0 }));
    const view = { x: 12, y: 34, zoom: 2 };
    ours.setView(view, ours.doc.pages[0]!.uuid);
    const result = cmd.rebase(base, ours.doc, theirs.doc);
    const doc = merged(result);
    expect(doc.layers[a]!.transform.x).toBe(50);
    expect(doc.pages[0]!.viewTransform).toEqual(view);
    expect(result.ok && result.pending).toBe(false);
  });

  // A tab learns its pages' thumbnail addresses from its own save's reply, and the server keeps them beside the
  // document, not in it: another device's save carries none. That is nobody's edit, so it must not make this tab
  // save their version again (each save elsewhere cost a second revision and flashed "Saving…" here).
  it('is not pending when only the thumbnail address this tab learned differs', () => {
    const { base, ours, theirs, a } = twoTabs();
    ours.setPageThumbnails(['/api/images/ours']);
    ok(theirs.execute(cmd.moveLayers, { ids: [a], dx: 40, dy: 0 }));
    const result = cmd.rebase(base, ours.doc, theirs.doc);
    const doc = merged(result);
    expect(doc.layers[a]!.transform.x).toBe(50);
    expect(doc.pages[0]!.thumbnailUrl).toBe('/api/images/ours');
    expect(result.ok && result.pending).toBe(false);
  });

  it('keeps both edits when they touch different layers', () => {
    const { base, ours, theirs, a, b } = twoTabs();
    ok(ours.execute(cmd.moveLayers, { ids: [a], dx: 5, dy: 0 }));
    ok(theirs.execute(cmd.renameLayer, { id: b, name: 'theirs' }));
    const result = cmd.rebase(base, ours.doc, theirs.doc);
    const doc = merged(result);
    expect(doc.layers[a]!.transform.x).toBe(15);
    expect(doc.layers[b]!.name).toBe('theirs');
    expect(result.ok && result.pending).toBe(true);
  });

  it('keeps layers added to the same page on both sides, ours after the layer it followed', () => {
    const { base, ours, theirs, root, a, b } = twoTabs();
    const mine = String(
      ok(ours.execute(cmd.addText, { parentId: root, transform: { x: 0, y: 0, size: { width: 9, height: 9 } } })),
    );
    const other = String(
      ok(theirs.execute(cmd.addText, { parentId: root, transform: { x: 1, y: 1, size: { width: 9, height: 9 } } })),
    );
    const doc = merged(cmd.rebase(base, ours.doc, theirs.doc));
    const children = doc.layers[root]!.children;
    expect(children).toContain(mine);
    expect(children).toContain(other);
    expect(children.indexOf(a)).toBeLessThan(children.indexOf(b));
    expect(cmd.findInvariantViolations(doc)).toEqual([]);
  });

  it('names the layer both sides changed', () => {
    const { base, ours, theirs, a } = twoTabs();
    ok(ours.execute(cmd.moveLayers, { ids: [a], dx: 5, dy: 0 }));
    ok(theirs.execute(cmd.renameLayer, { id: a, name: 'theirs' }));
    expect(cmd.rebase(base, ours.doc, theirs.doc)).toEqual({ ok: false, conflicts: [a] });
  });

  it('is a conflict when we changed a layer they removed', () => {
    const { base, ours, theirs, a } = twoTabs();
    ok(ours.execute(cmd.moveLayers, { ids: [a], dx: 5, dy: 0 }));
    ok(theirs.execute(cmd.removeLayers, { ids: [a] }));
    const result = cmd.rebase(base, ours.doc, theirs.doc);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.conflicts).toContain(a);
  });

  it('is a conflict when we added a layer to a page they removed (the result would be broken)', () => {
    const { ours, theirs } = twoTabs();
    ok(ours.execute(cmd.addPage, {}));
    ok(theirs.execute(cmd.addPage, {}));
    const base2 = ours.doc;
    const theirs2 = new cmd.Editor(base2, { ids: idCounter('t2') });
    const page = base2.pages[1]!;
    ok(ours.execute(cmd.addText, { parentId: page.rootId, transform: { x: 0, y: 0, size: { width: 9, height: 9 } } }));
    ok(theirs2.execute(cmd.removePage, { uuid: page.uuid }));
    expect(cmd.rebase(base2, ours.doc, theirs2.doc).ok).toBe(false);
  });

  it('follows the open page by uuid when their pages moved', () => {
    const { ours, theirs } = twoTabs();
    ok(ours.execute(cmd.addPage, {}));
    const base2 = ours.doc;
    void theirs;
    const other = new cmd.Editor(base2, { ids: idCounter('o') });
    ok(other.execute(cmd.addPage, { index: 0 }));
    const open = base2.pages[1]!.uuid;
    ours.setLastPage(1);
    const doc = merged(cmd.rebase(base2, ours.doc, other.doc));
    expect(doc.pages[doc.lastPage]!.uuid).toBe(open);
  });
});

type Edit = { kind: 'move' | 'rename' | 'remove' | 'add' | 'add-page'; at: number };
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('move', 'rename', 'remove', 'add', 'add-page'),
  at: fc.nat(20),
});

function apply(editor: cmd.Editor, e: Edit): void {
  const ids = Object.keys(editor.doc.layers).filter((id) => editor.doc.layers[id]!.parent !== null);
  const id = ids[e.at % Math.max(1, ids.length)];
  const page = editor.doc.pages[e.at % editor.doc.pages.length]!;
  if (e.kind === 'move' && id) editor.execute(cmd.moveLayers, { ids: [id], dx: 3, dy: 1 });
  if (e.kind === 'rename' && id) editor.execute(cmd.renameLayer, { id, name: `n${e.at}` });
  if (e.kind === 'remove' && id) editor.execute(cmd.removeLayers, { ids: [id] });
  if (e.kind === 'add')
    editor.execute(cmd.addText, { parentId: page.rootId, transform: { x: e.at, y: 0, size: { width: 9, height: 9 } } });
  if (e.kind === 'add-page') editor.execute(cmd.addPage, {});
}

describe('rebase of random edits on both sides', () => {
  it('either names a conflict or yields a sound document holding each side’s own changes', () => {
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), fc.array(edit, { maxLength: 6 }), (mine, others) => {
        const { base, ours, theirs } = twoTabs();
        for (const e of mine) apply(ours, e);
        for (const e of others) apply(theirs, e);
        const result = cmd.rebase(base, ours.doc, theirs.doc);
        if (!result.ok) {
          expect(result.conflicts.length).toBeGreaterThan(0);
          return;
        }
        expect(cmd.findInvariantViolations(result.doc)).toEqual([]);
        const decoded = decodeWorkspaceData(
          JSON.parse(JSON.stringify(encodeWorkspaceData(cmd.denormalize(result.doc)))),
        );
        expect(decoded.ok).toBe(true);
        // A layer only one side changed (apart from the layers it holds) is that side's version of it.
        for (const id of new Set([...Object.keys(ours.doc.layers), ...Object.keys(theirs.doc.layers)])) {
          const [b, o, t] = [base.layers[id], ours.doc.layers[id], theirs.doc.layers[id]];
          const own = (n: cmd.LayerNode | undefined) => n && { ...n, children: [], clippedLayers: [] };
          if (cmd.sameValue(own(o), own(b)) && !cmd.sameValue(own(t), own(b)))
            expect(own(result.doc.layers[id])).toEqual(own(t));
          if (cmd.sameValue(own(t), own(b)) && !cmd.sameValue(own(o), own(b)))
            expect(own(result.doc.layers[id])).toEqual(own(o));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 150) },
    );
  });
});

describe('Editor.replaceDocument', () => {
  it('puts the version in place, forgets history recorded against the old one, and is dirty only when asked', () => {
    const { ours, theirs, a } = twoTabs();
    ok(ours.execute(cmd.moveLayers, { ids: [a], dx: 5, dy: 0 }));
    ok(theirs.execute(cmd.renameLayer, { id: a, name: 'theirs' }));
    ours.replaceDocument(theirs.doc, false);
    expect(ours.doc.layers[a]!.name).toBe('theirs');
    expect(ours.canUndo).toBe(false);
    expect(ours.dirty).toBe(false);
    ours.replaceDocument(theirs.doc, true);
    expect(ours.dirty).toBe(true);
  });
});
