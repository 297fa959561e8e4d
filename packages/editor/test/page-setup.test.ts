import { describe, expect, it } from 'vitest';
import { defaultPageSetup, pageSetupBoxes, presetPageSetup, type PageSetup } from '@koma/domain';
import {
  addImage,
  addPage,
  addText,
  applyLayoutPreset,
  bleedPanel,
  findInvariantViolations,
  letteringScale,
  type LayerNode,
  setPageSetup,
  splitPanel,
  updateText,
} from '../src/index.ts';
import { makeEditor, ok, pageRoot, panelIds } from './support.ts';
import { TestDriver } from './driver.ts';

const box = (x: number, y: number, width: number, height: number) => ({ x, y, size: { width, height } });

describe('page setup command', () => {
  it('changes the canvas to trim + bleed, maps content from trim to trim, and undoes in one step', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const image = ok(editor.execute(addImage, { parentId: root, transform: box(0, 0, 850, 1200), imageId: 'i' }));
    const text = ok(editor.execute(addText, { parentId: root, transform: box(850, 1200, 300, 200) }));
    const lengths = () => {
      const d = editor.doc.layers[text]!.data as { [key: string]: unknown; paddings: { top: number } };
      return { font: d.fontSize, border: d.backgroundBorderSize, tail: d.tailWidth, padding: d.paddings.top };
    };
    const fontBefore = editor.doc.layers[text]!.type === 'TEXT' ? editor.doc.layers[text]!.data.fontSize : 0;
    // An outline, so that its width is seen to follow the page too.
    editor.execute(updateText, { id: text, patch: { fontStrokeSize: 4 } });
    const before = lengths();
    const b5 = presetPageSetup('MANGA_B5');
    ok(editor.execute(setPageSetup, { setup: b5 }));
    const { trim, media, safe } = pageSetupBoxes(b5);
    expect(editor.doc.comicConfiguration).toMatchObject({ width: media.width, height: media.height, setup: b5 });
    // The old page's top-left quarter is the new trim's top-left quarter.
    expect(editor.doc.layers[image]!.transform).toMatchObject({ x: trim.x, y: trim.y });
    expect(editor.doc.layers[image]!.transform.size.width).toBeCloseTo(trim.width / 2, 6);
    expect(editor.doc.layers[text]!.transform.x).toBeCloseTo(trim.x + trim.width / 2, 6);
    const fontAfter = editor.doc.layers[text]!.type === 'TEXT' ? editor.doc.layers[text]!.data.fontSize : 0;
    const factor = Math.min(trim.width / 1700, trim.height / 2400);
    expect(fontAfter).toBeCloseTo(fontBefore * factor, 6);
    // Every length of the lettering follows, border and outline widths included.
    const after = lengths();
    for (const key of ['font', 'border', 'tail', 'padding'] as const) {
      expect(after[key], key).toBeCloseTo((before[key] as number) * factor, 6);
    }
    expect(before.border).toBeGreaterThan(0);
    const stroke = editor.doc.layers[text]!.data as { fontStrokeSize: number };
    expect(stroke.fontStrokeSize).toBeCloseTo(4 * factor, 6);
    expect(findInvariantViolations(editor.doc)).toEqual([]);
    // A new page's first panel covers the safe area.
    const uuid = ok(editor.execute(addPage, {}));
    const page = editor.doc.pages.find((p) => p.uuid === uuid)!;
    const panel = editor.doc.layers[panelIds(editor.doc, page.rootId)[0]!]!;
    expect(panel.transform).toEqual({ x: safe.x, y: safe.y, size: { width: safe.width, height: safe.height } });
    editor.undo();
    editor.undo();
    expect(editor.doc.comicConfiguration).toMatchObject({ width: 1700, height: 2400 });
    expect(editor.doc.comicConfiguration.setup.preset).toBe('DEFAULT');
    expect(editor.doc.layers[image]!.transform).toMatchObject({ x: 0, y: 0, size: { width: 850, height: 1200 } });
  });

  it('refuses a broken setup by its field and changes nothing', () => {
    const editor = makeEditor();
    const result = editor.execute(setPageSetup, { setup: { ...presetPageSetup('A4'), dpi: 0 } });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/dpi/);
    expect(editor.doc.comicConfiguration.setup.preset).toBe('DEFAULT');
    expect(editor.canUndo).toBe(false);
  });

  it('keeps panels on the page when the new trim is smaller than a bleed panel', () => {
    const editor = makeEditor();
    ok(editor.execute(setPageSetup, { setup: presetPageSetup('MANGA_B5') }));
    const root = pageRoot(editor);
    ok(editor.execute(bleedPanel, { id: panelIds(editor.doc, root)[0]! }));
    ok(editor.execute(setPageSetup, { setup: presetPageSetup('WEBTOON') }));
    expect(findInvariantViolations(editor.doc)).toEqual([]);
  });
});

