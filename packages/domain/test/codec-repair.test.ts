import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  decodeWorkspaceData,
  encodeWorkspaceData,
  MAX_JSON_DEPTH,
  SKETCH_BRUSH_RADIUS,
  SKETCH_MAP_BRUSH_RADIUS,
  walkLayers,
  type Layer,
} from '../src/index.ts';
import { checkIntegrity } from '../src/document/integrity.ts';
import { arbWorkspaceData } from './arbitraries.ts';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

function decoded(raw: unknown) {
  const result = decodeWorkspaceData(raw);
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

const ids = (root: Layer) => [...walkLayers(root)].map((l) => l.id);

/** A group nested `depth` levels below the workspace root: the shape of the deep documents of issue 14. */
export function nestedGroups(depth: number): Record<string, unknown> {
  const box = { x: 0, y: 0, size: { width: 1, height: 1 } };
  const group = (id: string) => ({
    id,
    type: 'GROUP',
    transform: box,
    originalSize: box.size,
    children: [] as unknown[],
  });
  const root = group('root');
  let node = root;
  for (let i = 0; i < depth; i++) {
    const child = group(`g${i}`);
    node.children.push(child);
    node = child;
  }
  return { version: 1, rootLayer: root, pages: [] };
}

describe('decoding what earlier apps wrote', () => {
  it('reads strokes stored as lists of points, of pairs, or objects with such lists, and says so', () => {
    const result = decoded(fixture('point-list-strokes.json'));
    const [sketch, image] = result.value.rootLayer.children;
    if (sketch?.type !== 'SKETCH' || image?.type !== 'IMAGE') throw new Error('layers lost');
    expect(sketch.data.brushes[0]!.strokes).toEqual([
      { points: [1, 2, 30, 40], radius: 12, erase: false },
      { points: [5, 6, 7, 8, 9, 10], radius: 12, erase: false },
      { points: [100, 200], radius: 4, erase: false },
      { points: [11, 12, 13, 14], radius: 3, erase: true },
    ]);
    // A brush without a radius draws at the default; its strokes take that radius.
    expect(sketch.data.brushes[1]!.strokes).toEqual([{ points: [0, 0], radius: SKETCH_BRUSH_RADIUS, erase: false }]);
    expect(image.data.maskParams.mask).toEqual([
      { points: [10, 10, 20, 20], radius: SKETCH_BRUSH_RADIUS, erase: false },
    ]);
    expect(result.value.sketchMap.brushes[0]!.strokes).toEqual([
      { points: [0.1, 0.2, 0.3, 0.4], radius: SKETCH_MAP_BRUSH_RADIUS, erase: false },
    ]);
    expect(result.repairs).toEqual([
      expect.objectContaining({
        code: 'STROKE_POINT_LIST',
        count: 6,
        path: 'rootLayer.children[0].data.brushes[0].strokes',
      }),
    ]);
    // Once repaired, the document saves and loads again with nothing left to repair.
    const again = decoded(JSON.parse(JSON.stringify(encodeWorkspaceData(result.value))));
    expect(again.repairs).toEqual([]);
    expect(again.value).toEqual(result.value);
  });

  it('opens a comic whose workspace root mirrors the open page, and a page that reuses ids of another', () => {
    const result = decoded(fixture('mirrored-root.json'));
    const doc = result.value;
    // The mirror is emptied and takes an id of its own; the page keeps its layers and ids.
    expect(doc.rootLayer.children).toEqual([]);
    expect(ids(doc.pages[0]!.rootLayer)).toEqual(['root', 'panel-a', 'panel-b', 'img', 'img-b', 'text-1']);
    expect(doc.rootLayer.id).not.toBe('root');
    expect(doc.pages[1]!.rootLayer.children[0]!.id).toBe('text-1~2');
    expect(doc.comicConfiguration.readingOrder).toBe('RIGHT_TO_LEFT');
    const all = [doc.rootLayer, ...doc.pages.map((p) => p.rootLayer)].flatMap(ids);
    expect(new Set(all).size).toBe(all.length);
    expect(result.repairs.map((r) => r.code).sort()).toEqual(['DUPLICATE_ID', 'MIRRORED_ROOT']);
    expect(result.repairs.find((r) => r.code === 'DUPLICATE_ID')).toMatchObject({
      count: 2,
      path: 'pages[1].rootLayer.children[0].id',
    });
  });

  it('gives a copied page its own ids and points its clips, neighbours and tail links at its own layers', () => {
    const raw = fixture('mirrored-root.json');
    const pages = raw.pages as Record<string, unknown>[];
    // A page duplicated by hand in the file: same uuid, same ids.
    raw.pages = [pages[0], structuredClone(pages[0])];
    const result = decoded(raw);
    const [first, second] = result.value.pages;
    expect(second!.uuid).toBe('page-1~2');
    const layers = new Map([...walkLayers(second!.rootLayer)].map((l) => [l.id, l]));
    expect([...layers.keys()]).toEqual(['root~2', 'panel-a~2', 'panel-b~2', 'img~2', 'img-b~2', 'text-1~2']);
    const a = layers.get('panel-a~2')!;
    expect(a.clippedLayers).toEqual(['img~2']);
    expect(a.type === 'PANEL' && a.data.neighborPanels.right).toEqual(['panel-b~2']);
    const text = layers.get('text-1~2')!;
    expect(text.type === 'TEXT' && text.data.tailTargetLayerId).toBe('img~2');
    // The first page is untouched.
    expect(ids(first!.rootLayer)).toEqual(['root', 'panel-a', 'panel-b', 'img', 'img-b', 'text-1']);
    expect(checkIntegrity(result.value)).toBeNull();
  });

  it('refuses a document nested 10,000 deep with the path where it went too deep, without throwing', () => {
    const result = decodeWorkspaceData(nestedGroups(10_000));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('TOO_DEEP');
    // rootLayer is level 2; each group adds two (the children list and the group).
    expect(result.error.path).toMatch(/^rootLayer(\.children\[0\]){31}\.children$/);
    expect(result.error.message).toBe(`${result.error.path}: nested deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('refuses 1,000 nested groups (150 KB) with a reason instead of a stack overflow', () => {
    const result = decodeWorkspaceData(nestedGroups(1_000));
    expect(result).toMatchObject({ ok: false, error: { code: 'TOO_DEEP' } });
  });

  it('removes NUL characters and replaces lone surrogates in any text, and reports it', () => {
    const raw = fixture('point-list-strokes.json');
    const layers = (raw.rootLayer as { children: Record<string, unknown>[] }).children;
    layers[0]!.name = 'Sk\u0000etch';
    layers[1]!.name = 'cut emoji \ud83d';
    const result = decoded(raw);
    expect(result.value.rootLayer.children.map((l) => l.name)).toEqual(['Sketch', 'cut emoji \ufffd']);
    expect(result.repairs).toContainEqual(
      expect.objectContaining({ code: 'TEXT_CHARACTERS', count: 2, path: 'rootLayer.children[0].name' }),
    );
    // The caller's object is never changed.
    expect(layers[0]!.name).toBe('Sk\u0000etch');
  });

  it('opens a document whose lastPage names a page that is gone at its last page', () => {
    const raw = fixture('mirrored-root.json');
    raw.lastPage = 7;
    const result = decoded(raw);
    expect(result.value.lastPage).toBe(1);
    expect(result.repairs).toContainEqual(expect.objectContaining({ code: 'LAST_PAGE', path: 'lastPage' }));
  });
});

describe('decodeWorkspaceData never throws', () => {
  /** Any JSON, nested up to 200 deep now and then, so depth and shape errors are both reached. */
  const deepJson = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(null, true, 0, -1, 1.5, '', 'GROUP', 'IMAGE', '\u0000', '\ud800'),
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(
        fc.constantFrom('id', 'type', 'children', 'data', 'strokes', 'points', 'pages', 'rootLayer', 'x', 'y'),
        tie('value'),
        { maxKeys: 4 },
      ),
    ),
  })).value;

  /** A valid document with one place replaced by arbitrary JSON. */
  const mutated = fc.tuple(arbWorkspaceData, fc.nat(), fc.oneof(fc.jsonValue(), deepJson)).map(([doc, at, value]) => {
    const raw = JSON.parse(JSON.stringify(encodeWorkspaceData(doc))) as unknown;
    const holders: [Record<string | number, unknown>, string | number][] = [];
    const visit = (node: unknown) => {
      if (typeof node !== 'object' || node === null) return;
      for (const key of Object.keys(node)) {
        holders.push([node as Record<string, unknown>, Array.isArray(node) ? Number(key) : key]);
        visit((node as Record<string, unknown>)[key]);
      }
    };
    visit(raw);
    const target = holders[at % Math.max(1, holders.length)];
    if (target) target[0][target[1]] = value;
    return raw;
  });

  /** Valid groups nested up to 3,000 deep, in the workspace root or in a page. */
  const deepChain = fc.tuple(fc.nat({ max: 3000 }), fc.boolean()).map(([n, inPage]) => {
    const doc = nestedGroups(n);
    if (!inPage) return doc;
    const page = { uuid: 'p', rootLayer: doc.rootLayer };
    return { ...doc, rootLayer: nestedGroups(0).rootLayer, pages: [page] };
  });

  it('answers every JSON input with a result, never an exception', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), deepJson, mutated, deepChain), (raw) => {
        let result;
        expect(() => (result = decodeWorkspaceData(raw))).not.toThrow();
        // The safety net for non-JSON input is never what answers JSON.
        expect(result).not.toMatchObject({ ok: false, error: { code: 'UNREADABLE' } });
      }),
      { numRuns: 400 },
    );
  });

  it('answers objects that are not JSON (throwing getters, cycles) with an error', () => {
    const getter = Object.defineProperty({}, 'rootLayer', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(decodeWorkspaceData(getter)).toMatchObject({ ok: false });
    const cycle: Record<string, unknown> = { pages: [] };
    cycle.rootLayer = cycle;
    expect(decodeWorkspaceData(cycle)).toMatchObject({ ok: false, error: { code: 'TOO_DEEP' } });
  });

  it('decodes repaired output to itself: repairs are idempotent', () => {
    fc.assert(
      fc.property(mutated, (raw) => {
        const first = decodeWorkspaceData(raw);
        if (!first.ok) return;
        const second = decodeWorkspaceData(JSON.parse(JSON.stringify(encodeWorkspaceData(first.value))));
        // Compared in the saved form, as it is stored: JSON writes -0 as 0 (seed 1588617794 drew a transform x of
        // -0, which toEqual tells from 0).
        const asSaved = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
        expect(second.ok && { value: asSaved(second.value), repairs: second.repairs }).toEqual({
          value: asSaved(first.value),
          repairs: [],
        });
      }),
      { numRuns: 200 },
    );
  });
});
