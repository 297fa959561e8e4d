import { describe, expect, it } from 'vitest';
import { makeEditor, ok, pageRoot } from '../../test/support.ts';
import { addImage } from './layers.ts';
import { addVideo, removeVideo } from './video.ts';

const box = { x: 0, y: 0, size: { width: 100, height: 100 } };
const clip = { id: 'vid1', mime: 'image/webp', model: 'wan22_i2v', duration: 5, engine: 'builtin', note: 'preview' };

function withImage() {
  const editor = makeEditor();
  const id = ok(editor.execute(addImage, { parentId: pageRoot(editor), transform: box, imageId: 'img1' }));
  return { editor, id };
}

describe('videos on an image layer', () => {
  it('adds a clip as one undoable step, with the schema defaults filled', () => {
    const { editor, id } = withImage();
    ok(editor.execute(addVideo, { id, video: clip }));
    const layer = editor.doc.layers[id]!;
    expect(layer.type === 'IMAGE' && layer.data.videos).toEqual([{ ...clip, imageId: null }]);
    expect(editor.undoName).toBe('Add video');
    editor.undo();
    const undone = editor.doc.layers[id]!;
    expect(undone.type === 'IMAGE' && undone.data.videos).toEqual([]);
    editor.redo();
    const redone = editor.doc.layers[id]!;
    expect(redone.type === 'IMAGE' && redone.data.videos.map((v) => v.id)).toEqual(['vid1']);
  });

  it('adds the same clip once, even when its job lands twice', () => {
    const { editor, id } = withImage();
    ok(editor.execute(addVideo, { id, video: clip }));
    const size = editor.historySize.undo;
    ok(editor.execute(addVideo, { id, video: clip }));
    const layer = editor.doc.layers[id]!;
    expect(layer.type === 'IMAGE' && layer.data.videos).toHaveLength(1);
    expect(editor.historySize.undo).toBe(size); // nothing changed, nothing recorded
  });

  it('refuses a clip without a duration or on a layer that is not an image', () => {
    const { editor, id } = withImage();
    const bad = editor.execute(addVideo, { id, video: { ...clip, duration: 0 } });
    expect(bad.ok).toBe(false);
    const notImage = editor.execute(addVideo, { id: pageRoot(editor), video: clip });
    expect(notImage.ok).toBe(false);
  });

  it('removes a clip, and says so when it is not there', () => {
    const { editor, id } = withImage();
    ok(editor.execute(addVideo, { id, video: clip }));
    ok(editor.execute(removeVideo, { id, videoId: 'vid1' }));
    const layer = editor.doc.layers[id]!;
    expect(layer.type === 'IMAGE' && layer.data.videos).toEqual([]);
    const missing = editor.execute(removeVideo, { id, videoId: 'vid1' });
    expect(missing.ok).toBe(false);
  });
});