describe('bleed panel', () => {
  it('moves only the outer sides of a panel to the bleed line; sides facing a gutter stay', () => {
    const editor = makeEditor();
    ok(editor.execute(setPageSetup, { setup: presetPageSetup('MANGA_B5') }));
    const root = pageRoot(editor);
    const first = panelIds(editor.doc, root)[0]!;
    // Split into a left and a right panel: the left one's right side faces the gutter.
    ok(editor.execute(splitPanel, { id: first, direction: 'vertical', at: 0.5 }));
    const [left, right] = panelIds(editor.doc, root);
    const rightBox = editor.doc.layers[right!]!.transform;
    const leftBefore = editor.doc.layers[left!]!.transform;
    const westmost = leftBefore.x < rightBox.x ? left! : right!;
    const other = westmost === left ? right! : left!;
    const otherBox = editor.doc.layers[other]!.transform;
    ok(editor.execute(bleedPanel, { id: westmost }));
    const after = editor.doc.layers[westmost]!.transform;
    const { media } = pageSetupBoxes(presetPageSetup('MANGA_B5'));
    expect(after.x).toBe(0);
    expect(after.y).toBe(0);
    expect(after.y + after.size.height).toBe(media.height);
    // Its inner side did not move into the gutter.
    expect(after.x + after.size.width).toBeLessThan(otherBox.x);
    expect(editor.doc.layers[other]!.transform).toEqual(otherBox);
    expect(findInvariantViolations(editor.doc)).toEqual([]);
  });

  it('extends the middle-left panel of six only to the left: above and below are panels', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    ok(editor.execute(applyLayoutPreset, { rootId: root, presetId: 'grid-2x3' }));
    const ids = panelIds(editor.doc, root);
    expect(ids).toHaveLength(6);
    const middleLeft = ids.find((id) => {
      const t = editor.doc.layers[id]!.transform;
      return t.x < 850 && t.y < 1200 && t.y + t.size.height > 1200;
    })!;
    const before = editor.doc.layers[middleLeft]!.transform;
    ok(editor.execute(bleedPanel, { id: middleLeft }));
    const after = editor.doc.layers[middleLeft]!.transform;
    expect(after.x).toBe(0);
    expect(after.x + after.size.width).toBe(before.x + before.size.width);
    expect(after.y).toBe(before.y);
    expect(after.size.height).toBe(before.size.height);
  });
});

describe('new lettering on a print page', () => {
  it('starts at the share of the page it has on the spec page, whatever the setup and dpi', () => {
    expect(letteringScale(defaultPageSetup())).toBe(1);
    const share = (setup: PageSetup) => {
      const d = new TestDriver('COMIC');
      ok(d.editor.execute(setPageSetup, { setup }));
      const { trim } = pageSetupBoxes(setup);
      // Click inside the trim, away from any panel edge: the TEXT tool makes a bubble there.
      d.tool('TEXT').click(trim.x + trim.width / 2, trim.y + trim.height / 3);
      const layer = d.editor.doc.layers[d.ui.state.editingTextId!] as LayerNode<'TEXT'>;
      const width = Math.min(trim.width, (trim.height * 1700) / 2400);
      return {
        font: layer.data.fontSize / width,
        box: layer.transform.size.width / width,
        border: layer.data.backgroundBorderSize / width,
        tail: layer.data.tailLength / width,
      };
    };
    const spec = share(defaultPageSetup());
    expect(spec.font).toBeCloseTo(30 / 1700, 6);
    for (const setup of [
      presetPageSetup('MANGA_B5'),
      presetPageSetup('MANGA_B5', 'MONO'),
      presetPageSetup('A4', 'MONO'),
      presetPageSetup('TANKOBON_B6'),
      presetPageSetup('WEBTOON'),
    ]) {
      const got = share(setup);
      for (const key of ['font', 'box', 'border', 'tail'] as const)
        expect(got[key] / spec[key], `${setup.preset} ${setup.dpi} ${key}`).toBeCloseTo(1, 1);
    }
    // A B5 manuscript at 350 dpi: about 1.48 times the spec page's 30 px; at 600 dpi about 2.5 times.
    expect(letteringScale(presetPageSetup('MANGA_B5'))).toBeCloseTo(2508 / 1700, 2);
    expect(letteringScale(presetPageSetup('MANGA_B5', 'MONO'))).toBeGreaterThan(2.5);
  });
});
