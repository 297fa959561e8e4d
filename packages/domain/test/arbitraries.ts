import fc from 'fast-check';
import {
  defaultPageSetup,
  COMIC_PAGE_HEIGHT,
  COMIC_PAGE_WIDTH,
  DOCUMENT_VERSION,
  createFillLayer,
  createGroupLayer,
  createImageLayer,
  createPanelLayer,
  createPoseLayer,
  createSketchLayer,
  createTextLayer,
  type Layer,
  type WorkspaceData,
} from '../src/index.ts';

/** A finite double without -0 (JSON cannot keep -0, and a saved document never holds one). */
const num = (min: number, max: number) =>
  fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((x) => x + 0);

const transform = fc.record({
  x: num(-5000, 5000),
  y: num(-5000, 5000),
  size: fc.record({ width: num(1, 3000), height: num(1, 3000) }),
});

const color = fc.constantFrom('#000', '#fff', '#ff0000', '#12345678', '#abc');

type LayerMaker = (id: string) => Layer;

const imageLayer: fc.Arbitrary<LayerMaker> = fc
  .record({
    t: transform,
    variations: fc.array(fc.uuid(), { maxLength: 4 }),
    idx: fc.nat(),
    exposure: num(-2, 2),
    prompt: fc.string(),
    seed: fc.integer({ min: -1, max: 2147483646 }),
  })
  .map(({ t, variations, idx, exposure, prompt, seed }) => (id: string) => {
    const layer = createImageLayer(id, t, {
      variations: variations.map((v) => ({ id: v })),
      variationsIdx: variations.length ? idx % variations.length : 0,
      params: null,
    });
    layer.data.filterParams.exposure = exposure;
    if (variations.length > 0) {
      layer.data.faceStore[variations[0]!] = [{ bbox: [1, 2, 30, 40], label: 'face', score: 0.9 }];
      layer.data.params = createImageLayer('x', t, { params: { prompt, seed } as never }).data.params;
    }
    return layer;
  });

const textLayer: fc.Arbitrary<LayerMaker> = fc
  .record({
    t: transform,
    text: fc.string({ maxLength: 40 }),
    vertical: fc.boolean(),
    backgroundType: fc.constantFrom('NONE', 'RECTANGLE', 'SPEECH_BUBBLE' as const),
    fontSize: num(1, 200),
    fontColor: color,
    bubble: fc.integer({ min: 0, max: 38 }),
  })
  .map(
    ({ t, bubble, ...data }) =>
      (id: string) =>
        createTextLayer(id, t, { ...data, bubbleStyle: `b${bubble}` }),
  );

const panelLayer: fc.Arbitrary<LayerMaker> = fc
  .record({
    x: num(0, 1000),
    y: num(0, 1500),
    w: num(10, 600),
    h: num(10, 800),
    border: fc.boolean(),
    description: fc.string(),
  })
  .map(
    ({ x, y, w, h, border, description }) =>
      (id: string) =>
        createPanelLayer(id, { x, y, size: { width: w, height: h } }, { border, description }),
  );

const poseLayer: fc.Arbitrary<LayerMaker> = fc.record({ t: transform, full: fc.boolean() }).map(
  ({ t, full }) =>
    (id: string) =>
      createPoseLayer(id, t, full),
);

const sketchLayer: fc.Arbitrary<LayerMaker> = fc
  .record({
    t: transform,
    points: fc.array(num(0, 500), { minLength: 2, maxLength: 10 }).filter((p) => p.length % 2 === 0),
  })
  .map(({ t, points }) => (id: string) => {
    const layer = createSketchLayer(id, t);
    layer.data.brushes.push({ color: '#666', radius: 30, strokes: [{ points, radius: 30, erase: false }] });
    return layer;
  });

const fillLayer: fc.Arbitrary<LayerMaker> = fc.record({ t: transform, c: color }).map(
  ({ t, c }) =>
    (id: string) =>
      createFillLayer(id, t, c),
);

const leafLayer = fc.oneof(imageLayer, textLayer, panelLayer, poseLayer, sketchLayer, fillLayer);

interface TreeSpec {
  makers: LayerMaker[];
  groups: LayerMaker[][];
  clipPairs: [number, number][];
  neighborPairs: [number, number, 'right' | 'bottom'][];
}

const treeSpec: fc.Arbitrary<TreeSpec> = fc.record({
  makers: fc.array(leafLayer, { maxLength: 8 }),
  groups: fc.array(fc.array(leafLayer, { maxLength: 3 }), { maxLength: 2 }),
  clipPairs: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
  neighborPairs: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom('right' as const, 'bottom' as const)), {
    maxLength: 3,
  }),
});

