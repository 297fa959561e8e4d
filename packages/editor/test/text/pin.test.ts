import { describe, expect, it } from 'vitest';
import {
  addImage,
  addText,
  pinnedFaceCentre,
  setFaces,
  updateText,
  moveLayers,
  type LayerNode,
} from '../../src/index.ts';
import { makeEditor, ok } from '../support.ts';

describe('tails pinned to a face', () => {
  it('aim at the face centre in canvas units and follow the image when it moves', () => {
    const editor = makeEditor('INFINITE');
    const root = editor.doc.rootId;
    // A 1024 px image drawn at its own size at (100, 50); the face box sits at pixels (200..400, 100..300).
    const image = ok(
      editor.execute(addImage, {
        parentId: root,
        transform: { x: 100, y: 50, size: { width: 1024, height: 1024 } },
        imageId: 'v1',
      }),
    );
    const text = ok(
      editor.execute(addText, {
        parentId: root,
        transform: { x: 800, y: 0, size: { width: 300, height: 200 } },
        data: { backgroundType: 'SPEECH_BUBBLE' },
      }),
    );
    const node = () => editor.doc.layers[text] as LayerNode<'TEXT'>;
    expect(pinnedFaceCentre(editor.doc, node())).toBeNull();
    editor.execute(setFaces, {
      id: image,
      variationId: 'v1',
      faces: [{ bbox: [200, 100, 400, 300], label: 'face', score: 0.9 }],
    });
    editor.execute(updateText, {
      id: text,
      patch: { pinToFace: true, tailTargetLayerId: image, tailTargetFaceIdx: 0 },
    });
    expect(pinnedFaceCentre(editor.doc, node())).toEqual({ x: 400, y: 250 });
    editor.execute(moveLayers, { ids: [image], dx: 50, dy: -20 });
    expect(pinnedFaceCentre(editor.doc, node())).toEqual({ x: 450, y: 230 });
    editor.execute(updateText, { id: text, patch: { tailTargetFaceIdx: 3 } });
    expect(pinnedFaceCentre(editor.doc, node())).toBeNull();
  });
});
