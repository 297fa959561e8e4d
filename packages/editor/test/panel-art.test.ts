import { describe, expect, it } from 'vitest';
import {
  addImage,
  addPose,
  addSketch,
  addSketchStroke,
  boxOf,
  clipPanelChoices,
  clipToPanel,
  controlPlacement,
  coverBox,
  panelsByOverlap,
  placeInPanelAt,
  rearrangeLayer,
  splitPanel,
  type LayerNode,
} from '../src/index.ts';
import { makeEditor, ok, pageRoot, panelIds } from './support.ts';

/** A page split into three panels stacked top to bottom; returns them top first. */
function threePanels() {
  const editor = makeEditor();
  const root = pageRoot(editor);
  const [first] = panelIds(editor.doc, root);
  ok(editor.execute(splitPanel, { id: first!, direction: 'horizontal', at: 1 / 3 }));
  const lower = panelIds(editor.doc, root).sort(
    (a, b) => boxOf(editor.doc.layers[b]!).y - boxOf(editor.doc.layers[a]!).y,
  )[0]!;
  ok(editor.execute(splitPanel, { id: lower, direction: 'horizontal', at: 0.5 }));
  const panels = panelIds(editor.doc, root).sort(
    (a, b) => boxOf(editor.doc.layers[a]!).y - boxOf(editor.doc.layers[b]!).y,
  );
  return { editor, root, panels };
}

describe('art into panels', () => {
  it('covers a box keeping the picture aspect, centred', () => {
    expect(coverBox({ x: 100, y: 50, width: 400, height: 200 }, { width: 100, height: 100 })).toEqual({
      x: 100,
      y: -50,
      size: { width: 400, height: 400 },
    });
  });

  it('places a picture dropped over a panel to cover that panel, clipped to it; none elsewhere', () => {
    const { editor, root, panels } = threePanels();
    const middle = boxOf(editor.doc.layers[panels[1]!]!);
    const at = { x: middle.x + middle.width / 2, y: middle.y + middle.height / 2 };
    const placed = placeInPanelAt(editor.doc, root, at, { width: 768, height: 1024 })!;
    expect(placed.clipTo).toBe(panels[1]);
    expect(placed.transform.size.width).toBeCloseTo(middle.width);
    expect(placed.transform.size.height).toBeCloseTo((middle.width * 1024) / 768);
    expect(placed.transform.y + placed.transform.size.height / 2).toBeCloseTo(at.y);
    expect(placeInPanelAt(editor.doc, root, { x: -50, y: -50 }, { width: 10, height: 10 })).toBeNull();
  });

  it('offers the panel an image overlaps most first, and nothing for a panel', () => {
    const { editor, root, panels } = threePanels();
    const bottom = boxOf(editor.doc.layers[panels[2]!]!);
    // Mostly over the bottom panel, a little over the middle one; added last, so above all three.
    const image = ok(
      editor.execute(addImage, {
        parentId: root,
        transform: { x: bottom.x, y: bottom.y - 40, size: { width: 300, height: 200 } },
      }),
    );
    expect(clipPanelChoices(editor.doc, root, image)).toEqual([panels[2], panels[1]]);
    expect(clipPanelChoices(editor.doc, root, panels[0]!)).toEqual([]);
    expect(panelsByOverlap(editor.doc, root, { x: -500, y: -500, width: 10, height: 10 })).toEqual([]);
  });

  it('clips to a panel in one step, moving the image above a panel it was under', () => {
    const { editor, root, panels } = threePanels();
    const image = ok(
      editor.execute(addImage, { parentId: root, transform: { x: 0, y: 0, size: { width: 100, height: 100 } } }),
    );
    // Sent to the back, below every panel, where a panel's background would hide it.
    ok(editor.execute(rearrangeLayer, { id: image, to: 'back' }));
    expect(editor.doc.layers[root]!.children[0]).toBe(image);
    ok(editor.execute(clipToPanel, { id: image, panelId: panels[0]! }));
    expect(editor.doc.layers[image]!.clipTarget).toBe(panels[0]);
    expect(editor.doc.layers[panels[0]!]!.clippedLayers).toEqual([image]);
    const order = editor.doc.layers[root]!.children;
    expect(order.indexOf(image)).toBeGreaterThan(order.indexOf(panels[0]!));
    // Re-clipping to another panel releases the first.
    ok(editor.execute(clipToPanel, { id: image, panelId: panels[2]! }));
    expect(editor.doc.layers[panels[0]!]!.clippedLayers).toEqual([]);
    expect(editor.doc.layers[image]!.clipTarget).toBe(panels[2]);
    editor.undo();
    expect(editor.doc.layers[image]!.clipTarget).toBe(panels[0]);
    // A panel is never clipped, and nothing is clipped to what is not a panel.
    expect(editor.execute(clipToPanel, { id: panels[1]!, panelId: panels[0]! }).ok).toBe(false);
    expect(editor.execute(clipToPanel, { id: panels[1]!, panelId: image }).ok).toBe(false);
  });

  it('puts the result of v from a pose or sketch inside its panel, else at its own box', () => {
    const { editor, root, panels } = threePanels();
    const middle = boxOf(editor.doc.layers[panels[1]!]!);
    const pose = ok(
      editor.execute(addPose, {
        parentId: root,
        transform: { x: middle.x + 50, y: middle.y + 20, size: { width: 200, height: 300 } },
      }),
    );
    expect(controlPlacement(editor.doc, root, pose)).toEqual({
      parentId: root,
      region: { x: middle.x + 50, y: middle.y + 20, width: 200, height: 300 },
      panelId: panels[1],
    });
    // A page-sized sketch whose strokes are in the bottom panel: the result covers that panel.
    const page = editor.doc.comicConfiguration;
    const sketch = ok(
      editor.execute(addSketch, {
        parentId: root,
        transform: { x: 0, y: 0, size: { width: page.width, height: page.height } },
      }),
    );
    const bottom = boxOf(editor.doc.layers[panels[2]!]!);
    const cx = bottom.x + bottom.width / 2;
    const cy = bottom.y + bottom.height / 2;
    ok(
      editor.execute(addSketchStroke, {
        id: sketch,
        color: '#000000',
        radius: 5,
        points: [cx - 100, cy, cx + 100, cy + 50],
      }),
    );
    expect(controlPlacement(editor.doc, root, sketch)).toEqual({ parentId: root, region: bottom, panelId: panels[2] });
    // Off the panels: at the source's own box, unclipped.
    const away = ok(
      editor.execute(addPose, { parentId: root, transform: { x: -600, y: 0, size: { width: 200, height: 300 } } }),
    );
    expect(controlPlacement(editor.doc, root, away)).toEqual({
      parentId: root,
      region: { x: -600, y: 0, width: 200, height: 300 },
      panelId: null,
    });
    const sketchNode = editor.doc.layers[sketch] as LayerNode<'SKETCH'>;
    expect(sketchNode.data.brushes).toHaveLength(1);
  });
});