/** Builds a valid root group from a spec: clip links between siblings and symmetric neighbour links between panels. */
function buildRoot(spec: TreeSpec, nextId: () => string): Layer {
  const children: Layer[] = spec.makers.map((make) => make(nextId()));
  for (const group of spec.groups) {
    children.push(
      createGroupLayer(
        nextId(),
        group.map((make) => make(nextId())),
      ),
    );
  }
  const clippable = children.filter((c) => c.type !== 'GROUP');
  const clipped = new Set<string>();
  for (const [a, b] of spec.clipPairs) {
    if (clippable.length < 2) break;
    const target = clippable[a % clippable.length]!;
    const layer = clippable[b % clippable.length]!;
    if (target === layer || clipped.has(target.id) || clipped.has(layer.id) || layer.clippedLayers.length > 0) continue;
    if (clippable.some((c) => c.clippedLayers.includes(target.id))) continue;
    target.clippedLayers.push(layer.id);
    clipped.add(layer.id);
  }
  const panels = children.filter((c): c is Extract<Layer, { type: 'PANEL' }> => c.type === 'PANEL');
  for (const [a, b, side] of spec.neighborPairs) {
    if (panels.length < 2) break;
    const p = panels[a % panels.length]!;
    const q = panels[b % panels.length]!;
    if (p === q || p.data.neighborPanels[side].includes(q.id)) continue;
    p.data.neighborPanels[side].push(q.id);
    q.data.neighborPanels[side === 'right' ? 'left' : 'top'].push(p.id);
  }
  return createGroupLayer(nextId(), children);
}

const fraction = num(0, 1);

const regionalPrompt = fc.record({
  color,
  prompt: fc.string(),
  negativePrompt: fc.string(),
  rect: fc.option(fc.record({ x0: fraction, y0: fraction, x1: fraction, y1: fraction }), { nil: null }),
});

const sketchMap = fc.record({
  brushes: fc.array(
    fc.record({
      color,
      radius: num(1, 400),
      prompt: fc.string(),
      negativePrompt: fc.string(),
      strokes: fc.array(
        fc.record({
          points: fc.array(fraction, { maxLength: 6 }).map((p) => (p.length % 2 ? p.slice(1) : p)),
          radius: num(1, 400),
          erase: fc.boolean(),
        }),
        { maxLength: 3 },
      ),
    }),
    { maxLength: 3 },
  ),
  backgroundPrompt: fc.string(),
});

/** Valid workspace documents of both kinds, with every layer type, clips, groups and neighbour links. */
export const arbWorkspaceData: fc.Arbitrary<WorkspaceData> = fc
  .record({
    comic: fc.boolean(),
    root: treeSpec,
    pages: fc.array(fc.record({ spec: treeSpec, story: fc.string() }), { minLength: 1, maxLength: 3 }),
    rtl: fc.boolean(),
    view: fc.record({ x: num(-1e4, 1e4), y: num(-1e4, 1e4), zoom: num(0.01, 4) }),
    lastPage: fc.nat(),
    regionalPrompts: fc.array(regionalPrompt, { maxLength: 3 }),
    sketchMap,
  })
  .map(({ comic, root, pages, rtl, view, lastPage, regionalPrompts, sketchMap }) => {
    let n = 0;
    const nextId = () => `L${n++}`;
    const data: WorkspaceData = {
      version: DOCUMENT_VERSION,
      viewTransform: view,
      rootLayer: comic ? createGroupLayer(nextId()) : (buildRoot(root, nextId) as WorkspaceData['rootLayer']),
      pages: comic
        ? pages.map((p) => ({
            uuid: nextId(),
            viewTransform: { x: 0, y: 0, zoom: 1 },
            rootLayer: buildRoot(p.spec, nextId) as WorkspaceData['rootLayer'],
            generatedStory: p.story,
            thumbnailUrl: null,
          }))
        : [],
      comicConfiguration: {
        width: COMIC_PAGE_WIDTH,
        height: COMIC_PAGE_HEIGHT,
        readingOrder: rtl ? 'RIGHT_TO_LEFT' : 'LEFT_TO_RIGHT',
        setup: defaultPageSetup(),
      },
      lastPage: comic ? lastPage % pages.length : 0,
      regionalPrompts,
      sketchMap,
    };
    return data;
  });
