// Panel craft (issue 17 item 3): a panel's own frame width and colour, a page's gutters used by splits, presets and
// the random layout, both undoable, refused with the field named, and kept through a save.
import { describe, expect, it } from 'vitest';
import { RANDOM_LAYOUT, boundsOf, zWorkspaceData } from '@koma/domain';
import {
  applyLayoutPreset,
  applyRandomLayout,
  buildPsd,
  denormalize,
  normalize,
  planPage,
  rastersToDraw,
  setPageGutter,
  setPanelBorder,
  splitGap,
  splitPanel,
  type LayerNode,
  type PlanNode,
  type PlanRaster,
} from '../src/index.ts';
import { makeEditor, ok, pageRoot, panelIds } from './support.ts';
import { createRaster } from '../src/export/raster.ts';

const panel = (editor: ReturnType<typeof makeEditor>, id: string) => editor.doc.layers[id] as LayerNode<'PANEL'>;

/** Gaps between consecutive boxes along one axis, for boxes that share a row (or a column). */
function gaps(boxes: { x: number; y: number; width: number; height: number }[], axis: 'x' | 'y'): number[] {
  const size = axis === 'x' ? 'width' : 'height';
  const sorted = [...boxes].sort((a, b) => a[axis] - b[axis]);
  const out: number[] = [];
  for (let i = 1; i < sorted.length; i++) out.push(sorted[i]![axis] - (sorted[i - 1]![axis] + sorted[i - 1]![size]));
  return out;
}

describe('page gutters', () => {
  it('a split keeps the spec 15 px until the page sets gutters, then uses each axis its own', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const uuid = editor.doc.pages[0]!.uuid;
    const first = panelIds(editor.doc, root)[0]!;
    ok(editor.execute(setPageGutter, { uuid, gutter: { horizontal: 40, vertical: 24 } }));
    const bottom = ok(editor.execute(splitPanel, { id: first, direction: 'horizontal', at: 0.5 }));
    expect(splitGap(editor.doc, first, bottom)).toBeCloseTo(24, 9);
    const right = ok(editor.execute(splitPanel, { id: bottom, direction: 'vertical', at: 0.5 }));
    expect(splitGap(editor.doc, bottom, right)).toBeCloseTo(40, 9);
    // The gutter change is one undo step of its own.
    editor.undo();
    editor.undo();
    editor.undo();
    expect(editor.doc.pages[0]!.gutter).toBeUndefined();
    const again = ok(editor.execute(splitPanel, { id: first, direction: 'horizontal', at: 0.5 }));
    expect(splitGap(editor.doc, first, again)).toBe(15);
  });

  it('presets and the random layout use the page gutters; without them 15 px and 10 px', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const uuid = editor.doc.pages[0]!.uuid;
    const boxes = () => panelIds(editor.doc, root).map((id) => boundsOf(panel(editor, id).data.vertices));
    ok(editor.execute(applyLayoutPreset, { rootId: root, presetId: 'grid-2x2' }));
    expect(
      new Set(
        gaps(
          boxes().filter((b) => b.y < 1000),
          'x',
        ),
      ),
    ).toEqual(new Set([15]));
    ok(editor.execute(applyRandomLayout, { rootId: root }));
    const tiers = [...new Map(boxes().map((b) => [b.y, b])).values()];
    expect(gaps(tiers, 'y').every((g) => Math.abs(g - RANDOM_LAYOUT.gap) < 1e-9)).toBe(true);

    ok(editor.execute(setPageGutter, { uuid, gutter: { horizontal: 50, vertical: 30 } }));
    ok(editor.execute(applyLayoutPreset, { rootId: root, presetId: 'grid-2x2' }));
    const grid = boxes();
    expect(
      gaps(
        grid.filter((b) => b.y < 1000),
        'x',
      ),
    ).toEqual([50]);
    expect(
      gaps(
        grid.filter((b) => b.x < 800),
        'y',
      ),
    ).toEqual([30]);
    ok(editor.execute(applyRandomLayout, { rootId: root }));
    const laid = boxes();
    const rows = [...new Map(laid.map((b) => [b.y, b])).values()];
    for (const g of gaps(rows, 'y')) expect(g).toBeCloseTo(30, 9);
    for (const row of rows) {
      for (const g of gaps(
        laid.filter((b) => b.y === row.y),
        'x',
      ))
        expect(g).toBeCloseTo(50, 9);
    }
  });

  it('refuses a bad gutter naming the field, and survives a save and load', () => {
    const editor = makeEditor();
    const uuid = editor.doc.pages[0]!.uuid;
    const before = editor.doc;
    const bad = editor.execute(setPageGutter, { uuid, gutter: { horizontal: -5, vertical: 10 } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('gutter.horizontal');
    expect(editor.doc).toBe(before);
    ok(editor.execute(setPageGutter, { uuid, gutter: { horizontal: 12, vertical: 34 } }));
    const saved = zWorkspaceData.parse(JSON.parse(JSON.stringify(denormalize(editor.doc))));
    expect(saved.pages[0]!.gutter).toEqual({ horizontal: 12, vertical: 34 });
    expect(normalize(saved, 'COMIC').pages[0]!.gutter).toEqual({ horizontal: 12, vertical: 34 });
    ok(editor.execute(setPageGutter, { uuid, gutter: null }));
    expect(denormalize(editor.doc).pages[0]).not.toHaveProperty('gutter');
  });
});

