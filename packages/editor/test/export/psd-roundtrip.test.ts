import { describe, expect, it } from 'vitest';
import { readPsd, writePsdUint8Array, type Layer as PsdLayer } from 'ag-psd';
import {
  Editor,
  findInvariantViolations,
  importPsdLayers,
  type ImportedEntry,
  type LayerNode,
} from '../../src/index.ts';
import {
  ImportError,
  buildPsd,
  createRaster,
  ensurePsdPixels,
  komaXmp,
  planPage,
  readPsdForImport,
  writePsdBytes,
  type PsdImport,
} from '../../src/export/index.ts';
import { createPoseLayer, createSketchLayer } from '@koma/domain';
import { COLORS, fixtureDoc, syntheticRasters } from './support.ts';
import { idCounter } from '../support.ts';

/** The fixture page with the art turned and blended and the bubble turned, exported as Koma writes it. */
function exported() {
  const { doc, rootId } = fixtureDoc();
  const layers = { ...doc.layers };
  layers.sky = { ...layers.sky!, rotation: 20, flipX: true, opacity: 0.5, blendMode: 'multiply' };
  layers.hello = { ...layers.hello!, rotation: 30 };
  const turned = { ...doc, layers };
  const plan = planPage(turned, rootId);
  const built = buildPsd(plan, syntheticRasters(plan), { plan: 'subscriber' });
  return { doc: turned, rootId, bytes: writePsdBytes(built.psd) };
}

/** What the browser does after uploading the pixels: one entry per item, image ids made up. */
function entriesOf(read: PsdImport): ImportedEntry[] {
  return read.items.map((item) =>
    item.kind === 'layer'
      ? item
      : {
          kind: 'image',
          key: item.key,
          clipTo: item.clipTo,
          imageId: `upload-${item.layer}`,
          name: read.layers[item.layer]!.name,
          visible: read.layers[item.layer]!.visible,
          rect: item.rect,
          opacity: item.opacity,
          blendMode: item.blendMode,
          ...(item.turn ? { turn: item.turn } : {}),
        },
  );
}

/** Imports what was read onto a new page after the first, as the browser does; throws if the import is refused. */
function importOnNewPage(doc: ConstructorParameters<typeof Editor>[0], read: PsdImport) {
  const editor = new Editor(doc, { ids: idCounter('imp'), random: () => 0.5 });
  const result = editor.execute(importPsdLayers, {
    into: { newPage: true, after: 0 },
    entries: entriesOf(read),
    missing: read.missing,
  });
  if (!result.ok) throw new Error(result.error);
  return { editor, result };
}

const byName = (doc: { layers: Record<string, LayerNode> }, rootId: string, name: string) => {
  const hit = doc.layers[rootId]!.children.map((id) => doc.layers[id]!).find((l) => l.name === name);
  if (!hit) throw new Error(`no layer ${name}`);
  return hit;
};

/** The panel of a page whose first vertex lies within 1 px of the given panel's. */
const panelAt = (doc: { layers: Record<string, LayerNode> }, rootId: string, was: LayerNode<'PANEL'>) => {
  const v = was.data.vertices[0]!;
  const hit = doc.layers[rootId]!.children.map((id) => doc.layers[id]!).find(
    (l): l is LayerNode<'PANEL'> =>
      l.type === 'PANEL' && Math.hypot(l.data.vertices[0]!.x - v.x, l.data.vertices[0]!.y - v.y) <= 1,
  );
  if (!hit) throw new Error(`no panel at ${v.x},${v.y}`);
  return hit;
};

