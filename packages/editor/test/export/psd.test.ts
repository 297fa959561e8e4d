import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPsd, type Layer } from 'ag-psd';
import {
  ExportError,
  buildPsd,
  ensurePsdPixels,
  explainPsdError,
  planPage,
  psdExtension,
  watermarkMask,
  writePsdBytes,
  zipFiles,
} from '../../src/export/index.ts';
import { COLORS, fixtureDoc, syntheticRasters } from './support.ts';
import { createPanelLayer } from '@koma/domain';
import { drawBlended } from '../../src/export/blend.ts';
import { layerPixels } from '../../src/export/psd.ts';
import { createRaster, type Raster } from '../../src/export/raster.ts';
import type { BlendMode } from '@koma/domain';
import { unzipSync } from 'fflate';

const tmp = mkdtempSync(join(tmpdir(), 'koma-psd-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function exportFixture(plan: 'free' | 'subscriber' = 'subscriber', compression = 0) {
  const { doc, rootId } = fixtureDoc();
  const pagePlan = planPage(doc, rootId);
  const built = buildPsd(pagePlan, syntheticRasters(pagePlan), { plan });
  const bytes = writePsdBytes(built.psd, { compression });
  ensurePsdPixels();
  const back = readPsd(bytes, { useImageData: true, useRawThumbnail: true });
  return { pagePlan, built, bytes, back };
}

const names = (layers: readonly Layer[] | undefined) => (layers ?? []).map((l) => l.name);
const find = (layers: readonly Layer[] | undefined, name: string) => {
  const hit = (layers ?? []).find((l) => l.name === name);
  if (!hit) throw new Error(`no layer ${name} in ${names(layers).join(', ')}`);
  return hit;
};
const pixel = (l: Layer, x: number, y: number) => {
  const img = l.imageData!;
  const i = ((y - l.top!) * img.width + (x - l.left!)) * 4;
  return [...img.data.slice(i, i + 4)];
};

describe('PSD export round trip', () => {
  const { pagePlan, built, bytes, back } = exportFixture();

  it('is a 1700×2400 8-bit document with a group per panel in reading order, panel 1 on top', () => {
    expect(pagePlan.scaleX).toBe(2);
    expect([back.width, back.height, back.bitsPerChannel]).toEqual([1700, 2400, 8]);
    expect(names(back.children)).toEqual([
      'Background',
      'Panel 3',
      'Panel 2',
      'Panel 1',
      'Logo',
      'Hello background',
      'Hello',
    ]);
    const panel1 = find(back.children, 'Panel 1');
    expect(names(panel1.children)).toEqual(['Panel 1 area', 'Sky', 'Panel 1 border']);
    expect(names(find(back.children, 'Panel 2').children)).toEqual(['Panel 2 area', 'Hero', 'Panel 2 border']);
    // Panel C has no border in the document, so its group has no border layer.
    expect(names(find(back.children, 'Panel 3').children)).toEqual(['Panel 3 area']);
    expect(built.layerCount).toBe(14); // 11 rasters and 3 groups
  });

  it('clips images to their panel with a clipping mask and keeps hidden layers hidden', () => {
    const panel1 = find(back.children, 'Panel 1');
    const sky = find(panel1.children, 'Sky');
    expect(sky.clipping).toBe(true);
    expect(sky.hidden).toBe(false);
    expect(find(panel1.children, 'Panel 1 area').clipping).toBeFalsy();
    const hero = find(find(back.children, 'Panel 2').children, 'Hero');
    expect(hero.hidden).toBe(true);
    expect(hero.clipping).toBe(true);
    expect([hero.left, hero.top, hero.right, hero.bottom]).toEqual([120, 1400, 520, 2000]);
    expect(pixel(hero, 300, 1500)).toEqual([...COLORS.hero!]);
  });

  it('keeps the whole image under the clip, scaled ×2 and cut to the canvas', () => {
    const sky = find(find(back.children, 'Panel 1').children, 'Sky');
    expect([sky.left, sky.top, sky.right, sky.bottom]).toEqual([0, 0, 1700, 1200]);
    expect(pixel(sky, 10, 10)).toEqual([...COLORS.sky!]);
    const logo = find(back.children, 'Logo');
    expect([logo.left, logo.top, logo.right, logo.bottom]).toEqual([1400, 2200, 1600, 2300]);
  });

  it('draws the panel area and a black 5 px border', () => {
    const panel1 = find(back.children, 'Panel 1');
    const area = find(panel1.children, 'Panel 1 area');
    expect([area.left, area.top, area.right, area.bottom]).toEqual([100, 100, 1600, 1100]);
    expect(pixel(area, 800, 600)).toEqual([255, 255, 255, 255]);
    const border = find(panel1.children, 'Panel 1 border');
    // The stroke is centred on the edge x = 100 and 5 px wide: pixels 97..101 are black, 96 and 102 are not.
    const row = [95, 96, 97, 98, 99, 100, 101, 102, 103].map((x) => pixel(border, x, 600)[3]);
    expect(row).toEqual([0, 0, 255, 255, 255, 255, 255, 0, 0]);
    expect(pixel(border, 100, 600).slice(0, 3)).toEqual([0, 0, 0]);
  });

  it('writes text as an editable text layer whose pixels are the rasterised text, trimmed from the padding', () => {
    const hello = find(back.children, 'Hello');
    expect(hello.text?.text).toBe('Hello');
    expect(hello.text?.style?.fontSize).toBeCloseTo(60);
    // Text box (200,200)-(600,400) at 2×; the synthetic glyphs are a 40×20 block in the middle of the padded area.
    const cx = (Math.max(0, 200 - 300) + 600 + 300) / 2;
    const cy = (Math.max(0, 200 - 300) + 400 + 300) / 2;
    expect([hello.left, hello.top, hello.right, hello.bottom]).toEqual([cx - 20, cy - 10, cx + 20, cy + 10]);
    const bubble = find(back.children, 'Hello background');
    expect(bubble.text).toBeUndefined();
    expect(bubble.right! - bubble.left!).toBe(400);
  });

  it('stores a composite where clipped pixels stay inside their panel, and a 160 px thumbnail', () => {
    const img = back.imageData!;
    const at = (x: number, y: number) => [...img.data.slice((y * 1700 + x) * 4, (y * 1700 + x) * 4 + 4)];
    expect(at(800, 600)).toEqual([...COLORS.sky!]); // inside panel 1
    expect(at(50, 50)).toEqual([255, 255, 255, 255]); // sky outside the panel is clipped away
    expect(at(300, 1500)).toEqual([255, 255, 255, 255]); // hidden hero
    expect(at(1500, 2250)).toEqual([...COLORS.logo!]);
    expect(at(100, 600)).toEqual([0, 0, 0, 255]); // border
    expect(back.imageResources?.thumbnailRaw).toMatchObject({ width: 113, height: 160 });
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('is read by ImageMagick with the expected size and layer count', () => {
    const file = join(tmp, 'page.psd');
    writeFileSync(file, bytes);
    const out = execFileSync('identify', [file], { encoding: 'utf8' }).trim().split('\n');
    // ImageMagick lists the composite first, then each raster layer (group markers are not listed): the background,
    // panel 3's area, panel 2's area, hero and border, panel 1's area, sky and border, the logo, the bubble, the text.
    expect(out).toHaveLength(1 + 11);
    expect(out[0]).toMatch(/PSD 1700x2400 1700x2400\+0\+0 8-bit sRGB/);
    expect(out[7]).toMatch(/PSD 1700x1200 1700x1200\+0\+0 8-bit/); // sky
    expect(out[11]).toMatch(/PSD 40x20 40x20\+430\+340 8-bit/); // the text's pixels
  });

  it('watermarks the free tier in the pixels of every layer the mark crosses, with no layer of its own', () => {
    const free = exportFixture('free').back;
    // The same layers as a subscriber's file: nothing to hide that would take the mark away.
    const tree = (layers: Layer[] | undefined): unknown[] =>
      (layers ?? []).map((l) => (l.children ? [l.name, tree(l.children)] : l.name));
    expect(tree(free.children)).toEqual(tree(back.children));
    const mask = watermarkMask(1700, 2400);
    const rasters = (layers: Layer[] | undefined): Layer[] =>
      (layers ?? []).flatMap((l) => (l.children ? rasters(l.children) : l.imageData ? [l] : []));
    const paid = rasters(back.children);
    const marked = rasters(free.children);
    expect(marked.length).toBe(paid.length);
    let crossed = 0;
    marked.forEach((layer, n) => {
      const plain = paid[n]!;
      let onMark = 0;
      let changedOnMark = 0;
      let changedOff = 0;
      const { width, height, data } = layer.imageData!;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const o = (y * width + x) * 4;
          if (data[o + 3] === 0) continue;
          const changed = data[o] !== plain.imageData!.data[o];
          if (mask[(layer.top! + y) * 1700 + layer.left! + x]) {
            onMark++;
            if (changed) changedOnMark++;
          } else if (changed) changedOff++;
        }
      }
      expect(changedOff, layer.name).toBe(0);
      // Grey pulls every colour but mid grey itself; nearly every marked pixel changes.
      if (onMark > 0) expect(changedOnMark, layer.name).toBeGreaterThan(onMark * 0.9);
      if (onMark > 0) crossed++;
    });
    expect(crossed).toBeGreaterThan(marked.length / 2);
    // The flattened picture carries it everywhere on the page, corners and middle alike.
    const composite = free.imageData!;
    const seen = [0, 0, 0, 0];
    for (let i = 0; i < mask.length; i++) {
      if (!mask[i] || composite.data[i * 4] === back.imageData!.data[i * 4]) continue;
      const x = i % 1700;
      const y = Math.floor(i / 1700);
      seen[(x < 850 ? 0 : 1) + (y < 1200 ? 0 : 2)]! += 1;
    }
    for (const quarter of seen) expect(quarter).toBeGreaterThan(1000);
  });

  it('packs one PSD per page into a zip', () => {
    const zip = zipFiles([
      { name: 'page-1.psd', bytes },
      { name: 'page-1.psd', bytes },
    ]);
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(['page-1.psd', 'page-1 (2).psd']);
    expect(Buffer.compare(files['page-1.psd']!, bytes)).toBe(0);
  });

  it('writes zip-compressed channels on request, with the same pixels', () => {
    const zipped = exportFixture('subscriber', 6);
    const sky = find(find(zipped.back.children, 'Panel 1').children, 'Sky');
    expect(pixel(sky, 10, 10)).toEqual([...COLORS.sky!]);
    expect(zipped.bytes.length).toBeLessThan(bytes.length);
    expect(() => writePsdBytes(built.psd, { compression: 10 })).toThrow(/0 to 9/);
  });
});

describe('writer rules', () => {
  it('turns ag-psd errors into sentences', () => {
    expect(() => writePsdBytes({ width: 0, height: 10 })).toThrow(ExportError);
    expect(explainPsdError(new Error('bitsPerChannel other than 8 are not supported for writing'))).toBe(
      'Only 8 bits per channel can be written to a PSD file.',
    );
    expect(explainPsdError(new Error("Invalid layer, cannot have both 'canvas' and 'children' properties"))).toBe(
      'A layer cannot hold both pixels and other layers.',
    );
    expect(() => writePsdBytes({ width: 4, height: 4, bitsPerChannel: 16 })).toThrow(/8 bits per channel/);
  });

  it('writes PSB above 30000 px and truncates names to 255 characters', () => {
    expect(psdExtension(30000, 30000)).toBe('psd');
    expect(psdExtension(30001, 10)).toBe('psb');
    const bytes = writePsdBytes({ width: 30001, height: 2, children: [{ name: 'x'.repeat(300), left: 0, top: 0 }] });
    expect(new DataView(bytes.buffer, bytes.byteOffset).getUint16(4)).toBe(2); // PSB version
    const { doc, rootId } = fixtureDoc();
    doc.layers.logo!.name = 'L'.repeat(400);
    const plan = planPage(doc, rootId);
    const back = readPsd(writePsdBytes(buildPsd(plan, syntheticRasters(plan), { plan: 'subscriber' }).psd), {
      skipLayerImageData: true,
      skipCompositeImageData: true,
      skipThumbnail: true,
    });
    expect(back.children!.find((l) => l.name?.startsWith('LLL'))!.name!.length).toBe(255);
  });
});

describe('PSD type layers carry what the editor drew', () => {
  it('names the font drawn (Japanese gothic for vertical text), keeps ruby notation as text, and writes the outline as a stroke effect', () => {
    const { doc, rootId } = fixtureDoc();
    const hello = doc.layers['hello']!;
    if (hello.type !== 'TEXT') throw new Error('hello is text');
    hello.data = {
      ...hello.data,
      text: '｜漢字《かんじ》!?',
      vertical: true,
      fontName: 'Komika',
      fontStroke: true,
      fontStrokeSize: 6,
      fontStrokeColor: '#ff0000',
    };
    const pagePlan = planPage(doc, rootId);
    const built = buildPsd(pagePlan, syntheticRasters(pagePlan), { plan: 'subscriber' });
    ensurePsdPixels();
    const back = readPsd(writePsdBytes(built.psd, { compression: 0 }), { useImageData: true, useRawThumbnail: true });
    const layer = find(back.children, 'Hello');
    expect(layer.text?.text).toBe('｜漢字《かんじ》!?');
    expect(layer.text?.orientation).toBe('vertical');
    expect(layer.text?.style?.font?.name).toBe('NotoSansJP-Regular');
    const stroke = layer.effects?.stroke?.[0];
    expect(stroke).toMatchObject({ enabled: true, position: 'outside', fillType: 'color' });
    expect(stroke?.color).toMatchObject({ r: 255, g: 0, b: 0 });
    // 6 px centred on the glyph edge at 2× export: 6 px outside.
    expect(stroke?.size).toMatchObject({ units: 'Pixels', value: 6 });
  });

  it("names Comic Neue for the spec's Komika in horizontal text, and writes no stroke for plain text", () => {
    const { back } = exportFixture();
    const layer = find(back.children, 'Hello');
    expect(layer.text?.style?.font?.name).toBe('ComicNeue-Regular');
    expect(layer.effects?.stroke).toBeUndefined();
  });
});

describe('the shared white page', () => {
  it('is the same Background for every build of a size, and a free build marks a copy, never it', () => {
    const { doc, rootId } = fixtureDoc();
    const pagePlan = planPage(doc, rootId);
    const background = (plan: 'free' | 'subscriber') =>
      buildPsd(pagePlan, syntheticRasters(pagePlan), { plan, thumbnail: false }).psd.children![0]!.imageData!;
    const first = background('subscriber');
    const marked = background('free');
    expect(marked).not.toBe(first);
    expect(marked.data.some((v) => v !== 255)).toBe(true);
    const again = background('subscriber');
    expect(again).toBe(first);
    expect(again.data.every((v) => v === 255)).toBe(true);
  });

  it('is also the pixels of a panel area that fills its rectangle, which a free build marks in a copy', () => {
    const { doc, rootId } = fixtureDoc();
    const pagePlan = planPage(doc, rootId);
    const layers = (plan: 'free' | 'subscriber') => {
      const { psd } = buildPsd(pagePlan, syntheticRasters(pagePlan), { plan, thumbnail: false });
      const panel1 = psd.children!.find((l) => l.name === 'Panel 1')!;
      return { background: psd.children![0]!.imageData!, area: panel1.children![0]!.imageData! };
    };
    const plain = layers('subscriber');
    expect([plain.area.width, plain.area.height]).toEqual([1500, 1000]);
    expect(plain.area.data.buffer).toBe(plain.background.data.buffer);
    expect(plain.area.data.length).toBe(1500 * 1000 * 4);
    const marked = layers('free');
    expect(marked.area.data.buffer).not.toBe(plain.background.data.buffer);
    expect(marked.area.data.some((v) => v !== 255)).toBe(true);
    expect(layers('subscriber').background.data.every((v) => v === 255)).toBe(true);
  });
});

describe('the composite', () => {
  it('is every visible layer drawn whole, in order, each clipped to its base as read', () => {
    // The builder fills a white panel area, draws an outline only where it can be and trusts an all-white base
    // instead of reading it; drawing every layer of the file whole must give the same bytes.
    const { doc, rootId } = fixtureDoc();
    const pagePlan = planPage(doc, rootId);
    const rasters = syntheticRasters(pagePlan);
    for (const node of pagePlan.nodes.flatMap((n) => (n.kind === 'group' ? n.children : [n]))) {
      if (node.kind !== 'raster' || node.layerId !== 'sky') continue;
      // Noise under a blend mode, so that the blended pixels differ from pixel to pixel.
      const sky = rasters.get(node.key)!;
      let seed = 7;
      for (let i = 0; i < sky.data.length; i++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        if (i % 4 !== 3) sky.data[i] = seed & 255;
      }
      node.blendMode = 'multiply';
      node.opacity = 0.8;
    }
    const { psd, composite } = buildPsd(pagePlan, rasters, { plan: 'subscriber', thumbnail: false });
    const reference = createRaster(psd.width, psd.height);
    const draw = (layers: readonly Layer[]) => {
      let base: Layer | undefined;
      for (const l of layers) {
        if (l.children) {
          if (!l.hidden) draw(l.children);
          base = undefined;
          continue;
        }
        if (!l.clipping) base = l;
        if (l.hidden || !l.imageData || (l.clipping && (!base || base.hidden || !base.imageData))) continue;
        const clip = l.clipping ? { raster: base!.imageData as Raster, left: base!.left!, top: base!.top! } : undefined;
        const mode = (l.blendMode ?? 'normal') as BlendMode;
        drawBlended(reference, l.imageData as Raster, l.left!, l.top!, mode, l.opacity ?? 1, clip);
      }
    };
    draw(psd.children!);
    expect(psd.children!.some((l) => l.children?.some((c) => c.blendMode === 'multiply'))).toBe(true);
    expect(Buffer.from(composite.data).equals(Buffer.from(reference.data))).toBe(true);
  });
});

describe('panel borders', () => {
  it('of panels of one size are one raster, of others their own, and each its own when the free mark is drawn', () => {
    // Panel D is the size of panel 2 (B) elsewhere on the page; panel 1 (A) is larger.
    const { doc, rootId } = fixtureDoc([
      createPanelLayer('panelD', { x: 470, y: 40, size: { width: 350, height: 550 } }),
    ]);
    const pagePlan = planPage(doc, rootId);
    const borders = (plan: 'free' | 'subscriber') => {
      const { psd } = buildPsd(pagePlan, syntheticRasters(pagePlan), { plan, thumbnail: false });
      const bySize = new Map<string, unknown[]>();
      for (const l of psd.children!.flatMap((g) => g.children ?? [])) {
        if (!l.name!.endsWith('border')) continue;
        const key = `${l.imageData!.width}×${l.imageData!.height}`;
        bySize.set(key, [...(bySize.get(key) ?? []), l.imageData]);
      }
      return bySize;
    };
    const shared = borders('subscriber');
    // Panel A (750×500 at 2×, plus the stroke) alone; panels B and D (350×550) together.
    expect([...shared.keys()].sort()).toEqual(['1508×1008', '708×1108']);
    const [b, d] = shared.get('708×1108')!;
    expect(d).toBe(b);
    expect(shared.get('1508×1008')![0]).not.toBe(b);
    const [ownB, ownD] = borders('free').get('708×1108')!;
    expect(ownD).not.toBe(ownB);
  });
});

describe('layer pixels outside the PSD build', () => {
  it('give a panel area a buffer of its own, never the shared white page (the PDF does not hold that page)', () => {
    const { doc, rootId } = fixtureDoc();
    const pagePlan = planPage(doc, rootId);
    const area = pagePlan.nodes
      .flatMap((n) => (n.kind === 'group' ? n.children : [n]))
      .find((n) => n.kind === 'raster' && n.role === 'panelArea');
    if (area?.kind !== 'raster') throw new Error('no panel area');
    const white = buildPsd(pagePlan, syntheticRasters(pagePlan), { plan: 'subscriber', thumbnail: false }).psd
      .children![0]!.imageData!;
    const { raster } = layerPixels(area, new Map(), pagePlan, undefined);
    expect(raster.data.buffer).not.toBe(white.data.buffer);
    expect(raster.data.length).toBe(area.rect.width * area.rect.height * 4);
    expect(raster.data.every((v) => v === 255)).toBe(true);
  });
});
