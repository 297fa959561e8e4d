import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  COMIC_PAGE_HEIGHT,
  COMIC_PAGE_WIDTH,
  DOCUMENT_VERSION,
  PAGE_SETUP_PRESETS,
  createWorkspaceData,
  decodeWorkspaceData,
  encodeWorkspaceData,
  pageCanvasSize,
  pageSetupBoxes,
  pageSetupProblem,
  presetPageSetup,
  toPixels,
} from '../src/index.ts';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

describe('page setup arithmetic', () => {
  it('turns millimetres and inches into whole pixels at each resolution', () => {
    // 182 mm = 7.165 in: 2507.9 px at 350 dpi, 4299.2 px at 600 dpi.
    expect(toPixels(182, 'mm', 350)).toBe(2508);
    expect(toPixels(182, 'mm', 600)).toBe(4299);
    expect(toPixels(257, 'mm', 350)).toBe(3541);
    expect(toPixels(3, 'mm', 350)).toBe(41);
    expect(toPixels(3, 'mm', 600)).toBe(71);
    expect(toPixels(6.625, 'in', 350)).toBe(2319);
    expect(toPixels(10.25, 'in', 600)).toBe(6150);
    expect(toPixels(0.125, 'in', 350)).toBe(44);
    expect(toPixels(800, 'px', 72)).toBe(800);
    expect(toPixels(25.4, 'mm', 300)).toBe(300);
  });

  it('lays out B5 manga: canvas = trim + 2 × bleed, trim inside the bleed, safe 5 mm inside the trim', () => {
    const boxes = pageSetupBoxes(presetPageSetup('MANGA_B5'));
    expect(boxes.bleedPx).toBe(41);
    expect(boxes.trim).toEqual({ x: 41, y: 41, width: 2508, height: 3541 });
    expect(boxes.media).toEqual({ x: 0, y: 0, width: 2590, height: 3623 });
    expect(boxes.bleed).toEqual(boxes.media);
    expect(boxes.safePx).toBe(69); // 5 mm at 350 dpi
    expect(boxes.safe).toEqual({ x: 110, y: 110, width: 2508 - 138, height: 3541 - 138 });
  });

  it('gives monochrome print 600 dpi and colour 350 dpi', () => {
    expect(presetPageSetup('TANKOBON_B6', 'MONO').dpi).toBe(600);
    expect(presetPageSetup('TANKOBON_B6', 'COLOR').dpi).toBe(350);
    expect(pageCanvasSize(presetPageSetup('A4', 'MONO'))).toEqual({ width: 4961 + 142, height: 7016 + 142 });
  });

  it('keeps the spec page as the default: 1700 × 2400, no bleed, the 110 px margin as safe area', () => {
    const boxes = pageSetupBoxes(presetPageSetup('DEFAULT'));
    expect(boxes.media).toEqual({ x: 0, y: 0, width: COMIC_PAGE_WIDTH, height: COMIC_PAGE_HEIGHT });
    expect(boxes.trim).toEqual(boxes.media);
    expect(boxes.safe).toEqual({ x: 110, y: 110, width: 1480, height: 2180 });
  });

  it('makes webtoon 800 px wide with no bleed', () => {
    const boxes = pageSetupBoxes(presetPageSetup('WEBTOON'));
    expect(boxes.media.width).toBe(800);
    expect(boxes.bleedPx).toBe(0);
    expect(boxes.media.height).toBeGreaterThan(boxes.media.width * 4);
  });

  it('holds for every preset and ink: boxes nest and every canvas is usable', () => {
    for (const preset of PAGE_SETUP_PRESETS) {
      for (const ink of ['COLOR', 'MONO'] as const) {
        const setup = presetPageSetup(preset, ink);
        expect(pageSetupProblem(setup)).toBeNull();
        const { media, trim, safe } = pageSetupBoxes(setup);
        expect(trim.x + trim.width + trim.x).toBe(media.width);
        expect(trim.y + trim.height + trim.y).toBe(media.height);
        expect(safe.x).toBeGreaterThanOrEqual(trim.x);
        expect(safe.x + safe.width).toBeLessThanOrEqual(trim.x + trim.width);
      }
    }
  });

  it('refuses a setup with a bad field, naming it', () => {
    expect(pageSetupProblem({ ...presetPageSetup('A4'), trimWidth: -1 })).toMatch(/trimWidth/);
    expect(pageSetupProblem({ ...presetPageSetup('A4'), dpi: 5000 })).toMatch(/dpi/);
    expect(pageSetupProblem({ ...presetPageSetup('A4'), trimWidth: 2000 })).toMatch(/too large/);
    expect(pageSetupProblem({ ...presetPageSetup('A4'), safe: 200 })).toMatch(/safe/);
  });
});

describe('document version 3: the page setup', () => {
  it('migrates a version 2 comic to the default setup at its own size, with no bleed', () => {
    expect(DOCUMENT_VERSION).toBe(3);
    const result = decodeWorkspaceData(fixture('v2-comic-1200.json'));
    if (!result.ok) throw new Error(result.error.message);
    const config = result.value.comicConfiguration;
    expect(result.value.version).toBe(3);
    expect(config).toMatchObject({ width: 1200, height: 1800, readingOrder: 'RIGHT_TO_LEFT' });
    expect(config.setup).toMatchObject({ preset: 'DEFAULT', unit: 'px', trimWidth: 1200, trimHeight: 1800, bleed: 0 });
    expect(pageSetupBoxes(config.setup).trim).toEqual({ x: 0, y: 0, width: 1200, height: 1800 });
  });

  it('creates a B5 comic whose canvas and first panel follow the setup, and keeps it through save and load', () => {
    let i = 0;
    const doc = createWorkspaceData('COMIC', () => `id${i++}`, 'RIGHT_TO_LEFT', presetPageSetup('MANGA_B5'));
    expect(doc.comicConfiguration).toMatchObject({ width: 2590, height: 3623 });
    const panel = doc.pages[0]!.rootLayer.children[0]!;
    expect(panel.transform).toMatchObject({ x: 110, y: 110 });
    const again = decodeWorkspaceData(JSON.parse(JSON.stringify(encodeWorkspaceData(doc))));
    expect(again).toEqual({ ok: true, value: doc, repairs: [] });
  });

  it('refuses a document whose canvas size disagrees with its setup, naming the field', () => {
    let i = 0;
    const doc = createWorkspaceData('COMIC', () => `id${i++}`, 'LEFT_TO_RIGHT', presetPageSetup('A4'));
    const saved = { ...encodeWorkspaceData(doc), comicConfiguration: { ...doc.comicConfiguration, width: 1700 } };
    const result = decodeWorkspaceData(saved);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ path: 'comicConfiguration.width' });
  });

  it('refuses an unknown preset by its path', () => {
    const doc = createWorkspaceData('COMIC', () => 'x' + Math.random(), 'LEFT_TO_RIGHT');
    const saved = encodeWorkspaceData(doc);
    const bad = {
      ...saved,
      comicConfiguration: { ...saved.comicConfiguration, setup: { ...saved.comicConfiguration.setup, preset: 'B4' } },
    };
    const result = decodeWorkspaceData(bad);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.path).toBe('comicConfiguration.setup.preset');
  });
});