function findRaster(nodes: readonly PlanNode[], role: string): PlanRaster | undefined {
  for (const node of nodes) {
    if (node.kind === 'raster' && node.role === role) return node;
    if (node.kind === 'group') {
      const inner = findRaster(node.children, role);
      if (inner) return inner;
    }
  }
  return undefined;
}

describe('panel frame', () => {
  it('defaults to the spec 5 px black and old documents read that way', () => {
    const editor = makeEditor();
    const id = panelIds(editor.doc, pageRoot(editor))[0]!;
    expect(panel(editor, id).data).toMatchObject({ borderWidth: 5, borderColor: '#000000' });
    const old = JSON.parse(JSON.stringify(denormalize(editor.doc)));
    delete old.pages[0].rootLayer.children[0].data.borderWidth;
    delete old.pages[0].rootLayer.children[0].data.borderColor;
    const parsed = zWorkspaceData.parse(old);
    expect(parsed.pages[0]!.rootLayer.children[0]!.data).toMatchObject({ borderWidth: 5, borderColor: '#000000' });
  });

  it('width and colour change in one undo step, bad values name the field', () => {
    const editor = makeEditor();
    const id = panelIds(editor.doc, pageRoot(editor))[0]!;
    ok(editor.execute(setPanelBorder, { ids: [id], width: 12, color: '#FF0000' }));
    expect(panel(editor, id).data).toMatchObject({ borderWidth: 12, borderColor: '#ff0000' });
    editor.undo();
    expect(panel(editor, id).data).toMatchObject({ borderWidth: 5, borderColor: '#000000' });
    const wide = editor.execute(setPanelBorder, { ids: [id], width: 0 });
    expect(wide.ok ? '' : wide.error).toContain('borderWidth');
    const red = editor.execute(setPanelBorder, { ids: [id], color: 'red' });
    expect(red.ok ? '' : red.error).toContain('borderColor');
    expect(panel(editor, id).data.borderWidth).toBe(5);
  });

  it('the export strokes the frame in its own width and colour', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const id = panelIds(editor.doc, root)[0]!;
    ok(editor.execute(setPanelBorder, { ids: [id], width: 20, color: '#ff0000' }));
    const plan = planPage(editor.doc, root);
    const border = findRaster(plan.nodes, 'panelBorder')!;
    expect(border.stroke).toEqual({ width: 20, color: '#ff0000' });
    const rasters = new Map(rastersToDraw(plan).map((n) => [n.key, createRaster(n.rect.width, n.rect.height)]));
    const { composite } = buildPsd(plan, rasters, { plan: 'subscriber' });
    const at = (x: number, y: number) => [
      ...composite.data.slice((y * plan.width + x) * 4, (y * plan.width + x) * 4 + 4),
    ];
    // The left edge of the default panel is at x = 110: a 20 px line covers 100..119, red; 125 is inside, white.
    expect(at(101, 1200)).toEqual([255, 0, 0, 255]);
    expect(at(118, 1200)).toEqual([255, 0, 0, 255]);
    expect(at(125, 1200)).toEqual([255, 255, 255, 255]);
    expect(at(95, 1200)).toEqual([255, 255, 255, 255]);
  });

  it('the width is in page units: an export at another size than the page scales it as the screen does', () => {
    const editor = makeEditor();
    const root = pageRoot(editor);
    const id = panelIds(editor.doc, root)[0]!;
    ok(editor.execute(setPanelBorder, { ids: [id], width: 8 }));
    const { width, height } = editor.doc.comicConfiguration;
    const double = planPage(editor.doc, root, { size: { width: width * 2, height: height * 2 } });
    expect(findRaster(double.nodes, 'panelBorder')!.stroke).toEqual({ width: 16, color: '#000000' });
    const half = planPage(editor.doc, root, { size: { width: width / 2, height: height / 2 } });
    expect(findRaster(half.nodes, 'panelBorder')!.stroke?.width).toBe(4);
  });
});
