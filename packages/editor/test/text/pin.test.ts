import { describe, expect, it } from 'vitest';
import {
  addImage,
  addText,
  pinnedFaceCentre,
  pinnableFaces,
  tailTip,
  setFaces,
  updateText,
  moveLayers,
  flipLayers,
  rotateLayers,
  type LayerNode,
} from '../../src/index.ts';
import { makeEditor, ok } from '../support.ts';

/** An infinite canvas with a 1024 px image (variation v1) drawn at its own size at `at`, and a bubble at (800, 0). */
function imageAndBubble(at: { x: number; y: number }) {
  const editor = makeEditor('INFINITE');
  const root = editor.doc.rootId;
  const image = ok(
    editor.execute(addImage, {
      parentId: root,
      transform: { ...at, size: { width: 1024, height: 1024 } },
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
  return { editor, image, text };
}

/** One face on the image's v1 (its pixels 200..400 × 100..300), and the bubble's tail pinned to it. */
function pinToFace(editor: ReturnType<typeof makeEditor>, image: string, text: string): void {
  editor.execute(setFaces, {
    id: image,
    variationId: 'v1',
    faces: [{ bbox: [200, 100, 400, 300], label: 'face', score: 0.9 }],
  });
  editor.execute(updateText, { id: text, patch: { pinToFace: true, tailTargetLayerId: image, tailTargetFaceIdx: 0 } });
}

describe('tails pinned to a face', () => {
  it('aim at the face centre in canvas units and follow the image when it moves', () => {
    // The image at (100, 50); the face box sits at its pixels (200..400, 100..300).
    const { editor, image, text } = imageAndBubble({ x: 100, y: 50 });
    const node = () => editor.doc.layers[text] as LayerNode<'TEXT'>;
    expect(pinnedFaceCentre(editor.doc, node())).toBeNull();
    pinToFace(editor, image, text);
    expect(pinnedFaceCentre(editor.doc, node())).toEqual({ x: 400, y: 250 });
    // The tip handle sits on the pinned tail, short of the face by the tail gap: on the line from the bubble to it.
    const tip = tailTip(node(), editor.doc)!;
    const unpinned = tailTip(node())!;
    expect(tip).not.toEqual(unpinned);
    const centre = { x: 950, y: 100 };
    const towards = Math.atan2(250 - centre.y, 400 - centre.x);
    expect(Math.atan2(tip.y - centre.y, tip.x - centre.x)).toBeCloseTo(towards, 1);
    editor.execute(moveLayers, { ids: [image], dx: 50, dy: -20 });
    expect(pinnedFaceCentre(editor.doc, node())).toEqual({ x: 450, y: 230 });
    // ...and follows the face when the image moves.
    expect(tailTip(node(), editor.doc)).not.toEqual(tip);
    editor.execute(updateText, { id: text, patch: { tailTargetFaceIdx: 3 } });
    expect(pinnedFaceCentre(editor.doc, node())).toBeNull();
  });

  it('aim at the face where a flipped or turned image shows it', () => {
    // The face's centre is at pixel (300, 200) of the image, drawn at (0, 0).
    const { editor, image, text } = imageAndBubble({ x: 0, y: 0 });
    pinToFace(editor, image, text);
    const centre = () => {
      const c = pinnedFaceCentre(editor.doc, editor.doc.layers[text] as LayerNode<'TEXT'>)!;
      return { x: Math.round(c.x * 1e6) / 1e6, y: Math.round(c.y * 1e6) / 1e6 };
    };
    expect(centre()).toEqual({ x: 300, y: 200 });
    // Mirrored left to right about the box's centre (512): the face shows at x 724.
    editor.execute(flipLayers, { ids: [image], axis: 'horizontal' });
    expect(centre()).toEqual({ x: 724, y: 200 });
    editor.execute(flipLayers, { ids: [image], axis: 'horizontal' });
    // Turned a quarter clockwise about (512, 512): (300, 200) goes to (824, 300).
    editor.execute(rotateLayers, { ids: [image], to: 90 });
    expect(centre()).toEqual({ x: 824, y: 300 });
  });
});

describe('faces a tail can be pinned to', () => {
  it('lists the images beside the bubble that have faces, in layer order, for the menu and the outlines alike', () => {
    const editor = makeEditor('INFINITE');
    const root = editor.doc.rootId;
    const add = (imageId: string, x: number) =>
      ok(
        editor.execute(addImage, {
          parentId: root,
          transform: { x, y: 0, size: { width: 512, height: 512 } },
          imageId,
        }),
      );
    const plain = add('p1', 0);
    const withFaces = add('f1', 600);
    const text = ok(
      editor.execute(addText, {
        parentId: root,
        transform: { x: 0, y: 600, size: { width: 300, height: 200 } },
        data: { backgroundType: 'SPEECH_BUBBLE' },
      }),
    );
    const node = () => editor.doc.layers[text] as LayerNode<'TEXT'>;
    expect(pinnableFaces(editor.doc, node())).toEqual([]);
    editor.execute(setFaces, {
      id: withFaces,
      variationId: 'f1',
      faces: [
        { bbox: [0, 0, 10, 10], label: 'face', score: 0.9 },
        { bbox: [20, 0, 30, 10], label: 'face', score: 0.8 },
      ],
    });
    const listed = pinnableFaces(editor.doc, node());
    expect(listed.map((l) => l.image.id)).toEqual([withFaces]);
    expect(listed[0]!.faces).toHaveLength(2);
    expect(listed.some((l) => l.image.id === plain)).toBe(false);
  });
});
