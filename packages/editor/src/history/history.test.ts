import { describe, expect, it } from 'vitest';
import { addImage, addPanel } from '../commands/index.ts';
import { makeEditor, ok, pageRoot } from '../../test/support.ts';
import { History } from './history.ts';

const box = (x: number) => ({ x, y: 0, size: { width: 100, height: 100 } });
const entry = (name: string) => ({ name, patches: [], inversePatches: [] });

describe('History.discardUndo', () => {
  it('drops the newest undo entry without offering it to redo', () => {
    const history = new History();
    history.push(entry('a'));
    history.push(entry('b'));
    expect(history.discardUndo()?.name).toBe('b');
    expect(history.size).toEqual({ undo: 1, redo: 0 });
    expect(history.undoName).toBe('a');
    expect(history.canRedo).toBe(false);
  });

  it('leaves an existing redo stack alone', () => {
    const history = new History();
    history.push(entry('a'));
    history.push(entry('b'));
    history.takeUndo();
    expect(history.discardUndo()?.name).toBe('a');
    expect(history.redoName).toBe('b');
    expect(history.discardUndo()).toBeUndefined();
  });
});

describe('Editor.undoAndForget', () => {
  it('takes the last step back with redo staying off, and the step before it stays undoable', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const panel = ok(editor.execute(addPanel, { parentId: root, transform: box(0) }));
    const before = editor.doc;
    const version = editor.version;
    const image = ok(editor.execute(addImage, { parentId: root, transform: box(200) }));
    expect(editor.undoAndForget()).toBe(true);
    expect(editor.doc.layers[image]).toBeUndefined();
    expect(editor.doc).toEqual(before);
    expect(editor.canRedo).toBe(false);
    expect(editor.redo()).toBe(false);
    expect(editor.version).toBeGreaterThan(version); // the document changed: it is saved again
    expect(editor.undoName).not.toBe('Add image');
    expect(editor.undo()).toBe(true);
    expect(editor.doc.layers[panel]).toBeUndefined();
    expect(editor.canRedo).toBe(true);
  });

  it('does nothing on an empty history', () => {
    const editor = makeEditor();
    const before = editor.doc;
    expect(editor.undoAndForget()).toBe(false);
    expect(editor.doc).toBe(before);
  });
});
