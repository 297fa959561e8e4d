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
  writePsdBytes,
  zipFiles,
} from '../../src/export/index.ts';
import { COLORS, fixtureDoc, syntheticRasters } from './support.ts';
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

  it('watermarks the free tier as a top layer and in the composite, and not subscribers', () => {
    const free = exportFixture('free').back;
    expect(names(free.children).at(-1)).toBe('Watermark');
    expect(names(back.children)).not.toContain('Watermark');
    const mark = find(free.children, 'Watermark');
    const x = mark.left! + 2;
    const y = mark.top! + 2;
    const at = (img: NonNullable<typeof back.imageData>) => [
      ...img.data.slice((y * 1700 + x) * 4, (y * 1700 + x) * 4 + 4),
    ];
    expect(at(back.imageData!)).toEqual([255, 255, 255, 255]);
    expect(at(free.imageData!)).not.toEqual([255, 255, 255, 255]);
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
