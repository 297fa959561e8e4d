import { createTextLayer, createWorkspaceData } from '@koma/domain';
import { describe, expect, it } from 'vitest';
import { Editor } from '../editor.ts';
import { normalize } from '../store/normalize.ts';
import { addPage } from './pages.ts';
import { restoreVersion } from './restore.ts';

function comic(layers: number) {
  let n = 0;
  const data = createWorkspaceData('COMIC', () => `id-${++n}`);
  for (let i = 0; i < layers; i++) {
    data.pages[0]!.rootLayer.children.push(
      createTextLayer(`t-${i}`, { x: i, y: i, size: { width: 10, height: 10 } }, { text: `t${i}` }),
    );
  }
  return normalize(data, 'COMIC');
}

describe('restoreVersion', () => {
  it('replaces the document in one command that one undo takes back', () => {
    const editor = new Editor(comic(1));
    editor.execute(addPage, {});
    const before = editor.doc;
    const old = comic(3);
    expect(editor.execute(restoreVersion, { version: old })).toMatchObject({ ok: true });
    expect(editor.doc).toEqual(old);
    expect(editor.undoName).toBe('Restore version');
    editor.undo();
    expect(editor.doc).toEqual(before);
    editor.redo();
    expect(editor.doc).toEqual(old);
  });

  it('refuses a version of another workspace type and changes nothing', () => {
    const editor = new Editor(comic(1));
    const before = editor.doc;
    let n = 0;
    const canvas = normalize(
      createWorkspaceData('INFINITE', () => `c-${++n}`),
      'INFINITE',
    );
    expect(editor.execute(restoreVersion, { version: canvas })).toMatchObject({ ok: false });
    expect(editor.doc).toBe(before);
  });
});

describe('a read-only editor', () => {
  it('refuses every command and gesture but keeps the document', () => {
    const editor = new Editor(comic(1), { readOnly: true });
    const before = editor.doc;
    expect(editor.execute(addPage, {})).toMatchObject({ ok: false, error: expect.stringContaining('read-only') });
    const gesture = editor.beginGesture(addPage);
    expect(gesture.update({})).toBe(false);
    gesture.commit();
    expect(editor.doc).toBe(before);
    expect(editor.dirty).toBe(false);
  });
});
