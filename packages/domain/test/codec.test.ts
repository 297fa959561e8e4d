import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { decodeWorkspaceData, encodeWorkspaceData, createWorkspaceData, DOCUMENT_VERSION } from '../src/index.ts';
import { arbWorkspaceData } from './arbitraries.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('saved-form codec', () => {
  it('decode(encode(d)) deep-equals d for generated documents', () => {
    fc.assert(
      fc.property(arbWorkspaceData, (doc) => {
        const result = decodeWorkspaceData(JSON.parse(JSON.stringify(encodeWorkspaceData(doc))));
        if (!result.ok) throw new Error(result.error.message);
        expect(result.value).toEqual(doc);
      }),
      { numRuns: 150 },
    );
  });

  it('stamps the current version and fills defaults of a new document', () => {
    const doc = createWorkspaceData(
      'COMIC',
      (() => {
        let i = 0;
        return () => `id${i++}`;
      })(),
    );
    const saved = encodeWorkspaceData(doc);
    expect(saved.version).toBe(DOCUMENT_VERSION);
    expect(decodeWorkspaceData(saved)).toEqual({ ok: true, value: doc, repairs: [] });
  });

  it('loads a legacy document: REGIONAL layers dropped, the other reading-order spelling accepted', () => {
    const result = decodeWorkspaceData(fixture('legacy-regional.json'));
    if (!result.ok) throw new Error(result.error.message);
    const doc = result.value;
    expect(doc.version).toBe(DOCUMENT_VERSION);
    expect(doc.comicConfiguration.readingOrder).toBe('RIGHT_TO_LEFT');
    const page = doc.pages[0]!.rootLayer;
    expect(page.children.map((c) => c.type)).toEqual(['PANEL', 'IMAGE', 'TEXT']);
    // The panel listed the dropped regional layer as clipped: that link is gone, the image link stays.
    expect(page.children[0]!.clippedLayers).toEqual(['img-1']);
    const text = page.children[2]!;
    expect(text.type === 'TEXT' && text.data.fontSize).toBe(50);
    expect(text.type === 'TEXT' && text.data.text).toBe('Enter Text');
  });

  it('gives a document saved before regional prompts and the sketch map empty ones', () => {
    const result = decodeWorkspaceData(fixture('legacy-regional.json'));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.regionalPrompts).toEqual([]);
    expect(result.value.sketchMap).toEqual({ brushes: [], backgroundPrompt: '' });
  });

  it('fills the defaults of a saved region and sketch-map brush (no rect yet, radius 80)', () => {
    const saved = {
      ...encodeWorkspaceData(createWorkspaceData('INFINITE', () => 'root')),
      regionalPrompts: [{ color: '#f00', prompt: 'a cat' }],
      sketchMap: { brushes: [{ color: '#0f0', prompt: 'grass' }] },
    };
    const result = decodeWorkspaceData(saved);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.regionalPrompts).toEqual([{ color: '#f00', prompt: 'a cat', negativePrompt: '', rect: null }]);
    expect(result.value.sketchMap).toEqual({
      brushes: [{ color: '#0f0', radius: 80, prompt: 'grass', negativePrompt: '', strokes: [] }],
      backgroundPrompt: '',
    });
  });

  it('accepts left-to-right spelled in lower case', () => {
    const raw = fixture('legacy-regional.json') as { comicConfiguration: { readingOrder: string } };
    raw.comicConfiguration.readingOrder = 'left-to-right';
    const result = decodeWorkspaceData(raw);
    expect(result.ok && result.value.comicConfiguration.readingOrder).toBe('LEFT_TO_RIGHT');
  });

  it('fails on an unknown layer type with "Unknown layer type" and its path', () => {
    const result = decodeWorkspaceData(fixture('unknown-type.json'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('UNKNOWN_LAYER_TYPE');
    expect(result.error.message).toContain('Unknown layer type');
    expect(result.error.path).toBe('pages[0].rootLayer.children[1].children[0].type');
  });

  it('fails on a truncated document with the path of what is missing', () => {
    const text = readFileSync(new URL('./fixtures/legacy-regional.json', import.meta.url), 'utf8');
    expect(() => JSON.parse(text.slice(0, 200))).toThrow();
    const raw = fixture('legacy-regional.json') as { pages: { rootLayer: { children: unknown[] } }[] };
    const truncated = raw.pages[0]!.rootLayer.children[1] as Record<string, unknown>;
    delete truncated.transform;
    const result = decodeWorkspaceData(raw);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_FIELD', path: 'pages[0].rootLayer.children[1].transform' },
    });
  });

  it('fails on wrongly typed fields with their path', () => {
    const cases: [(d: any) => void, string][] = [
      [(d) => (d.pages[0].rootLayer.children[3].data.fontSize = 'big'), 'pages[0].rootLayer.children[3].data.fontSize'],
      [(d) => (d.viewTransform.zoom = -1), 'viewTransform.zoom'],
      [
        (d) => (d.pages[0].rootLayer.children[0].data.vertices = [{ x: 0, y: 0 }]),
        'pages[0].rootLayer.children[0].data.vertices',
      ],
      [(d) => (d.pages[0].rootLayer.children[1].visible = 'yes'), 'pages[0].rootLayer.children[1].visible'],
      [(d) => (d.comicConfiguration.readingOrder = 'TOP_TO_BOTTOM'), 'comicConfiguration.readingOrder'],
      [
        (d) => (d.pages[0].rootLayer.children[0].clippedLayers = ['nope']),
        'pages[0].rootLayer.children[0].clippedLayers[0]',
      ],
      [(d) => (d.version = 99), 'version'],
    ];
    for (const [mutate, path] of cases) {
      const raw = fixture('legacy-regional.json');
      mutate(raw);
      const result = decodeWorkspaceData(raw);
      expect(result.ok, path).toBe(false);
      if (!result.ok) expect(result.error.path).toBe(path);
    }
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = decodeWorkspaceData(value);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
    expect(decodeWorkspaceData(null)).toMatchObject({ ok: false, error: { code: 'NOT_AN_OBJECT' } });
    expect(decodeWorkspaceData({ rootLayer: () => 1 })).toMatchObject({ ok: false });
  });

  it('does not change the object it is given', () => {
    const raw = fixture('legacy-regional.json');
    const before = JSON.stringify(raw);
    decodeWorkspaceData(raw);
    expect(JSON.stringify(raw)).toBe(before);
  });
});