describe('Koma PSD round trip', () => {
  const { doc, rootId, bytes } = exported();
  const read = readPsdForImport(bytes);

  it('recognises its own file and brings panels and text back from their data, art as pixels', () => {
    expect(read.koma).toBe(true);
    const kinds = read.items.map((i) => (i.kind === 'layer' ? `${i.layer.type}:${i.layer.name}` : `pixels`));
    expect(kinds.filter((k) => k.startsWith('PANEL')).length).toBe(3);
    expect(kinds).toContain('TEXT:Hello');
    // The page background and the bubble's own raster are not imported: the text layer draws its bubble.
    expect(read.layers.map((l) => l.name).sort()).toEqual(['Hero', 'Logo', 'Sky']);
  });

  it('rebuilds the page on a new page in one undo step: same panels, clipping, text, appearance', () => {
    const { editor, result } = importOnNewPage(doc, read);
    const after = editor.doc;
    expect(after.pages).toHaveLength(2);
    const page = after.pages[1]!;
    expect(page.uuid).toBe(result.value.pageUuid);
    expect(findInvariantViolations(after)).toEqual([]);

    for (const source of ['panelA', 'panelB', 'panelC']) {
      const was = doc.layers[source] as LayerNode<'PANEL'>;
      const now = panelAt(after, page.rootId, was);
      expect(now.type).toBe('PANEL');
      expect(now.id).not.toBe(was.id);
      now.data.vertices.forEach((v, i) => {
        expect(Math.abs(v.x - was.data.vertices[i]!.x)).toBeLessThanOrEqual(1);
        expect(Math.abs(v.y - was.data.vertices[i]!.y)).toBeLessThanOrEqual(1);
      });
      expect(now.data.border).toBe(was.data.border);
    }
    const panelA = panelAt(after, page.rootId, doc.layers.panelA as LayerNode<'PANEL'>);
    const panelB = panelAt(after, page.rootId, doc.layers.panelB as LayerNode<'PANEL'>);
    const sky = byName(after, page.rootId, 'Sky');
    const hero = byName(after, page.rootId, 'Hero');
    const logo = byName(after, page.rootId, 'Logo');
    expect(sky.clipTarget).toBe(panelA.id);
    expect(panelA.clippedLayers).toEqual([sky.id]);
    expect(hero.clipTarget).toBe(panelB.id);
    expect(hero.visible).toBe(false);
    expect(logo.clipTarget).toBeNull();
    expect([sky.opacity, sky.blendMode]).toEqual([expect.closeTo(0.5, 2), 'multiply']);
    // The art comes back turned as it was (from the Koma block), its box where it was, its pixels upright.
    const skyWas = doc.layers.sky!;
    expect([sky.rotation, sky.flipX, sky.flipY]).toEqual([20, true, false]);
    expect(sky.transform.x).toBeCloseTo(skyWas.transform.x, 6);
    expect(sky.transform.y).toBeCloseTo(skyWas.transform.y, 6);
    expect(sky.transform.size.width).toBeCloseTo(skyWas.transform.size.width, 6);
    expect(sky.transform.size.height).toBeCloseTo(skyWas.transform.size.height, 6);

    const hello = byName(after, page.rootId, 'Hello') as LayerNode<'TEXT'>;
    const was = doc.layers.hello as LayerNode<'TEXT'>;
    expect(hello.type).toBe('TEXT');
    expect(hello.data.text).toBe('Hello');
    expect(hello.data.fontName).toBe(was.data.fontName);
    expect(hello.data.fontSize).toBe(was.data.fontSize);
    expect(hello.data.backgroundType).toBe('SPEECH_BUBBLE');
    expect(hello.data.vertical).toBe(false);
    expect(hello.rotation).toBe(30);
    expect(hello.transform).toEqual(was.transform);

    // The source page is untouched, and one undo takes the whole import back.
    expect(after.layers[doc.pages[0]!.rootId]).toBe(doc.layers[doc.pages[0]!.rootId]);
    editor.undo();
    expect(editor.doc.pages).toHaveLength(1);
  });

  it('takes the pixels of a turned picture back upright at their own size', () => {
    const index = read.layers.findIndex((l) => l.name === 'Sky');
    const item = read.items.find((i) => i.kind === 'pixels' && i.layer === index);
    if (item?.kind !== 'pixels') throw new Error('no Sky pixels');
    expect(item.turn).toEqual({ rotation: 20, flipX: true, flipY: false });
    const { pixels } = read.layers[index]!;
    const box = doc.layers.sky!.transform.size;
    // The page exports at 2×: the upright picture is the box at that scale, not the turned bounding box.
    expect([pixels.width, pixels.height]).toEqual([box.width * 2, box.height * 2]);
    const at = (x: number, y: number) => [
      ...pixels.data.subarray((y * pixels.width + x) * 4, (y * pixels.width + x) * 4 + 4),
    ];
    expect(at(pixels.width / 2, pixels.height / 2)).toEqual([...COLORS.sky!]);
    // Mirrored and turned 20°, the picture's bottom-left corner stayed on the page and its right-hand corners went
    // past the page's top and left edges: they come back clear (a picture not taken back, or taken back unmirrored,
    // would show these the other way round).
    expect(at(3, pixels.height - 3)).toEqual([...COLORS.sky!]);
    expect(at(pixels.width - 3, 3)[3]).toBe(0);
    expect(at(pixels.width - 3, pixels.height - 3)[3]).toBe(0);
  });

  it('keeps the pixels as they are when another tool moved the turned picture', () => {
    ensurePsdPixels();
    const psd = readPsd(bytes, { useImageData: true });
    const all = (layers: PsdLayer[]): PsdLayer[] => layers.flatMap((l) => [l, ...all(l.children ?? [])]);
    const skyLayer = all(psd.children ?? []).find((l) => l.name === 'Sky')!;
    skyLayer.top! += 40;
    skyLayer.bottom! += 40;
    const moved = readPsdForImport(writePsdUint8Array(psd, { noBackground: true }));
    const index = moved.layers.findIndex((l) => l.name === 'Sky');
    const item = moved.items.find((i) => i.kind === 'pixels' && i.layer === index);
    if (item?.kind !== 'pixels') throw new Error('no Sky pixels');
    // Not taken back by a turn that no longer fits: upright, the turn in its pixels, where the layer now is.
    expect(item.turn).toBeUndefined();
    expect(item.rect.y).toBeCloseTo(skyLayer.top! / 2, 6);
    expect(moved.layers[index]!.pixels.width).toBe(skyLayer.imageData!.width);
  });

  it('imports into the current page on request, next to what is there', () => {
    const editor = new Editor(doc, { ids: idCounter('imp'), random: () => 0.5 });
    const before = doc.layers[rootId]!.children.length;
    const result = editor.execute(importPsdLayers, {
      into: { newPage: false, parentId: rootId },
      entries: entriesOf(read),
      missing: read.missing,
    });
    if (!result.ok) throw new Error(result.error);
    expect(editor.doc.pages).toHaveLength(1);
    expect(editor.doc.layers[rootId]!.children.length).toBe(before + read.items.length);
    expect(findInvariantViolations(editor.doc)).toEqual([]);
  });

  it('writes the text turned as the canvas turns it', () => {
    ensurePsdPixels();
    const back = readPsd(bytes, { skipLayerImageData: true, skipCompositeImageData: true, skipThumbnail: true });
    const hello = (back.children ?? []).find((l) => l.name === 'Hello')!;
    const [a, b, c, d] = hello.text!.transform!;
    const r = (30 * Math.PI) / 180;
    expect([a, b, c, d].map((v) => v!.toFixed(4))).toEqual(
      [Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r)].map((v) => v.toFixed(4)),
    );
    // The box's centre lands where the layer's centre is on the page (2× export).
    const t = doc.layers.hello!.transform;
    const [, , w, h] = hello.text!.boxBounds!;
    const [e, f] = hello.text!.transform!.slice(4);
    const centre = { x: a! * (w! / 2) + c! * (h! / 2) + e!, y: b! * (w! / 2) + d! * (h! / 2) + f! };
    expect(centre.x).toBeCloseTo((t.x + t.size.width / 2) * 2, 6);
    expect(centre.y).toBeCloseTo((t.y + t.size.height / 2) * 2, 6);
  });
});

