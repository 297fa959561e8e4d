import { describe, expect, it } from 'vitest';
import { createImageLayer, createPanelLayer, type Layer } from '@koma/domain';
import {
  buildPsd,
  planPage,
  rastersToDraw,
  shownPlan,
  type PlanNode,
  type PlanRaster,
} from '../../src/export/index.ts';
import { fixtureDoc, syntheticRasters } from './support.ts';
import { fakeMeasure } from '../text/fake-measure.ts';
import { shownText } from '../../src/text/index.ts';

const names = (nodes: readonly PlanNode[]) => nodes.map((n) => n.name);

describe('page plan', () => {
  it('orders panel groups by the reading direction: right to left reads the bottom-right panel first', () => {
    const { doc, rootId } = fixtureDoc();
    doc.comicConfiguration.readingOrder = 'RIGHT_TO_LEFT';
    const plan = planPage(doc, rootId);
    // Panel 1 is the top group (last in the bottom-first list).
    const groups = plan.nodes.filter((n) => n.kind === 'group');
    expect(groups.map((g) => [g.name, g.layerId])).toEqual([
      ['Panel 3', 'panelB'],
      ['Panel 2', 'panelC'],
      ['Panel 1', 'panelA'],
    ]);
  });

  it('asks the caller only for document layers, hidden ones included, each at its export rect', () => {
    const { doc, rootId } = fixtureDoc();
    const wanted = rastersToDraw(planPage(doc, rootId));
    expect(wanted.map((n) => [n.key, n.role, n.hidden])).toEqual([
      ['hero:image', 'image', true],
      ['sky:image', 'image', false],
      ['logo:image', 'image', false],
      ['hello:textBackground', 'textBackground', false],
      ['hello:text', 'text', false],
    ]);
    // The text is asked for over its box plus 300 px of padding on each side, cut to the page.
    const text = wanted.find((n) => n.role === 'text')!;
    expect(text.rect).toEqual({ x: 0, y: 0, width: 900, height: 700 });
    expect(text.text?.box).toEqual({ x: 200, y: 200, width: 400, height: 200 });
  });

  it('exports an infinite-canvas region at its own size, layers in drawing order with no panel block', () => {
    const { doc, rootId } = fixtureDoc();
    doc.type = 'INFINITE';
    const plan = planPage(doc, rootId, { area: { x: 600, y: 1000, width: 250, height: 200 } });
    expect([plan.width, plan.height, plan.scaleX]).toEqual([250, 200, 1]);
    const logo = plan.nodes.find((n) => n.name === 'Logo');
    expect(logo?.kind === 'raster' && logo.rect).toEqual({ x: 100, y: 100, width: 100, height: 50 });
    expect(names(plan.nodes).slice(-3)).toEqual(['Logo', 'Hello background', 'Hello']);
  });

  it('gives a shrink-to-fit type layer the size its raster is drawn at, when the caller measures text', () => {
    const { doc, rootId } = fixtureDoc();
    const hello = doc.layers.hello;
    if (hello?.type !== 'TEXT') throw new Error('fixture lost its text');
    Object.assign(hello.data, { text: 'Hello there, this is far too long for so small a bubble', textFit: 'shrink' });
    const sizeOf = (plan: ReturnType<typeof planPage>) =>
      rastersToDraw(plan).find((n) => n.role === 'text')?.text?.fontSize;
    const fitted = shownText(hello.data, 200, 100, fakeMeasure).data.fontSize;
    expect(fitted).toBeLessThan(30);
    const plan = planPage(doc, rootId, { measure: () => fakeMeasure });
    expect(sizeOf(plan)).toBeCloseTo(fitted * Math.sqrt(plan.scaleX * plan.scaleY), 6);
    // Grow-to-fit text keeps its own size.
    hello.data.textFit = 'grow';
    expect(sizeOf(planPage(doc, rootId, { measure: () => fakeMeasure }))).toBeCloseTo(30 * plan.scaleX, 6);
  });
});

describe('page plan size from the page setup', () => {
  it('exports a default page at the spec 1700 × 2400 and a B5 page at its trim plus bleed, 1:1', async () => {
    const { presetPageSetup, pageCanvasSize } = await import('@koma/domain');
    const { doc, rootId } = fixtureDoc();
    expect(planPage(doc, rootId)).toMatchObject({ width: 1700, height: 2400 });
    const setup = presetPageSetup('MANGA_B5');
    doc.comicConfiguration = { ...doc.comicConfiguration, setup, ...pageCanvasSize(setup) };
    expect(planPage(doc, rootId)).toMatchObject({ width: 2590, height: 3623, scaleX: 1, scaleY: 1 });
  });
});

describe('the plan of a flattened page', () => {
  /** Panel D, hidden, with a visible picture clipped to it; a hidden picture on the page; the fixture's hidden hero. */
  function hiddenDoc() {
    const panel = createPanelLayer('panelD', { x: 470, y: 40, size: { width: 350, height: 550 } });
    panel.visible = false;
    const art = createImageLayer(
      'art',
      { x: 480, y: 50, size: { width: 300, height: 300 } },
      { variations: [{ id: 'img-art' }] },
    );
    panel.clippedLayers = ['art'];
    const ghost = createImageLayer(
      'ghost',
      { x: 100, y: 900, size: { width: 200, height: 200 } },
      { variations: [{ id: 'img-ghost' }] },
    );
    ghost.visible = false;
    return fixtureDoc([panel, art, ghost] as Layer[]);
  }

  it('asks for no hidden layer, nor for what is clipped to one or grouped under one', () => {
    const { doc, rootId } = hiddenDoc();
    const plan = planPage(doc, rootId);
    const all = rastersToDraw(plan).map((n) => n.layerId);
    expect(all).toEqual(expect.arrayContaining(['hero', 'art', 'ghost']));
    expect(rastersToDraw(shownPlan(plan)).map((n) => n.key)).toEqual([
      'sky:image',
      'logo:image',
      'hello:textBackground',
      'hello:text',
    ]);
  });

  it('composes the same picture as the whole plan, byte for byte', () => {
    const { doc, rootId } = hiddenDoc();
    const plan = planPage(doc, rootId);
    const rasters = syntheticRasters(plan);
    const whole = buildPsd(plan, rasters, { plan: 'free', thumbnail: false }).composite;
    const shown = buildPsd(shownPlan(plan), rasters, { plan: 'free', thumbnail: false }).composite;
    expect(Buffer.from(shown.data).equals(Buffer.from(whole.data))).toBe(true);
  });

  it('ends a clipping chain at a hidden base, and keeps a hidden group as an empty one', () => {
    const raster = (name: string, hidden: boolean, clipping: boolean) =>
      ({ kind: 'raster', key: name, layerId: name, name, hidden, clipping, trim: false, role: 'image' }) as PlanRaster;
    const plan = planPage(fixtureDoc().doc, fixtureDoc().rootId);
    const nodes: PlanNode[] = [
      raster('base', true, false),
      raster('onBase', false, true),
      raster('other', false, false),
      raster('hiddenClip', true, true),
      raster('onOther', false, true),
      { kind: 'group', key: 'g', layerId: 'g', name: 'g', hidden: true, children: [raster('inGroup', false, false)] },
      raster('afterGroup', false, true),
    ];
    const shown = shownPlan({ ...plan, nodes }).nodes;
    expect(shown.map((n) => [n.name, n.kind === 'group' ? n.children.length : n.hidden])).toEqual([
      ['other', false],
      ['onOther', false],
      ['g', 0],
      ['afterGroup', false],
    ]);
  });
});
