// Which text layers the PDF sets as vector text, and with what: the recorder's runs carry the layer's turn, its
// appearance and its panel; a layer the PDF could not show as the page image does stays out of `layerIds`.
import { describe, expect, it } from 'vitest';
import { createWorkspaceData } from '@koma/domain';
import {
  addImage,
  addText,
  clipLayer,
  Editor,
  normalize,
  planPage,
  rotateLayers,
  setAppearance,
  updateText,
  type DocState,
} from '@koma/editor';
import { pageTextRuns } from './pdf-text.ts';

function editor(): Editor {
  let n = 0;
  return new Editor(
    normalize(
      createWorkspaceData('COMIC', () => `d${n++}`, 'LEFT_TO_RIGHT'),
      'COMIC',
    ),
    {
      ids: () => `n${n++}`,
      random: () => 0.5,
    },
  );
}

function ok<R>(result: { ok: true; value: R } | { ok: false; error: string }): R {
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const box = (x: number, y: number, width: number, height: number) => ({ x, y, size: { width, height } });
const lettering = (doc: DocState, ink: 'colour' | 'grey' | 'screentone' = 'colour') =>
  pageTextRuns(doc, planPage(doc, doc.pages[0]!.rootId), ink);

describe('PDF vector lettering: which layers and how', () => {
  it('turns runs with the layer and groups them with its opacity and blend mode', () => {
    const e = editor();
    const root = e.doc.pages[0]!.rootId;
    const id = ok(e.execute(addText, { parentId: root, transform: box(200, 200, 400, 200) }));
    ok(e.execute(rotateLayers, { ids: [id], to: 30 }));
    ok(e.execute(setAppearance, { ids: [id], opacity: 0.5, blendMode: 'multiply' }));
    const { runs, layerIds } = lettering(e.doc);
    expect(layerIds.has(id)).toBe(true);
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) {
      const [a, b] = run.matrix;
      expect(Math.atan2(b, a) * (180 / Math.PI)).toBeCloseTo(30, 3);
      expect(run.layer).toMatchObject({ id, opacity: 0.5, blendMode: 'multiply' });
    }
    // Greyscale takes greys after compositing, the one-ink screen turns translucency into dots: both keep the raster.
    expect(lettering(e.doc, 'grey').layerIds.has(id)).toBe(false);
    ok(e.execute(setAppearance, { ids: [id], blendMode: 'normal' }));
    expect(lettering(e.doc, 'grey').layerIds.has(id)).toBe(true);
    expect(lettering(e.doc, 'screentone').layerIds.has(id)).toBe(false);
  });

  it('records outlines as stroke runs before their fills, and slants a face that has no italic file', () => {
    const e = editor();
    const root = e.doc.pages[0]!.rootId;
    const id = ok(e.execute(addText, { parentId: root, transform: box(200, 200, 400, 200) }));
    ok(
      e.execute(updateText, {
        id,
        patch: {
          fontStroke: true,
          fontStrokeSize: 6,
          fontStrokeColor: '#ff0000',
          fontItalic: true,
          fontName: 'Bangers',
        },
      }),
    );
    const { runs, layerIds } = lettering(e.doc);
    expect(layerIds.has(id)).toBe(true);
    expect(runs[0]).toMatchObject({ stroke: { lineWidth: 6 }, color: '#ff0000' });
    expect(runs[1]!.stroke).toBeUndefined();
    expect(runs.every((r) => r.segments.every((s) => s.skew === 0.25))).toBe(true);
    // Bangers has no bold file: the canvas fakes bold, which PDF text would not match.
    ok(e.execute(updateText, { id, patch: { fontBold: true } }));
    expect(lettering(e.doc).layerIds.has(id)).toBe(false);
  });

  it('clips text to its panel with the border, and keeps lettering that page art covers in the image', () => {
    const e = editor();
    const root = e.doc.pages[0]!.rootId;
    const panel = e.doc.layers[root]!.children.find((c) => e.doc.layers[c]!.type === 'PANEL')!;
    const id = ok(e.execute(addText, { parentId: root, transform: box(300, 300, 400, 200) }));
    ok(e.execute(clipLayer, { id, targetId: panel }));
    const { runs, layerIds } = lettering(e.doc);
    expect(layerIds.has(id)).toBe(true);
    expect(runs[0]!.layer!.clip!.length).toBeGreaterThanOrEqual(3);
    expect(runs[0]!.layer!.border).toEqual({ width: 5, color: '#000000' });
    // A picture above the text, over its words: the vector text would cover it, so the text stays a raster.
    ok(e.execute(addImage, { parentId: root, transform: box(350, 300, 300, 200), imageId: 'pic' }));
    expect(lettering(e.doc).layerIds.has(id)).toBe(false);
  });
});