describe('damaged or hostile Koma data', () => {
  const psdWith = (xmp: string) => {
    ensurePsdPixels();
    return writePsdUint8Array({
      width: 20,
      height: 20,
      imageResources: { xmpMetadata: xmp },
      children: [{ id: 1, name: 'Art', left: 0, top: 0, imageData: createRaster(20, 20, [1, 2, 3, 255]) }],
    });
  };
  const meta = (over: Record<string, unknown>) =>
    komaXmp({
      format: 'koma-psd',
      version: 1,
      area: { x: 0, y: 0, width: 20, height: 20 },
      scaleX: 1,
      scaleY: 1,
      nodes: {},
      layers: {},
      ...over,
    } as never);

  it('names the broken field and imports nothing', () => {
    const bad = meta({
      layers: {
        p: { id: 'p', type: 'PANEL', transform: { x: 0, y: 0, size: { width: 1, height: 1 } }, data: { vertices: [] } },
      },
    });
    const read = () => readPsdForImport(psdWith(bad));
    expect(read).toThrow(ImportError);
    expect(read).toThrow(/The Koma data in this PSD is damaged \(layers\.p\.[\w.]+: .+\); nothing was imported\./);
    expect(read).toThrow(expect.objectContaining({ code: 'komaData' }));
  });

  it('refuses a block that is not JSON, or that names the wrong scale', () => {
    const notJson = komaXmp({} as never).replace('{}', '{not json');
    expect(() => readPsdForImport(psdWith(notJson))).toThrow('(it is not valid JSON)');
    expect(() => readPsdForImport(psdWith(meta({ scaleX: -2 })))).toThrow(/\(scaleX: /);
  });

  it('refuses panels that would leave the page, in words, without changing the document', () => {
    const { doc } = exported();
    const editor = new Editor(doc, { ids: idCounter('imp'), random: () => 0.5 });
    const panel = structuredClone(doc.layers.panelA!) as unknown as LayerNode<'PANEL'>;
    const far = [
      { x: 5000, y: 0 },
      { x: 5100, y: 0 },
      { x: 5100, y: 100 },
      { x: 5000, y: 100 },
    ];
    const layer = {
      ...panel,
      transform: { x: 5000, y: 0, size: { width: 100, height: 100 } },
      data: { ...panel.data, vertices: far, neighborPanels: { left: [], right: [], top: [], bottom: [] } },
      children: [],
    };
    const result = editor.execute(importPsdLayers, {
      into: { newPage: true, after: 0 },
      entries: [{ kind: 'layer', key: 'p', clipTo: null, layer: layer as never }],
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/panel leaves the page/);
    expect(editor.doc).toBe(doc);
  });
});

describe("other tools' PSDs", () => {
  it('bring type layers in as editable TEXT with their text, font, size and orientation', () => {
    ensurePsdPixels();
    const type: PsdLayer = {
      name: 'Line',
      left: 10,
      top: 10,
      right: 110,
      bottom: 60,
      text: {
        text: '｜漢字《かんじ》です',
        transform: [1, 0, 0, 1, 10, 10],
        shapeType: 'box',
        boxBounds: [0, 0, 100, 200],
        orientation: 'vertical',
        style: { font: { name: 'NotoSansJP-Regular' }, fontSize: 24, fillColor: { r: 255, g: 0, b: 0 } },
      },
      imageData: createRaster(100, 50, [0, 0, 0, 255]),
    };
    const bytes = writePsdUint8Array({
      width: 400,
      height: 400,
      children: [{ name: 'Art', left: 0, top: 0, imageData: createRaster(400, 400, [9, 9, 9, 255]) }, type],
    });
    const read = readPsdForImport(bytes);
    expect(read.koma).toBe(false);
    expect(read.layers.map((l) => l.name)).toEqual(['Art']);
    const text = read.items.find((i) => i.kind === 'layer');
    if (text?.kind !== 'layer' || text.layer.type !== 'TEXT') throw new Error('no text layer');
    expect(text.layer.data.text).toBe('｜漢字《かんじ》です');
    expect(text.layer.data.fontName).toBe('Noto Sans JP');
    expect(text.layer.data.fontSize).toBe(24);
    expect(text.layer.data.vertical).toBe(true);
    expect(text.layer.data.fontColor).toBe('#ff0000');
    expect(text.layer.transform).toEqual({ x: 10, y: 10, size: { width: 100, height: 200 } });
    expect(read.changed).toEqual([]);
  });
});

describe('Koma PSD round trip of poses and sketches', () => {
  /** The fixture page with a pose paired to the Logo and a sketch with one stroke, exported as Koma writes it. */
  function withShapes() {
    const pose = createPoseLayer('pose', { x: 500, y: 650, size: { width: 250, height: 400 } });
    pose.name = 'Pose';
    pose.data.pairedLayerId = 'logo';
    const sketch = createSketchLayer('sketch', { x: 60, y: 620, size: { width: 300, height: 300 } });
    sketch.name = 'Sketch';
    sketch.data.brushes = [
      {
        color: '#112233',
        radius: 4,
        strokes: [{ points: [10, 10, 120, 200], radius: 4, erase: false }],
      },
    ];
    const { doc, rootId } = fixtureDoc([pose, sketch]);
    const plan = planPage(doc, rootId);
    const built = buildPsd(plan, syntheticRasters(plan), { plan: 'subscriber' });
    return { doc, bytes: writePsdBytes(built.psd) };
  }
  const { doc, bytes } = withShapes();

  it('brings an untouched pose and sketch back from their data, the pairing following the new ids', () => {
    const read = readPsdForImport(bytes);
    expect(read.changed).toEqual([]);
    const { editor } = importOnNewPage(doc, read);
    const rootId = editor.doc.pages[1]!.rootId;
    // Poses and sketches are named by their number on the page, as when they are made.
    const ofType = (type: string) =>
      editor.doc.layers[rootId]!.children.map((id) => editor.doc.layers[id]!).find((l) => l.type === type);
    const pose = ofType('POSE') as LayerNode<'POSE'>;
    const sketch = ofType('SKETCH') as LayerNode<'SKETCH'>;
    expect(pose.type).toBe('POSE');
    expect(pose.data.body).toEqual((doc.layers.pose as LayerNode<'POSE'>).data.body);
    expect(pose.data.pairedLayerId).toBe(byName(editor.doc, rootId, 'Logo').id);
    expect(pose.transform).toEqual(doc.layers.pose!.transform);
    expect(sketch.type).toBe('SKETCH');
    expect(sketch.data.brushes).toEqual((doc.layers.sketch as LayerNode<'SKETCH'>).data.brushes);
    expect(findInvariantViolations(editor.doc)).toEqual([]);
  });

  it('brings a sketch painted over in another tool back as its pixels, and says so', () => {
    ensurePsdPixels();
    const psd = readPsd(bytes, { useImageData: true });
    const all = (layers: PsdLayer[]): PsdLayer[] => layers.flatMap((l) => [l, ...all(l.children ?? [])]);
    const layer = all(psd.children ?? []).find((l) => l.name === 'Sketch')!;
    layer.imageData!.data[0] = 255 - layer.imageData!.data[0]!;
    const read = readPsdForImport(writePsdUint8Array(psd, { noBackground: true }));
    expect(read.changed).toEqual([expect.objectContaining({ name: 'Sketch', code: 'repainted' })]);
    const index = read.layers.findIndex((l) => l.name === 'Sketch');
    expect(read.items.some((i) => i.kind === 'pixels' && i.layer === index)).toBe(true);
    expect(read.items.some((i) => i.kind === 'layer' && i.layer.type === 'SKETCH')).toBe(false);
    // The pose, untouched, still comes back as a pose.
    expect(read.items.some((i) => i.kind === 'layer' && i.layer.type === 'POSE')).toBe(true);
  });
});
